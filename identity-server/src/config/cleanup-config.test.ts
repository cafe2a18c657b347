import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("cleanup configuration", () => {
  it("prunes every 10 minutes, an hour after expiry, sent messages after a week by default", () => {
    expect(loadConfig({}).cleanup).toEqual({
      intervalMs: 600_000,
      keepAfterExpiryMs: 3_600_000,
      courierRetentionMs: 168 * 3_600_000,
    });
  });

  it("reads Go durations, 0 turning the schedule off and keeping nothing after expiry", () => {
    expect(
      loadConfig({
        IDENTITY_CLEANUP_INTERVAL: "0",
        IDENTITY_CLEANUP_KEEP_AFTER_EXPIRY: "0",
        IDENTITY_CLEANUP_COURIER_RETENTION: "720h",
      }).cleanup,
    ).toEqual({ intervalMs: 0, keepAfterExpiryMs: 0, courierRetentionMs: 720 * 3_600_000 });
  });

  it.each([
    ["IDENTITY_CLEANUP_INTERVAL", "soon", '"soon" is not 0 (off) or a duration like 10m'],
    ["IDENTITY_CLEANUP_INTERVAL", "-1m", '"-1m" is not 0 (off) or a duration like 10m'],
    ["IDENTITY_CLEANUP_INTERVAL", "1000h", '"1000h" is not 0 (off) or a duration like 10m'],
    ["IDENTITY_CLEANUP_KEEP_AFTER_EXPIRY", "-1h", '"-1h" is not 0 or a duration like 1h'],
    ["IDENTITY_CLEANUP_COURIER_RETENTION", "0", '"0" is not a positive duration like 168h'],
  ])("refuses %s=%s naming the variable", (variable, value, message) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(`${variable}: ${message}`);
  });
});
