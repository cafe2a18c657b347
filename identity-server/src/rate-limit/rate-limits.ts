import type { RateLimitConfig } from "../config/rate-limit-config.ts";
import type { ServerContext } from "../context.ts";
import { codeSendAddressKey } from "./address-key.ts";
import { ipLimitKey } from "./ip-key.ts";
import { RateLimitedError, tooManyAttemptsId, tooManyCodesId } from "./rate-limited-error.ts";
import { SlidingWindowLimiter, type LimitCheck } from "./sliding-window.ts";

type RateLimiters = { [name in keyof RateLimitConfig]: SlidingWindowLimiter };

// One set per running server, made on first use from its configuration and clock; admin routes
// never reach these functions, so nothing on the admin listeners is limited.
const perServer = new WeakMap<ServerContext, RateLimiters>();

function rateLimitersOf(ctx: ServerContext): RateLimiters {
  let limiters = perServer.get(ctx);
  if (!limiters) {
    const now = () => ctx.now().getTime();
    const rules = ctx.config.rateLimits;
    limiters = {
      passwordPerIdentifier: new SlidingWindowLimiter(rules.passwordPerIdentifier, now),
      passwordPerIp: new SlidingWindowLimiter(rules.passwordPerIp, now),
      passwordPerDevice: new SlidingWindowLimiter(rules.passwordPerDevice, now),
      codeSendsPerAddress: new SlidingWindowLimiter(rules.codeSendsPerAddress, now),
      codeSendsPerIp: new SlidingWindowLimiter(rules.codeSendsPerIp, now),
      codeSendsPerDevice: new SlidingWindowLimiter(rules.codeSendsPerDevice, now),
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
          limiters.passwordPerIp.check(ipLimitKey(attempt.ip)),
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
  limiters.passwordPerIp.hit(ipLimitKey(attempt.ip));
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
 * Who asks for a code or notice to be sent, and to where. `own` is set only when the requester has
 * proven to be the address's account (src/rate-limit/code-requester.ts): a browser whose device
 * cookie names it, or a session of it.
 */
export interface CodeSend {
  /** The normalised address the message goes to. */
  address: string;
  ip: string;
  own?: { kind: "device" | "session"; key: string } | undefined;
}

/**
 * The budgets a send counts against. A known browser of the account: its own only (like wrong
 * passwords), so neither strangers using up the address's budget nor others behind the same IP
 * keep the owner from their codes. A session of the account (a second-factor code without a device
 * cookie, a verification while signed in): its own and the IP's, since anyone holding the password
 * can open sessions. Everybody else: the address's and the IP's, the latter against one client
 * mailing any number of addresses.
 */
function codeSendBudgets(ctx: ServerContext, send: CodeSend): [SlidingWindowLimiter, string][] {
  const limiters = rateLimitersOf(ctx);
  if (send.own?.kind === "device") return [[limiters.codeSendsPerDevice, send.own.key]];
  const ip: [SlidingWindowLimiter, string] = [limiters.codeSendsPerIp, ipLimitKey(send.ip)];
  if (send.own) return [[limiters.codeSendsPerDevice, `session:${send.own.key}`], ip];
  return [[limiters.codeSendsPerAddress, codeSendAddressKey(send.address)], ip];
}

/** Counts the send against its budgets, or returns the wait (nothing counted) when one is used up. */
function countCodeSend(ctx: ServerContext, send: CodeSend): number | undefined {
  const budgets = codeSendBudgets(ctx, send);
  const wait = longestWait(budgets.map(([limiter, key]) => limiter.check(key)));
  if (wait !== undefined) return wait;
  for (const [limiter, key] of budgets) limiter.hit(key);
  return undefined;
}

/**
 * Counts one code or notice, or refuses (9010008, the same answer whichever budget is used up).
 * Call it whether or not the address has an account, so unknown addresses count exactly like
 * known ones and the answer reveals nothing.
 */
export function takeCodeSend(ctx: ServerContext, send: CodeSend): void {
  const wait = countCodeSend(ctx, send);
  if (wait !== undefined) throw new RateLimitedError(tooManyCodesId, wait);
}

/** Like takeCodeSend, for sends nobody asked for (a hook): false instead of an error when limited. */
export function tryCodeSend(ctx: ServerContext, send: CodeSend): boolean {
  return countCodeSend(ctx, send) === undefined;
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
