import { describe, expect, it } from "vitest";
import { asLocale, localeFromAcceptLanguage } from "./locale.ts";

describe("localeFromAcceptLanguage", () => {
  it("picks the supported language the client prefers most", () => {
    expect(localeFromAcceptLanguage("es-MX,es;q=0.9,en;q=0.8")).toBe("es");
    expect(localeFromAcceptLanguage("fr-FR,fr;q=0.9,es;q=0.5,en;q=0.4")).toBe("es");
    expect(localeFromAcceptLanguage("en-US,es;q=0.9")).toBe("en");
    expect(localeFromAcceptLanguage("es;q=0.4,en;q=0.6")).toBe("en");
  });

  it("falls back to English", () => {
    expect(localeFromAcceptLanguage(undefined)).toBe("en");
    expect(localeFromAcceptLanguage("de-DE")).toBe("en");
    expect(localeFromAcceptLanguage("es;q=0")).toBe("en");
    expect(asLocale("xx")).toBe("en");
    expect(asLocale("es")).toBe("es");
  });
});
