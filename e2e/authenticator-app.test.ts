import { TOTP } from "otpauth";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authenticatorApp, firstStep, nextStep, stepAt } from "./authenticator-app.ts";

const secret = "JBSWY3DPEHPK3PXP";
const totp = new TOTP({ secret, digits: 6, period: 30, algorithm: "SHA1" });
const codeOf = (step: number) => totp.generate({ timestamp: step * 30_000 });
const inStep = (step: number) => step * 30_000 + 1_000;
/** Late in a step: less than the margin left before the next one. */
const lateIn = (step: number) => step * 30_000 + 25_000;
const margin = 10_000;

afterEach(() => {
  vi.useRealTimers();
});

describe("the authenticator app's codes", () => {
  it("early in a window: the previous, the current and the next step, without waiting", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(inStep(100));
    const next = authenticatorApp(secret, margin);
    expect(await next()).toBe(codeOf(99));
    expect(await next()).toBe(codeOf(100));
    expect(await next()).toBe(codeOf(101));
  });

  it("late in a window: the current step first, which is still within the drift after the boundary", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(lateIn(100));
    const next = authenticatorApp(secret, margin);
    expect(await next()).toBe(codeOf(100));
    expect(await next()).toBe(codeOf(101));
  });

  it("never go back to an older step: one code too many in a window waits for the clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(inStep(100));
    const next = authenticatorApp(secret, margin);
    await next();
    await next();
    await next();
    // Step 99 would be within the drift, but the service refuses any step not newer than 101.
    const fourth = next();
    vi.setSystemTime(inStep(101));
    expect(await fourth).toBe(codeOf(102));
  });

  it("after a window boundary, continue after the last step used", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(lateIn(100));
    const next = authenticatorApp(secret, margin);
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

  it("of a first code is the previous one only while the margin fits in the window", () => {
    expect(firstStep(inStep(100), margin)).toBe(99);
    expect(firstStep(100 * 30_000 + 20_000, margin)).toBe(99);
    expect(firstStep(100 * 30_000 + 20_001, margin)).toBe(100);
  });
});
