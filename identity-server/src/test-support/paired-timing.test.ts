// The tests of e2e/paired-timing.test.ts, for the copy here.

import { describe, expect, it } from "vitest";
import { balancedOrder, comparePaired, median, signTestPValue } from "./paired-timing.ts";

describe("the sign test", () => {
  it("gives the exact two-sided binomial tail", () => {
    // 10 rounds all one way: 2 * 0.5^10.
    expect(signTestPValue(10, 0)).toBeCloseTo(2 / 1024, 12);
    // 8 against 2: 2 * (1 + 10 + 45) / 1024.
    expect(signTestPValue(2, 8)).toBeCloseTo((2 * 56) / 1024, 12);
    expect(signTestPValue(5, 5)).toBe(1);
    expect(signTestPValue(0, 0)).toBe(1);
  });

  it("stays finite where 0.5^n underflows", () => {
    expect(signTestPValue(600, 600)).toBe(1);
    const lopsided = signTestPValue(1100, 100);
    expect(lopsided).toBeGreaterThanOrEqual(0);
    expect(lopsided).toBeLessThan(1e-100);
  });
});

describe("paired timings", () => {
  it("see a constant difference however large the shared noise", () => {
    // Each round's load multiplies both times alike; a is 10 % slower in every round.
    const load = Array.from({ length: 50 }, (_, i) => 1 + ((i * 37) % 11));
    const b = load.map((factor) => 20 * factor);
    const a = b.map((time) => time * 1.1);
    const result = comparePaired(a, b);
    expect(result.aSlower).toBe(50);
    expect(result.medianRatio).toBeCloseTo(1.1, 12);
    expect(result.pValue).toBeLessThan(1e-12);
  });

  it("find no difference when each kind is slower in half the rounds", () => {
    const a = [10, 30, 10, 30, 10, 30];
    const b = [30, 10, 30, 10, 30, 10];
    const result = comparePaired(a, b);
    expect(result).toMatchObject({ aSlower: 3, bSlower: 3, pValue: 1 });
    expect(result.medianRatio).toBeCloseTo(1, 12);
  });

  it("refuse unpaired or non-positive timings", () => {
    expect(() => comparePaired([1, 2], [1])).toThrow(/as many/);
    expect(() => comparePaired([1, 0], [1, 1])).toThrow(/positive/);
    expect(() => median([])).toThrow();
  });
});

describe("the order within rounds", () => {
  it("puts each kind first in half the rounds", () => {
    for (const rounds of [1, 2, 7, 200]) {
      const order = balancedOrder(rounds);
      expect(order).toHaveLength(rounds);
      expect(order.filter(Boolean)).toHaveLength(Math.ceil(rounds / 2));
    }
  });

  it("is shuffled, not alternating", () => {
    // A generator that always answers 0 moves each element to the front in turn.
    expect(balancedOrder(6, () => 0)).toEqual([true, true, false, false, false, true]);
    const seen = new Set(
      Array.from({ length: 50 }, () =>
        balancedOrder(8)
          .map((first) => (first ? "a" : "b"))
          .join(""),
      ),
    );
    expect(seen.size).toBeGreaterThan(10);
  });
});
