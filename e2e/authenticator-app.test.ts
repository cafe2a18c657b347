import { TOTP } from "otpauth";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authenticatorApp, nextStep, stepAt } from "./authenticator-app.ts";

const secret = "JBSWY3DPEHPK3PXP";
const totp = new TOTP({ secret, digits: 6, period: 30, algorithm: "SHA1" });
const codeOf = (step: number) => totp.generate({ timestamp: step * 30_000 });
const inStep = (step: number) => step * 30_000 + 1_000;

afterEach(() => {
  vi.useRealTimers();
});

describe("the authenticator app's codes", () => {
  it("are for the current step, then the next one (one step of drift)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(inStep(100));
    const next = authenticatorApp(secret);
    expect(await next()).toBe(codeOf(100));
    expect(await next()).toBe(codeOf(101));
  });

  it("never go back to an older step: a third code in one window waits for the clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(inStep(100));
    const next = authenticatorApp(secret);
    await next();
    await next();
    // Step 99 would be within the drift, but the service refuses any step not newer than 101.
    const third = next();
    vi.setSystemTime(inStep(101));
    expect(await third).toBe(codeOf(102));
  });

  it("after a window boundary, continue after the last step used", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(inStep(100));
    const next = authenticatorApp(secret);
    await next();
    await next();
    vi.setSystemTime(inStep(101));
    expect(await next()).toBe(codeOf(102));
  });
});

describe("the next step", () => {
  it("is undefined while it would be more than one step ahead", () => {
    expect(nextStep(100, undefined)).toBe(100);
    expect(nextStep(100, 100)).toBe(101);
    expect(nextStep(100, 101)).toBeUndefined();
    expect(stepAt(29_999)).toBe(0);
    expect(stepAt(30_000)).toBe(1);
  });
});
