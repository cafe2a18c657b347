import { describe, expect, it } from "vitest";

import { measuredScale, parseScale, runnableNow } from "./timing.ts";

describe("the e2e time scale", () => {
  it("reads the processes running now from /proc/loadavg, not its averages", () => {
    expect(runnableNow("5.12 4.53 3.10 1/88 32151\n")).toBe(1);
    expect(runnableNow("0.00 0.01 0.05 7/412 99\n")).toBe(7);
    expect(runnableNow("")).toBeUndefined();
    expect(runnableNow("garbage")).toBeUndefined();
  });

  it("is 1 on an idle machine and grows with the load per core, at most 4", () => {
    expect(measuredScale(0, 2)).toBe(1);
    expect(measuredScale(2, 2)).toBe(2);
    expect(measuredScale(3, 2)).toBe(2.5);
    expect(measuredScale(40, 2)).toBe(4);
  });

  it("accepts a set scale from 1 to 10 and names the variable otherwise", () => {
    expect(parseScale("2.5")).toBe(2.5);
    expect(() => parseScale("0.5")).toThrow(/E2E_TIMEOUT_SCALE/);
    expect(() => parseScale("")).toThrow(/E2E_TIMEOUT_SCALE/);
  });
});
