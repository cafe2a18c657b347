import { z } from "zod";
import { duration, limitCount, positive } from "./env-values.ts";

/** One limiter: at most `max` counted events per key within a sliding `windowMs`; `max` 0 = off. */
export interface RateLimitRule {
  max: number;
  windowMs: number;
}

/** Kratos OSS has none of these; the numbers follow Login.gov (logingov-anchor §1.13). */
export interface RateLimitConfig {
  /** Wrong passwords per identifier (as typed, normalised); a successful login clears it. */
  passwordPerIdentifier: RateLimitRule;
  /** Wrong passwords per client IP (Fastify's request.ip under the server's trust-proxy setting). */
  passwordPerIp: RateLimitRule;
  /**
   * Wrong passwords per browser that signed in to the account before (its device cookie), counted
   * instead of the identifier's and IP's, so strangers cannot lock the owner out of it.
   */
  passwordPerDevice: RateLimitRule;
  /**
   * Codes and notices sent per address (recovery, verification, second-factor login codes, the
   * "no account" recovery notice) when the requester has not proven to be the address's account.
   */
  codeSendsPerAddress: RateLimitRule;
  /**
   * Codes and notices sent per client IP, to any addresses: one client cannot mail any number of
   * strangers. A known browser of the account (below) does not count here.
   */
  codeSendsPerIp: RateLimitRule;
  /**
   * Codes sent to an account's addresses at the request of a browser whose device cookie names the
   * account, or of one of its sessions (a second-factor code): counted instead of the address's
   * budget, so strangers using that up cannot keep the owner from their codes.
   */
  codeSendsPerDevice: RateLimitRule;
  /** Wrong second factors (TOTP, backup code, login code) per identity. */
  secondFactorPerIdentity: RateLimitRule;
}

const window = duration(positive, "a positive duration like 15m");

/** The environment variables of the rate limits; `loadConfig` validates them with the rest. */
export const rateLimitEnvShape = {
  IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: limitCount.default(10),
  IDENTITY_RATE_LIMIT_PASSWORD_PER_IP: limitCount.default(100),
  IDENTITY_RATE_LIMIT_PASSWORD_PER_DEVICE: limitCount.default(10),
  IDENTITY_RATE_LIMIT_PASSWORD_WINDOW: window.default(15 * 60_000),
  IDENTITY_RATE_LIMIT_CODE_SENDS_PER_ADDRESS: limitCount.default(5),
  IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP: limitCount.default(20),
  IDENTITY_RATE_LIMIT_CODE_SENDS_PER_DEVICE: limitCount.default(5),
  IDENTITY_RATE_LIMIT_CODE_SENDS_WINDOW: window.default(15 * 60_000),
  IDENTITY_RATE_LIMIT_SECOND_FACTOR_PER_IDENTITY: limitCount.default(10),
  IDENTITY_RATE_LIMIT_SECOND_FACTOR_WINDOW: window.default(10 * 60_000),
};

type RateLimitEnv = z.infer<z.ZodObject<typeof rateLimitEnvShape>>;

export function rateLimitConfigFrom(env: RateLimitEnv): RateLimitConfig {
  const passwordWindow = env.IDENTITY_RATE_LIMIT_PASSWORD_WINDOW;
  return {
    passwordPerIdentifier: {
      max: env.IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER,
      windowMs: passwordWindow,
    },
    passwordPerIp: { max: env.IDENTITY_RATE_LIMIT_PASSWORD_PER_IP, windowMs: passwordWindow },
    passwordPerDevice: {
      max: env.IDENTITY_RATE_LIMIT_PASSWORD_PER_DEVICE,
      windowMs: passwordWindow,
    },
    codeSendsPerAddress: {
      max: env.IDENTITY_RATE_LIMIT_CODE_SENDS_PER_ADDRESS,
      windowMs: env.IDENTITY_RATE_LIMIT_CODE_SENDS_WINDOW,
    },
    codeSendsPerIp: {
      max: env.IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP,
      windowMs: env.IDENTITY_RATE_LIMIT_CODE_SENDS_WINDOW,
    },
    codeSendsPerDevice: {
      max: env.IDENTITY_RATE_LIMIT_CODE_SENDS_PER_DEVICE,
      windowMs: env.IDENTITY_RATE_LIMIT_CODE_SENDS_WINDOW,
    },
    secondFactorPerIdentity: {
      max: env.IDENTITY_RATE_LIMIT_SECOND_FACTOR_PER_IDENTITY,
      windowMs: env.IDENTITY_RATE_LIMIT_SECOND_FACTOR_WINDOW,
    },
  };
}
