import { z } from "zod";
import { duration } from "./env-values.ts";

// Node's timers take at most 2^31-1 ms.
const maxTimerMs = 2_147_483_647;

/** The pruning of expired rows (operations/cleanup.ts); `loadConfig` validates it with the rest. */
export const cleanupEnvShape = {
  /** How often the server prunes; 0 turns the schedule off (then only `npm run cleanup` does). */
  IDENTITY_CLEANUP_INTERVAL: duration(
    (ms) => ms >= 0 && ms <= maxTimerMs,
    "0 (off) or a duration like 10m",
  ).default(600_000),
  /** Kratos' `cleanup sql --keep-last`: rows stay this long after they expire. */
  IDENTITY_CLEANUP_KEEP_AFTER_EXPIRY: duration((ms) => ms >= 0, "0 or a duration like 1h").default(
    3_600_000,
  ),
  /** Sent and abandoned courier messages are removed this long after their last update. */
  IDENTITY_CLEANUP_COURIER_RETENTION: duration(
    (ms) => ms > 0,
    "a positive duration like 168h",
  ).default(168 * 3_600_000),
};

type CleanupEnv = z.infer<z.ZodObject<typeof cleanupEnvShape>>;

export interface CleanupConfig {
  /** 0: no schedule. */
  intervalMs: number;
  keepAfterExpiryMs: number;
  courierRetentionMs: number;
}

export function cleanupConfigFrom(env: CleanupEnv): CleanupConfig {
  return {
    intervalMs: env.IDENTITY_CLEANUP_INTERVAL,
    keepAfterExpiryMs: env.IDENTITY_CLEANUP_KEEP_AFTER_EXPIRY,
    courierRetentionMs: env.IDENTITY_CLEANUP_COURIER_RETENTION,
  };
}
