import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("rate limit configuration", () => {
  it("defaults to Login.gov-like numbers", () => {
    expect(loadConfig({}).rateLimits).toEqual({
      passwordPerIdentifier: { max: 10, windowMs: 15 * 60_000 },
      passwordPerIp: { max: 100, windowMs: 15 * 60_000 },
      passwordPerDevice: { max: 10, windowMs: 15 * 60_000 },
      codeSendsPerAddress: { max: 5, windowMs: 15 * 60_000 },
      codeSendsPerIp: { max: 20, windowMs: 15 * 60_000 },
      codeSendsPerDevice: { max: 5, windowMs: 15 * 60_000 },
      secondFactorPerIdentity: { max: 10, windowMs: 10 * 60_000 },
    });
  });

  it("reads every number and window, 0 turning a limit off", () => {
    expect(
      loadConfig({
        IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: "0",
        IDENTITY_RATE_LIMIT_PASSWORD_PER_IP: "250",
        IDENTITY_RATE_LIMIT_PASSWORD_PER_DEVICE: "4",
        IDENTITY_RATE_LIMIT_PASSWORD_WINDOW: "1h",
        IDENTITY_RATE_LIMIT_CODE_SENDS_PER_ADDRESS: "3",
        IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP: "0",
        IDENTITY_RATE_LIMIT_CODE_SENDS_PER_DEVICE: "7",
        IDENTITY_RATE_LIMIT_CODE_SENDS_WINDOW: "1h30m",
        IDENTITY_RATE_LIMIT_SECOND_FACTOR_PER_IDENTITY: "0",
        IDENTITY_RATE_LIMIT_SECOND_FACTOR_WINDOW: "90s",
      }).rateLimits,
    ).toEqual({
      passwordPerIdentifier: { max: 0, windowMs: 3_600_000 },
      passwordPerIp: { max: 250, windowMs: 3_600_000 },
      passwordPerDevice: { max: 4, windowMs: 3_600_000 },
      codeSendsPerAddress: { max: 3, windowMs: 5_400_000 },
      codeSendsPerIp: { max: 0, windowMs: 5_400_000 },
      codeSendsPerDevice: { max: 7, windowMs: 5_400_000 },
      secondFactorPerIdentity: { max: 0, windowMs: 90_000 },
    });
  });

  it.each([
    ["IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER", "ten"],
    ["IDENTITY_RATE_LIMIT_PASSWORD_PER_IP", "-1"],
    ["IDENTITY_RATE_LIMIT_PASSWORD_PER_DEVICE", "x"],
    ["IDENTITY_RATE_LIMIT_CODE_SENDS_PER_ADDRESS", "2.5"],
    ["IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP", "-3"],
    ["IDENTITY_RATE_LIMIT_CODE_SENDS_PER_DEVICE", "five"],
    ["IDENTITY_RATE_LIMIT_SECOND_FACTOR_PER_IDENTITY", "1e9"],
    ["IDENTITY_RATE_LIMIT_PASSWORD_WINDOW", "15"],
    ["IDENTITY_RATE_LIMIT_CODE_SENDS_WINDOW", "0"],
    ["IDENTITY_RATE_LIMIT_SECOND_FACTOR_WINDOW", "-10m"],
  ])("names %s when it is %j", (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`${variable}: `));
  });
});
