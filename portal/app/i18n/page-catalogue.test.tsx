import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LanguageSelector } from "../ui/language-selector.tsx";
import en from "./en.json";
import es from "./es.json";
import { heldCatalogue, usePageCatalogue } from "./page-catalogue.ts";
import { createTranslator } from "./translator.ts";
import { TranslatorProvider } from "./translator-context.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The root's use of the hook: the page's language and a text from its catalogue. */
function Page() {
  const page = usePageCatalogue({ locale: "en", messages: en });
  const translator = createTranslator(page?.locale ?? "en", page?.messages ?? en);
  return (
    <TranslatorProvider translator={translator}>
      <p data-testid="lang">{page?.locale}</p>
      <h1>{translator.t("login.title")}</h1>
      <LanguageSelector />
    </TranslatorProvider>
  );
}

function renderAt(url: string) {
  const Stub = createRoutesStub([{ path: "/:lang/login", Component: Page }]);
  return render(<Stub initialEntries={[url]} />);
}

describe("the page's catalogue", () => {
  it("is the root loader's, and is held for a later switch back", () => {
    renderAt("/en/login");
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeInTheDocument();
    expect(heldCatalogue("en")).toBe(en);
  });

  it("is read from its static file when the user heads for another language, then used", async () => {
    const read = vi.fn((url: string) => {
      expect(url).toMatch(/es\.json/);
      return Promise.resolve(new Response(JSON.stringify(es), { status: 200 }));
    });
    vi.stubGlobal("fetch", read);
    renderAt("/en/login");
    expect(heldCatalogue("es")).toBeUndefined();

    await userEvent.hover(screen.getByRole("link", { name: "Español" }));
    await waitFor(() => {
      expect(heldCatalogue("es")).toEqual(es);
    });
    expect(read).toHaveBeenCalledOnce();

    // Hovering the current language reads nothing; hovering Spanish again reads nothing more.
    await userEvent.hover(screen.getByRole("link", { name: "English" }));
    await userEvent.hover(screen.getByRole("link", { name: "Español" }));
    expect(read).toHaveBeenCalledOnce();

    await userEvent.click(screen.getByRole("link", { name: "Español" }));
    expect(await screen.findByRole("heading", { name: "Iniciar sesión" })).toBeInTheDocument();
    expect(screen.getByTestId("lang")).toHaveTextContent("es");
  });
});
