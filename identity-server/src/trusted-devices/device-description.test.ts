import { describe, expect, it } from "vitest";
import { describeDevice, describeUserAgent } from "./device-description.ts";

describe("describeUserAgent", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1",
      "Chrome on iOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    ["curl/8.5.0", "curl/8.5.0"],
    ["", "an unnamed browser"],
    ["x".repeat(80), `${"x".repeat(59)}…`],
  ])("%s → %s", (agent, words) => {
    expect(describeUserAgent(agent)).toBe(words);
  });
});

describe("describeDevice", () => {
  it("names the browser, the address and the days, without one placeholder or JSON", () => {
    const device = {
      id: "d1",
      identityId: "i1",
      tokenHash: "h",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
      ipAddress: "203.0.113.5",
      fingerprint: null,
      createdAt: new Date("2026-07-01T10:00:00Z"),
      expiresAt: new Date("2026-07-31T10:00:00Z"),
    };
    expect(describeDevice(device)).toBe(
      "Firefox on Linux (203.0.113.5), trusted on 2026-07-01 until 2026-07-31",
    );
    expect(describeDevice({ ...device, userAgent: null, ipAddress: null })).toBe(
      "an unnamed browser, trusted on 2026-07-01 until 2026-07-31",
    );
  });
});
