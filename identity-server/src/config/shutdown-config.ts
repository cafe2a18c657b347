import { duration } from "./env-values.ts";

/**
 * IDENTITY_SHUTDOWN_GRACE: on SIGTERM, how long requests in flight (a token exchange, a sign-in)
 * may take to finish before their connections are cut. Readiness answers 503 meanwhile.
 */
export const shutdownEnvShape = {
  // Node's timers take at most 2^31-1 ms; 0 cuts every request at once.
  IDENTITY_SHUTDOWN_GRACE: duration(
    (ms) => ms >= 0 && ms <= 2_147_483_647,
    "a duration like 10s (0: no grace)",
  ).default(10_000),
};
