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
 * Before any password is looked at: refuses (9010007) while the identifier or the client IP has
 * used up its wrong passwords. Keyed by what was typed, so an unknown identifier is refused the
 * same way and at the same point as a known one, and no hash is computed while limited.
 */
export function ensurePasswordAttemptAllowed(
  ctx: ServerContext,
  identifier: string,
  ip: string,
): void {
  const limiters = rateLimitersOf(ctx);
  const wait = longestWait([
    limiters.passwordPerIdentifier.check(identifier),
    limiters.passwordPerIp.check(ip),
  ]);
  if (wait !== undefined) throw new RateLimitedError(tooManyAttemptsId, wait);
}

export function recordWrongPassword(ctx: ServerContext, identifier: string, ip: string): void {
  const limiters = rateLimitersOf(ctx);
  limiters.passwordPerIdentifier.hit(identifier);
  limiters.passwordPerIp.hit(ip);
}

/** A successful login clears the identifier's wrong passwords (not the IP's). */
export function recordPasswordLogin(ctx: ServerContext, identifier: string): void {
  rateLimitersOf(ctx).passwordPerIdentifier.reset(identifier);
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
