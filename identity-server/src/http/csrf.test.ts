import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { csrfCookieName, maskToken, verifyCsrfToken } from "./csrf.ts";

describe("anti-CSRF tokens", () => {
  const secret = randomBytes(32);
  const cookie = secret.toString("base64");

  it("masks the secret differently every time, and every mask verifies", () => {
    const a = maskToken(secret);
    const b = maskToken(secret);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, "base64")).toHaveLength(64);
    expect(verifyCsrfToken(cookie, a)).toBe(true);
    expect(verifyCsrfToken(cookie, b)).toBe(true);
    expect(verifyCsrfToken(a, b)).toBe(true);
  });

  it("rejects another secret's token, garbage and empty values", () => {
    expect(verifyCsrfToken(cookie, maskToken(randomBytes(32)))).toBe(false);
    expect(verifyCsrfToken(cookie, "not base64!")).toBe(false);
    expect(verifyCsrfToken(cookie, "")).toBe(false);
    expect(verifyCsrfToken(undefined, maskToken(secret))).toBe(false);
  });

  it("names the cookie after the SHA-256 of the public base URL, as Kratos does", () => {
    expect(csrfCookieName("http://localhost:3000/api/kratos")).toBe(
      "csrf_token_535f956de42a1b4da7eefb866a1bddb2e4cbe2d60c9f89fddd600e720aba79fe",
    );
  });
});
