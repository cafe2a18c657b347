import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "./sliding-window.ts";
import { englishWait, waitAmount } from "./wait-text.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("SlidingWindowLimiter", () => {
  it("limits a key after max hits and frees it exactly when the oldest hit leaves the window", () => {
    const c = clock();
    const limiter = new SlidingWindowLimiter({ max: 3, windowMs: 60_000 }, c.now);
    limiter.hit("a");
    c.advance(10_000);
    limiter.hit("a");
    limiter.hit("a");
    expect(limiter.check("a")).toEqual({ limited: true, retryAfterMs: 50_000 });
    expect(limiter.check("b")).toEqual({ limited: false });
    c.advance(49_999);
    expect(limiter.check("a")).toEqual({ limited: true, retryAfterMs: 1 });
    c.advance(1);
    expect(limiter.check("a")).toEqual({ limited: false });
    // Two hits are still inside the window: one more limits again until they leave it.
    limiter.hit("a");
    expect(limiter.check("a")).toEqual({ limited: true, retryAfterMs: 10_000 });
  });

  it("forgets a key on reset and does nothing when max is 0", () => {
    const c = clock();
    const limiter = new SlidingWindowLimiter({ max: 1, windowMs: 60_000 }, c.now);
    limiter.hit("a");
    expect(limiter.check("a").limited).toBe(true);
    limiter.reset("a");
    expect(limiter.check("a").limited).toBe(false);
    const off = new SlidingWindowLimiter({ max: 0, windowMs: 60_000 }, c.now);
    for (let i = 0; i < 100; i++) off.hit("a");
    expect(off.check("a")).toEqual({ limited: false });
    expect(off.size).toBe(0);
  });

  it("keeps at most maxKeys keys, dropping expired ones first, then the least recently hit", () => {
    const c = clock();
    const limiter = new SlidingWindowLimiter({ max: 1, windowMs: 60_000 }, c.now, 3);
    limiter.hit("old");
    c.advance(60_000);
    limiter.hit("a");
    limiter.hit("b");
    limiter.hit("c");
    expect(limiter.size).toBe(3);
    limiter.hit("d");
    expect(limiter.size).toBe(3);
    expect(limiter.check("a").limited).toBe(false);
    expect(limiter.check("d").limited).toBe(true);
  });
});

describe("the wait", () => {
  it("rounds up: seconds under a minute, minutes under two hours, then hours", () => {
    expect(waitAmount(0.2)).toEqual({ count: 1, unit: "second" });
    expect(waitAmount(59)).toEqual({ count: 59, unit: "second" });
    expect(waitAmount(60)).toEqual({ count: 1, unit: "minute" });
    expect(waitAmount(61)).toEqual({ count: 2, unit: "minute" });
    expect(waitAmount(119 * 60)).toEqual({ count: 119, unit: "minute" });
    expect(waitAmount(3 * 3600 - 1)).toEqual({ count: 3, unit: "hour" });
    expect([1, 40, 60, 180, 7200].map(englishWait)).toEqual([
      "1 second",
      "40 seconds",
      "1 minute",
      "3 minutes",
      "2 hours",
    ]);
  });
});
