// @vitest-environment node
import { describe, expect, it } from "vitest";
import { detectLocale } from "./detect-locale.server.ts";

function request(headers: Record<string, string>) {
  return new Request("http://localhost:3000/login", { headers });
}

describe("detectLocale", () => {
  it("prefers the language the user picked (cookie)", () => {
    expect(detectLocale(request({ cookie: "theme=dark; lang=es", "accept-language": "en" }))).toBe(
      "es",
    );
  });

  it("ignores a cookie naming a language the portal does not have", () => {
    expect(detectLocale(request({ cookie: "lang=fr", "accept-language": "es-MX,es;q=0.9" }))).toBe(
      "es",
    );
  });

  it("follows Accept-Language by weight, not by order", () => {
    expect(detectLocale(request({ "accept-language": "fr;q=0.9, en;q=0.5, es;q=0.8" }))).toBe("es");
    expect(detectLocale(request({ "accept-language": "de, en-GB;q=0.7" }))).toBe("en");
  });

  it("skips languages the browser refuses (q=0)", () => {
    expect(detectLocale(request({ "accept-language": "es;q=0, en;q=0.1" }))).toBe("en");
  });

  it("falls back to English", () => {
    expect(detectLocale(request({}))).toBe("en");
    expect(detectLocale(request({ "accept-language": "de-DE, fr" }))).toBe("en");
  });
});
