import { describe, expect, it } from "vitest";
import { originsOf, withOrigins } from "./csp-origins.ts";

/** The portal's policy as helmet writes it (server.ts), nonce elided. */
const policy =
  "default-src 'self';script-src 'self' 'nonce-abc';img-src 'self' data:;form-action 'self' http://localhost:4000 http://localhost:4444;frame-ancestors 'none'";

describe("originsOf", () => {
  it("keeps the origins of http(s) URLs, each once, and drops everything else", () => {
    expect(
      originsOf([
        "https://agency.example.gov/callback",
        "https://agency.example.gov/other?x=1",
        "http://127.0.0.1:5555/cb",
        "javascript:alert(1)",
        "not a url",
        undefined,
        "com.example.app:/callback",
      ]),
    ).toEqual(["https://agency.example.gov", "http://127.0.0.1:5555"]);
    expect(originsOf(undefined)).toEqual([]);
  });
});

describe("withOrigins", () => {
  it("adds the client's origins to form-action only", () => {
    expect(
      withOrigins(policy, "form-action", ["https://agency.example.gov", "http://localhost:4444"]),
    ).toBe(
      "default-src 'self';script-src 'self' 'nonce-abc';img-src 'self' data:;form-action 'self' http://localhost:4000 http://localhost:4444 https://agency.example.gov;frame-ancestors 'none'",
    );
  });

  it("adds a logo origin to img-src", () => {
    expect(withOrigins(policy, "img-src", ["https://cdn.example.gov"])).toContain(
      "img-src 'self' data: https://cdn.example.gov;",
    );
  });

  it("replaces 'none' rather than combining it with origins", () => {
    expect(withOrigins("form-action 'none'", "form-action", ["https://a.example"])).toBe(
      "form-action https://a.example",
    );
  });

  it("leaves a policy without the directive unchanged", () => {
    expect(withOrigins("default-src 'self'", "form-action", ["https://a.example"])).toBe(
      "default-src 'self'",
    );
  });
});
