import type { RateLimitRule } from "../../config/rate-limit-config.ts";
import { ipLimitKey } from "../../rate-limit/ip-key.ts";
import { SlidingWindowLimiter, type LimitCheck } from "../../rate-limit/sliding-window.ts";
import { KnownClientAddresses } from "./known-client-addresses.ts";

// A wrong client secret costs a full scrypt (N=16384, 16 MiB, tens of milliseconds of CPU), a
// right one is remembered (crypto/verified-secrets.ts) and costs an HMAC. Without a limit anyone
// can load the CPU by guessing secrets. Secret checks that need a hash (every wrong secret, a right
// one once until it is remembered) are therefore counted per client IP and per client id; while a
// budget that applies is used up no secret is hashed. Hydra has no such limit (Ory Network limits
// requests per endpoint instead).
//
// Client ids are public (every authorization URL carries one), so the per-client budget alone
// would let anyone lock a client out with a handful of guesses. An address that has authenticated
// as the client before (known-client-addresses.ts) is therefore neither counted against nor
// refused by that client's budget; it still has its per-IP budget, which keeps the CPU bounded.

/** The two budgets of hashed secret checks; `max` 0 turns one off. */
export interface ClientAuthLimitRules {
  perClient: RateLimitRule;
  perIp: RateLimitRule;
}

/** The hashed secret checks of one running service (in memory, like the identity server's limits). */
export class ClientAuthLimits {
  readonly #perClient: SlidingWindowLimiter;
  readonly #perIp: SlidingWindowLimiter;
  readonly #known: KnownClientAddresses;
  readonly #now: () => number;
  /** Told of every refused check (the metrics' rate-limit refusals). */
  onRefused: (() => void) | undefined;

  constructor(rules: ClientAuthLimitRules, now: () => number, knownAddresses?: number) {
    this.#perClient = new SlidingWindowLimiter(rules.perClient, now);
    this.#perIp = new SlidingWindowLimiter(rules.perIp, now);
    this.#known = new KnownClientAddresses(now, knownAddresses);
    this.#now = now;
  }

  /** The service clock in milliseconds (the verified-secret memory runs on it too). */
  now(): number {
    return this.#now();
  }

  /**
   * Before a secret is hashed: how long the caller must wait (the longer of the budgets that
   * apply), or undefined when it may go on, in which case the attempt has been counted.
   */
  admit(clientId: string, ip: string): number | undefined {
    // The IP budget per /64 for IPv6 (rate-limit/ip-key.ts); known addresses stay exact.
    const limiters: [SlidingWindowLimiter, string][] = [[this.#perIp, ipLimitKey(ip)]];
    if (!this.#known.has(clientId, ip)) limiters.push([this.#perClient, clientId]);
    const waits = limiters
      .map(([limiter, key]) => limiter.check(key))
      .flatMap((check: LimitCheck) => (check.limited ? [check.retryAfterMs] : []));
    if (waits.length > 0) {
      this.onRefused?.();
      return Math.max(...waits);
    }
    for (const [limiter, key] of limiters) limiter.hit(key);
    return undefined;
  }

  /** After the right secret: this address is known for the client (again). */
  recordSuccess(clientId: string, ip: string): void {
    this.#known.remember(clientId, ip);
  }

  /** How many (client, address) pairs are known (for tests). */
  get knownAddresses(): number {
    return this.#known.size;
  }
}
