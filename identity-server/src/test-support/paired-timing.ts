// Shared by the identity server's and the e2e suite's recovery-timing tests.

/**
 * Compares the timings of two kinds of request measured in pairs (one of each per round, back to
 * back, each kind first in half the rounds, chosen at random: {@link balancedOrder}). On a busy
 * machine single timings swing by several times their size with whatever else runs, so two medians
 * taken apart differ by chance by more than any fixed tolerance (94 ms against 70 ms for the same
 * work). Within a round both requests meet about the same load, so the comparison is made per
 * round:
 *
 * - `medianRatio`: the median over the rounds of a's time divided by b's (taken of the logarithms,
 *   so that a twice as slow and b twice as slow weigh alike), 1 when they take as long;
 * - `pValue`: the sign test, the chance of a split at least this uneven between the rounds where a
 *   was slower and those where b was, were neither kind slower than the other (exact binomial,
 *   two-sided). It needs no assumption about how much noise the machine adds: a real difference
 *   makes one kind slower in most rounds however noisy they are, chance does so once in 1/pValue.
 */
export interface PairedComparison {
  rounds: number;
  /** Rounds in which a took longer than b, and b longer than a (equal ones count for neither). */
  aSlower: number;
  bSlower: number;
  medianA: number;
  medianB: number;
  medianRatio: number;
  pValue: number;
}

/**
 * Which rounds measure a first: exactly half of them (the first kind gets the odd one), shuffled.
 * Not simply every other round: load with the same two-round rhythm (this test repeated in the
 * other worker, which alternates too) would then always fall on the same kind.
 */
export function balancedOrder(rounds: number, random: () => number = Math.random): boolean[] {
  const order = Array.from({ length: rounds }, (_, i) => i < Math.ceil(rounds / 2));
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? false, order[i] ?? false];
  }
  return order;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("the median of no values");
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** P(X <= k) + P(X >= n - k) for X ~ Binomial(n, 1/2), k <= n/2: the two-sided sign test. */
export function signTestPValue(aSlower: number, bSlower: number): number {
  const n = aSlower + bSlower;
  if (n === 0) return 1;
  const k = Math.min(aSlower, bSlower);
  // In logarithms: 0.5^n underflows for the round counts a long measurement may reach.
  let logChoose = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logChoose - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

export function comparePaired(a: readonly number[], b: readonly number[]): PairedComparison {
  if (a.length !== b.length || a.length === 0) {
    throw new Error(`paired timings need as many of each, got ${a.length} and ${b.length}`);
  }
  const ratios = a.map((time, i) => time / (b[i] ?? Number.NaN));
  if (ratios.some((ratio) => !Number.isFinite(ratio) || ratio <= 0)) {
    throw new Error("paired timings must be positive numbers");
  }
  const aSlower = ratios.filter((ratio) => ratio > 1).length;
  const bSlower = ratios.filter((ratio) => ratio < 1).length;
  return {
    rounds: a.length,
    aSlower,
    bSlower,
    medianA: median(a),
    medianB: median(b),
    medianRatio: Math.exp(median(ratios.map((ratio) => Math.log(ratio)))),
    pValue: signTestPValue(aSlower, bSlower),
  };
}
