import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../test/render.tsx";
import { LanguageSelector, localizedPath } from "./language-selector.tsx";

describe("localizedPath", () => {
  it("swaps the locale segment and keeps the rest and the query", () => {
    expect(localizedPath("/en/login", "?flow=f1&return_to=x", "es")).toBe(
      "/es/login?flow=f1&return_to=x",
    );
    expect(localizedPath("/es", "", "en")).toBe("/en");
  });

  it("adds a locale to paths without one", () => {
    expect(localizedPath("/", "?redirect-state=agency-selection", "es")).toBe(
      "/es?redirect-state=agency-selection",
    );
    expect(localizedPath("/no-such-page", "", "es")).toBe("/es/no-such-page");
  });
});

describe("LanguageSelector", () => {
  it("links each language by its own name, marking the current one", () => {
    renderInPortal(() => <LanguageSelector />, { url: "/en/login?flow=f1" });

    const nav = screen.getByRole("navigation", { name: "Language" });
    expect(nav).toBeInTheDocument();
    const english = screen.getByRole("link", { name: "English" });
    const spanish = screen.getByRole("link", { name: "Español" });
    expect(english).toHaveAttribute("aria-current", "true");
    expect(spanish).not.toHaveAttribute("aria-current");
    expect(spanish).toHaveAttribute("href", "/es/login?flow=f1");
    expect(spanish).toHaveAttribute("lang", "es");
  });
});
