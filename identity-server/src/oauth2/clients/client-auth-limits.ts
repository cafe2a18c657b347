import type { RateLimitRule } from "../../config/rate-limit-config.ts";
import { SlidingWindowLimiter, type LimitCheck } from "../../rate-limit/sliding-window.ts";

// A wrong client secret costs a full scrypt (N=16384, 16 MiB, tens of milliseconds of CPU), a
// right one is remembered (crypto/verified-secrets.ts) and costs an HMAC. Without a limit anyone
// can load the CPU by guessing secrets. Secret checks that need a hash (every wrong secret, a right
// one once until it is remembered) are therefore counted per client id and per client IP; while
// either has used up its budget no secret of that client, or from that IP, is hashed. Hydra has no
// such limit (Ory Network limits requests per endpoint instead).

/** The two budgets of hashed secret checks; `max` 0 turns one off. */
export interface ClientAuthLimitRules {
  perClient: RateLimitRule;
  perIp: RateLimitRule;
}

/** The hashed secret checks of one running service (in memory, like the identity server's limits). */
export class ClientAuthLimits {
  readonly #perClient: SlidingWindowLimiter;
  readonly #perIp: SlidingWindowLimiter;

  constructor(rules: ClientAuthLimitRules, now: () => number) {
    this.#perClient = new SlidingWindowLimiter(rules.perClient, now);
    this.#perIp = new SlidingWindowLimiter(rules.perIp, now);
  }

  /** How long the caller must wait (the longer of both limits), or undefined when it may go on. */
  waitMs(clientId: string, ip: string): number | undefined {
    const waits = [this.#perClient.check(clientId), this.#perIp.check(ip)].flatMap(
      (check: LimitCheck) => (check.limited ? [check.retryAfterMs] : []),
    );
    return waits.length === 0 ? undefined : Math.max(...waits);
  }

  /** Counts one secret check that is about to be hashed. */
  recordAttempt(clientId: string, ip: string): void {
    this.#perClient.hit(clientId);
    this.#perIp.hit(ip);
  }
}
