import { render, screen } from "@testing-library/react";
import { Outlet, createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import en from "../i18n/en.json";
import { createTranslator } from "../i18n/translator.ts";
import { TranslatorProvider } from "../i18n/translator-context.tsx";
import { SiteHeader } from "./site-header.tsx";

// In the isolated project: whether the header's sign-out form module was imported. A signed-out
// page (the sign-in page among them) must not download it (DESIGN §6 budget).
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("./sign-out-form.tsx", async (original) => {
  loads.count++;
  return await original();
});

function renderHeader(signedIn: boolean) {
  const translator = createTranslator("en", en);
  const Stub = createRoutesStub([
    {
      id: "routes/locale-layout",
      path: "/:lang",
      loader: () => ({ signedIn }),
      HydrateFallback: () => null,
      Component: () => (
        <TranslatorProvider translator={translator}>
          <SiteHeader ssoPortalUrl="http://localhost:4100" />
          <Outlet />
        </TranslatorProvider>
      ),
      children: [{ path: "login", Component: () => <p>page</p> }],
    },
  ]);
  render(<Stub initialEntries={["/en/login"]} />);
}

describe("the site header's sign-out button", () => {
  it("is neither shown nor loaded while signed out", async () => {
    renderHeader(false);
    expect(await screen.findByText("page")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Sign out" })).toBeNull();
    expect(loads.count).toBe(0);
  });

  it("loads and shows as a sign-out form while a session exists", async () => {
    renderHeader(true);
    const button = await screen.findByRole("button", { name: "Sign out" });
    expect(button.closest("form")).toHaveAttribute("action", "/en/logout");
    expect(loads.count).toBe(1);
  });
});
