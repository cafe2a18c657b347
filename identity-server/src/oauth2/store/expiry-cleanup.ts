import type { Logger } from "pino";
import { deleteExpiredPayloads } from "../tokens/token-rows.ts";
import type { OAuth2Db } from "./oauth2-tables.ts";

// Removes what can no longer be used: expired provider rows (sessions, challenges, codes, tokens,
// grants), expired login sessions, logout requests, challenge verifiers and spent jwt-bearer jtis.
// Consent sessions stay while their grant lives; revoking or expiring the grant makes them useless
// but keeps the record (Hydra keeps handled flows too), except skipped ones (prompt=none copies of
// a remembered consent), which go with their grant.

export async function deleteExpired(db: OAuth2Db, now: Date): Promise<number> {
  const at = now.toISOString();
  let removed = await deleteExpiredPayloads(db, now);
  for (const table of [
    "oauth2_login_sessions",
    "oauth2_logout_requests",
    "oauth2_challenge_verifiers",
    "oauth2_seen_jtis",
  ] as const) {
    const result = await db.deleteFrom(table).where("expires_at", "<", at).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  // A skipped consent (one prompt=none authorization) is of no use once its grant is gone.
  const skipped = await db
    .deleteFrom("oauth2_consent_sessions")
    .where("skip", "=", 1)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("oauth2_payloads")
            .select("id")
            .where("model", "=", "Grant")
            .whereRef("oauth2_payloads.id", "=", "oauth2_consent_sessions.grant_id"),
        ),
      ),
    )
    .executeTakeFirst();
  removed += Number(skipped.numDeletedRows);
  return removed;
}

/** Runs the cleanup now and then every `intervalMs`; the timer never keeps the process alive. */
export function startExpiryCleanup(
  db: OAuth2Db,
  now: () => Date,
  logger: Logger,
  intervalMs: number,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= deleteExpired(db, now())
      .then((removed) => {
        if (removed > 0) logger.debug({ removed }, "oauth2 expired rows removed");
      })
      .catch((error: unknown) => logger.warn({ err: error }, "oauth2 cleanup failed"))
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
