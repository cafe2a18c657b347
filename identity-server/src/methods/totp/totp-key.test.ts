import { describe, expect, it } from "vitest";
import { matchingTotpStep, newTotpKey, totpCodeAt, totpQrDataUrl, totpStep } from "./totp-key.ts";
import { isTotpUrl } from "../../identity/totp-url.ts";

const at = new Date("2026-03-01T12:00:15Z");

describe("TOTP keys", () => {
  it("are SHA1, six digits, 30-second steps and a 160-bit secret, named by issuer and account", () => {
    const key = newTotpKey("portal.example", "ada@example.com");
    const url = new URL(key.url);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(decodeURIComponent(url.pathname)).toBe("/portal.example:ada@example.com");
    expect(url.searchParams.get("issuer")).toBe("portal.example");
    expect(url.searchParams.get("algorithm")).toBe("SHA1");
    expect(url.searchParams.get("digits")).toBe("6");
    expect(url.searchParams.get("period")).toBe("30");
    expect(url.searchParams.get("secret")).toBe(key.secret);
    // 160 bits are 32 base32 characters without padding.
    expect(key.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpKey("portal.example", "ada@example.com").secret).not.toBe(key.secret);
    expect(isTotpUrl(key.url)).toBe(true);
    expect(isTotpUrl("otpauth://hotp/x?secret=AAAA&counter=1")).toBe(false);
    expect(isTotpUrl("not a url")).toBe(false);
  });

  it("accept the current step and one step either side, nothing further", () => {
    const { url } = newTotpKey("portal.example", "ada");
    const step = totpStep(at);
    const codeAt = (seconds: number) => totpCodeAt(url, new Date(at.getTime() + seconds * 1000));
    expect(matchingTotpStep(url, codeAt(0), at)).toBe(step);
    expect(matchingTotpStep(url, codeAt(-30), at)).toBe(step - 1);
    expect(matchingTotpStep(url, codeAt(30), at)).toBe(step + 1);
    // Codes of other steps could collide by chance (1 in a million); these would need to.
    const far = [codeAt(-60), codeAt(60)].filter(
      (code) => ![codeAt(-30), codeAt(0), codeAt(30)].includes(code),
    );
    for (const code of far) expect(matchingTotpStep(url, code, at)).toBeUndefined();
    expect(matchingTotpStep(url, "12345", at)).toBeUndefined();
    expect(matchingTotpStep(url, "abcdef", at)).toBeUndefined();
  });

  it("draw the QR code as a 256×256 PNG data URL", async () => {
    const { url } = newTotpKey("portal.example", "ada");
    const dataUrl = await totpQrDataUrl(url);
    expect(dataUrl.startsWith("data:image/png;base64,")).toBe(true);
    const png = Buffer.from(dataUrl.slice("data:image/png;base64,".length), "base64");
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    // The IHDR chunk holds width and height as big-endian integers at bytes 16 and 20.
    expect(png.readUInt32BE(16)).toBe(256);
    expect(png.readUInt32BE(20)).toBe(256);
  });
});
