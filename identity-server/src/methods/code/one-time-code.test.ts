import { describe, expect, it } from "vitest";
import { generateCode, hmacCode, sameHmac } from "./one-time-code.ts";

describe("one-time codes", () => {
  it("are six decimal digits, leading zeros included", () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    // With 2000 draws a code below 100000 is all but certain if zeros are padded, not dropped.
    expect(codes.some((code) => code.startsWith("0"))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });

  it("are stored as an HMAC under the server secret, compared in constant time", () => {
    const stored = hmacCode("secret-one", "123456");
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain("123456");
    expect(sameHmac(stored, hmacCode("secret-one", "123456"))).toBe(true);
    expect(sameHmac(stored, hmacCode("secret-two", "123456"))).toBe(false);
    expect(sameHmac(stored, hmacCode("secret-one", "123457"))).toBe(false);
  });
});
