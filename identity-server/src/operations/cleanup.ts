import { setImmediate as nextTurn } from "node:timers/promises";
import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";
import type { CleanupConfig } from "../config/cleanup-config.ts";
import { deleteExpired as deleteExpiredOAuth2 } from "../oauth2/store/expiry-cleanup.ts";
import type { OAuth2Db } from "../oauth2/store/oauth2-tables.ts";
import type { Database } from "../store/schema.ts";

// Removes what can no longer be used, as Kratos' `kratos cleanup sql` does: flows, sessions, codes
// and trusted devices whose expiry lies more than `keepAfterExpiryMs` in the past (Kratos'
// --keep-last), sent and abandoned courier messages older than the retention, and the OAuth2
// service's expired rows. Rows are deleted a batch at a time, the event loop getting a turn between
// batches, so a large backlog never holds requests up for long (node:sqlite is synchronous). A row
// still valid is never touched: every condition is on an expiry, or on a final courier status.

/**
 * Rows per DELETE, as Kratos' default batch: 20 000 expired flows went in about 0.3 s with no batch
 * holding the event loop longer than about 8 ms (500 per batch: up to 25-45 ms).
 */
const cleanupBatchSize = 100;

export type CleanupCounts = Record<string, number>;

type ExpiringTable = "selfservice_flows" | "sessions" | "one_time_codes" | "trusted_devices";

// Flows first: their codes and token-exchange codes go with them (foreign keys cascade), as do a
// session's devices and logout tokens.
const expiringTables: ExpiringTable[] = [
  "selfservice_flows",
  "one_time_codes",
  "sessions",
  "trusted_devices",
];

async function deleteInBatches(
  db: Kysely<Database>,
  table: string,
  condition: ReturnType<typeof sql>,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const result =
      await sql`delete from ${sql.table(table)} where rowid in (select rowid from ${sql.table(table)} where ${condition} limit ${cleanupBatchSize})`.execute(
        db,
      );
    const count = Number(result.numAffectedRows ?? 0);
    removed += count;
    if (count < cleanupBatchSize) return removed;
    await nextTurn();
  }
}

async function hasOAuth2Tables(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name = 'oauth2_payloads'`.execute(db);
  return rows.length > 0;
}

/** Prunes once; returns the rows removed per table (cascaded rows are not counted). */
export async function pruneExpired(
  db: Kysely<Database>,
  now: Date,
  config: Pick<CleanupConfig, "keepAfterExpiryMs" | "courierRetentionMs">,
): Promise<CleanupCounts> {
  const expiredBefore = new Date(now.getTime() - config.keepAfterExpiryMs);
  const counts: CleanupCounts = {};
  for (const table of expiringTables) {
    counts[table] = await deleteInBatches(
      db,
      table,
      sql`expires_at < ${expiredBefore.toISOString()}`,
    );
  }
  const sentBefore = new Date(now.getTime() - config.courierRetentionMs).toISOString();
  counts.courier_messages = await deleteInBatches(
    db,
    "courier_messages",
    sql`status in ('sent', 'abandoned') and updated_at < ${sentBefore}`,
  );
  if (await hasOAuth2Tables(db)) {
    await nextTurn();
    counts.oauth2 = await deleteExpiredOAuth2(db as unknown as OAuth2Db, expiredBefore);
  }
  return counts;
}

/**
 * Prunes every `intervalMs` (not at all when 0), the first time one interval after start (a start
 * stays quick and its first requests undisturbed); the timer never keeps the process alive. Runs
 * never overlap: a tick while one is still going is skipped.
 */
export function startCleanupSchedule(
  db: Kysely<Database>,
  now: () => Date,
  logger: Logger,
  config: CleanupConfig,
): { stop(): Promise<void> } {
  if (config.intervalMs === 0) return { stop: () => Promise.resolve() };
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= pruneExpired(db, now(), config)
      .then((counts) => {
        if (Object.values(counts).some((count) => count > 0)) {
          logger.info({ removed: counts }, "expired rows removed");
        }
      })
      .catch((error: unknown) => logger.warn({ err: error }, "cleanup failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, config.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
