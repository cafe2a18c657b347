import type { RateLimitRule } from "../config/rate-limit-config.ts";

/** Whether a key may go on, and if not, for how long it must wait. */
export type LimitCheck = { limited: false } | { limited: true; retryAfterMs: number };

/**
 * A sliding-window log in memory: per key, the times of the counted events of the last window. A
 * key is limited while `max` events lie inside the window; it frees up exactly when the oldest of
 * them leaves it, so the wait it reports is the real remaining time. Events are only counted when
 * the caller says so (`hit`), so refused attempts do not extend the wait.
 *
 * In memory because the identity server is one process: nothing to migrate, no write per failed
 * attempt, and a restart only forgets the last window. Memory is bounded: at most `max` times per
 * key and `maxKeys` keys (expired keys are swept first, then the least recently hit go).
 */
export class SlidingWindowLimiter {
  readonly #rule: RateLimitRule;
  readonly #now: () => number;
  readonly #maxKeys: number;
  readonly #events = new Map<string, number[]>();

  constructor(rule: RateLimitRule, now: () => number, maxKeys = 100_000) {
    this.#rule = rule;
    this.#now = now;
    this.#maxKeys = maxKeys;
  }

  get enabled(): boolean {
    return this.#rule.max > 0;
  }

  check(key: string): LimitCheck {
    if (!this.enabled) return { limited: false };
    const times = this.#recent(key, this.#now());
    if (times.length < this.#rule.max) return { limited: false };
    // The event whose expiry brings the count below `max` again.
    const freeing = times[times.length - this.#rule.max] ?? this.#now();
    return {
      limited: true,
      retryAfterMs: Math.max(1, freeing + this.#rule.windowMs - this.#now()),
    };
  }

  hit(key: string): void {
    if (!this.enabled) return;
    const now = this.#now();
    const times = this.#recent(key, now);
    times.push(now);
    // Re-inserting keeps the map ordered by last hit, so the front holds the stalest keys.
    this.#events.delete(key);
    this.#events.set(key, times);
    if (this.#events.size > this.#maxKeys) this.#shrink(now);
  }

  reset(key: string): void {
    this.#events.delete(key);
  }

  /** Keys with events inside the window (for tests and diagnostics). */
  get size(): number {
    return this.#events.size;
  }

  #recent(key: string, now: number): number[] {
    const times = this.#events.get(key);
    if (!times) return [];
    const since = now - this.#rule.windowMs;
    let expired = 0;
    while (expired < times.length && (times[expired] ?? 0) <= since) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length === 0) this.#events.delete(key);
    return times;
  }

  #shrink(now: number): void {
    for (const key of [...this.#events.keys()]) this.#recent(key, now);
    for (const key of this.#events.keys()) {
      if (this.#events.size <= this.#maxKeys) break;
      this.#events.delete(key);
    }
  }
}
