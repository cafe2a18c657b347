import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  productionFiles,
  reactRouterProduction,
  withoutDisplayNames,
} from "./react-router-production.ts";

describe("reactRouterProduction", () => {
  it("points the browser's react-router imports at files the package ships", () => {
    const plugin = reactRouterProduction();
    const resolveId = plugin.resolveId as (source: string) => string | null;
    for (const specifier of Object.keys(productionFiles)) {
      const file = resolveId(specifier);
      expect(file).toMatch(/[\\/]dist[\\/]production[\\/]/);
      expect(existsSync(file ?? "")).toBe(true);
    }
    expect(resolveId("react")).toBeNull();
  });

  it("drops top-level display names and marks component factories pure, nothing else", () => {
    const code = [
      "var NavLink = React10.forwardRef(",
      "  function NavLinkWithRef() {}",
      ");",
      'NavLink.displayName = "NavLink";',
      "var Memo = React3.memo(Inner);",
      "var Context = React.createContext(null);",
      "function inner() {",
      '  fetcher.displayName = "fetcher.Form";',
      "}",
      "",
    ].join("\n");
    expect(withoutDisplayNames(code)).toBe(
      [
        "var NavLink = /* @__PURE__ */ React10.forwardRef(",
        "  function NavLinkWithRef() {}",
        ");",
        "var Memo = /* @__PURE__ */ React3.memo(Inner);",
        "var Context = /* @__PURE__ */ React.createContext(null);",
        "function inner() {",
        '  fetcher.displayName = "fetcher.Form";',
        "}",
        "",
      ].join("\n"),
    );
  });
});
