import { describe, expect, it } from "vitest";
import { createTranslator, interpolate, placeholdersOf } from "./translator.ts";

describe("createTranslator", () => {
  const translator = createTranslator("en", {
    "login.title": "Sign in",
    "layout.copyright": "© {year} Agency",
    "kratos.4000032": "at least {min_length}, got {actual_length}",
  });

  it("returns the catalogue text for a key", () => {
    expect(translator.t("login.title")).toBe("Sign in");
  });

  it("fills placeholders from params", () => {
    expect(translator.t("layout.copyright", { year: 2026 })).toBe("© 2026 Agency");
  });

  it("shows the key itself when the catalogue lacks it, so gaps are visible", () => {
    expect(translator.t("login.rememberMe")).toBe("login.rememberMe");
  });

  it("looks up run-time keys and says undefined for unknown ones", () => {
    expect(translator.lookup("kratos.4000032", { min_length: 12, actual_length: 4 })).toBe(
      "at least 12, got 4",
    );
    expect(translator.lookup("kratos.9999999")).toBeUndefined();
  });

  it("knows its locale", () => {
    expect(translator.locale).toBe("en");
  });
});

describe("interpolate", () => {
  it("leaves a placeholder without a param as it is", () => {
    expect(interpolate("Hello {name}", {})).toBe("Hello {name}");
  });

  it("joins arrays and prints numbers and booleans", () => {
    expect(interpolate("{a} / {b} / {c}", { a: ["x", "y"], b: 3, c: false })).toBe(
      "x, y / 3 / false",
    );
  });

  it("does not read inherited properties as params", () => {
    expect(interpolate("{toString}", {})).toBe("{toString}");
  });
});

describe("placeholdersOf", () => {
  it("lists placeholder names in order", () => {
    expect(placeholdersOf("{a} and {b_c} and {a}")).toEqual(["a", "b_c", "a"]);
  });
});
