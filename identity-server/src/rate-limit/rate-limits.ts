import type { RateLimitConfig } from "../config/rate-limit-config.ts";
import type { ServerContext } from "../context.ts";
import { RateLimitedError, tooManyAttemptsId, tooManyCodesId } from "./rate-limited-error.ts";
import { SlidingWindowLimiter, type LimitCheck } from "./sliding-window.ts";

export type RateLimiters = { [name in keyof RateLimitConfig]: SlidingWindowLimiter };

// One set per running server, made on first use from its configuration and clock; admin routes
// never reach these functions, so nothing on the admin listeners is limited.
const perServer = new WeakMap<ServerContext, RateLimiters>();

export function rateLimitersOf(ctx: ServerContext): RateLimiters {
  let limiters = perServer.get(ctx);
  if (!limiters) {
    const now = () => ctx.now().getTime();
    const rules = ctx.config.rateLimits;
    limiters = {
      passwordPerIdentifier: new SlidingWindowLimiter(rules.passwordPerIdentifier, now),
      passwordPerIp: new SlidingWindowLimiter(rules.passwordPerIp, now),
      passwordPerDevice: new SlidingWindowLimiter(rules.passwordPerDevice, now),
      codeSendsPerAddress: new SlidingWindowLimiter(rules.codeSendsPerAddress, now),
      secondFactorPerIdentity: new SlidingWindowLimiter(rules.secondFactorPerIdentity, now),
    };
    perServer.set(ctx, limiters);
  }
  return limiters;
}

function longestWait(checks: LimitCheck[]): number | undefined {
  const waits = checks.flatMap((check) => (check.limited ? [check.retryAfterMs] : []));
  return waits.length === 0 ? undefined : Math.max(...waits);
}

/**
 * Who is trying a password: the identifier as typed (normalised) and the client IP, and, for a
 * browser whose device cookie names the account (src/rate-limit/device-cookie.ts), that device.
 */
export interface PasswordAttempt {
  identifier: string;
  ip: string;
  /** Set only for a browser that signed in to this account before. */
  device?: string | undefined;
}

/**
 * Before any password is looked at: refuses (9010007) while the attempt's budget is used up. A
 * known device has a budget of its own; everybody else shares the identifier's and the IP's, keyed
 * by what was typed, so an unknown identifier is refused the same way and at the same point as a
 * known one, and no hash is computed while limited.
 */
export function ensurePasswordAttemptAllowed(ctx: ServerContext, attempt: PasswordAttempt): void {
  const limiters = rateLimitersOf(ctx);
  const wait = longestWait(
    attempt.device !== undefined
      ? [limiters.passwordPerDevice.check(attempt.device)]
      : [
          limiters.passwordPerIdentifier.check(attempt.identifier),
          limiters.passwordPerIp.check(attempt.ip),
        ],
  );
  if (wait !== undefined) throw new RateLimitedError(tooManyAttemptsId, wait);
}

export function recordWrongPassword(ctx: ServerContext, attempt: PasswordAttempt): void {
  const limiters = rateLimitersOf(ctx);
  if (attempt.device !== undefined) {
    limiters.passwordPerDevice.hit(attempt.device);
    return;
  }
  limiters.passwordPerIdentifier.hit(attempt.identifier);
  limiters.passwordPerIp.hit(attempt.ip);
}

/**
 * A successful login clears the wrong passwords of the budget it used: the device's, or the
 * identifier's (never the IP's). A known device's success leaves the strangers' count alone, so
 * the owner signing in does not hand a guesser a fresh budget.
 */
export function recordPasswordLogin(ctx: ServerContext, attempt: PasswordAttempt): void {
  const limiters = rateLimitersOf(ctx);
  if (attempt.device !== undefined) limiters.passwordPerDevice.reset(attempt.device);
  else limiters.passwordPerIdentifier.reset(attempt.identifier);
}

/**
 * Counts one code sent to the normalised address, or refuses (9010008) when the address has had
 * its codes for the window. Call it before looking the address up, so unknown addresses count
 * exactly like known ones and the answer reveals nothing.
 */
export function takeCodeSend(ctx: ServerContext, address: string): void {
  const limiter = rateLimitersOf(ctx).codeSendsPerAddress;
  const check = limiter.check(address);
  if (check.limited) throw new RateLimitedError(tooManyCodesId, check.retryAfterMs);
  limiter.hit(address);
}

/** Like takeCodeSend, for sends nobody asked for (a hook): false instead of an error when limited. */
export function tryCodeSend(ctx: ServerContext, address: string): boolean {
  const limiter = rateLimitersOf(ctx).codeSendsPerAddress;
  if (limiter.check(address).limited) return false;
  limiter.hit(address);
  return true;
}

/** Before a second factor is checked: refuses (9010007) while the identity has used up its tries. */
export function ensureSecondFactorAllowed(ctx: ServerContext, identityId: string): void {
  const check = rateLimitersOf(ctx).secondFactorPerIdentity.check(identityId);
  if (check.limited) throw new RateLimitedError(tooManyAttemptsId, check.retryAfterMs);
}

export function recordWrongSecondFactor(ctx: ServerContext, identityId: string): void {
  rateLimitersOf(ctx).secondFactorPerIdentity.hit(identityId);
}

export function recordSecondFactorPassed(ctx: ServerContext, identityId: string): void {
  rateLimitersOf(ctx).secondFactorPerIdentity.reset(identityId);
}
