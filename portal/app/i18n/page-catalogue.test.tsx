import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LanguageSelector } from "../ui/language-selector.tsx";
import en from "./en.json";
import es from "./es.json";
import { heldCatalogue, holdPageStrings, usePageCatalogue } from "./page-catalogue.ts";
import { createTranslator } from "./translator.ts";
import { TranslatorProvider } from "./translator-context.tsx";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The root's use of the hook: the page's language and texts from its catalogue. */
function Page() {
  const page = usePageCatalogue("en");
  const translator = createTranslator(page.locale, page.messages, page.onMiss);
  return (
    <TranslatorProvider translator={translator}>
      <p data-testid="lang">{page.locale}</p>
      <h1>{translator.t("login.title")}</h1>
      <p data-testid="later">{translator.lookup("login.forgotPassword") ?? "(none)"}</p>
      <p data-testid="absent">{translator.lookup("kratos.1999999") ?? "(none)"}</p>
      <LanguageSelector />
    </TranslatorProvider>
  );
}

function renderAt(url: string) {
  const Stub = createRoutesStub([{ path: "/:lang/login", Component: Page }]);
  return render(<Stub initialEntries={[url]} />);
}

/** A fetch answering each catalogue file with its JSON, and counting the reads. */
function catalogueFiles() {
  const read = vi.fn((url: string) =>
    Promise.resolve(new Response(JSON.stringify(/es\.json/.test(url) ? es : en))),
  );
  vi.stubGlobal("fetch", read);
  return read;
}

describe("the page's catalogue", () => {
  it("starts with the strings the server sent; a string it lacks reads the whole catalogue once", async () => {
    const read = catalogueFiles();
    holdPageStrings({
      strings: { en: { "login.title": en["login.title"], "language.en": "English" } },
      absent: ["kratos.1999999"],
    });
    renderAt("/en/login");
    expect(screen.getByRole("heading", { name: "Sign in" })).toBeInTheDocument();

    // The language selector's "Español" and the later text were not sent: the file is read.
    await waitFor(() => {
      expect(screen.getByTestId("later")).toHaveTextContent(en["login.forgotPassword"]);
    });
    expect(heldCatalogue("en")).toEqual(en);
    expect(screen.getByRole("link", { name: "Español" })).toBeInTheDocument();
    expect(read).toHaveBeenCalledOnce();
    expect(read.mock.calls[0]?.[0]).toMatch(/en\.json/);
    // A key no catalogue has stays absent, and reads nothing more.
    expect(screen.getByTestId("absent")).toHaveTextContent("(none)");
  });

  it("is read from its static file when the user heads for another language, then used", async () => {
    const read = catalogueFiles();
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
