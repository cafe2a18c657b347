import { setTimeout as delay } from "node:timers/promises";
import { sql, type Kysely } from "kysely";

/** How long start-up waits for another process's migrations or key generation to finish. */
const defaultWaitMs = 120_000;

function isBusy(error: unknown): boolean {
  // node:sqlite reports SQLITE_BUSY (5) and its extended codes (BUSY_SNAPSHOT…) as `errcode`.
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === "number" && (code & 0xff) === 5;
}

/**
 * Runs `work` inside `BEGIN IMMEDIATE` on one connection: SQLite's write lock is taken before
 * anything is read, so a check and the write that depends on it (the pending migrations, the first
 * signing keys) cannot interleave with another process doing the same on the same data dir; that
 * process waits and then sees the finished result. The connection is held for the duration, so
 * this process's other queries wait too. Everything `work` wrote is committed together or, if it
 * throws, rolled back.
 */
export async function withWriteLock<DB, T>(
  db: Kysely<DB>,
  work: (locked: Kysely<DB>) => Promise<T>,
  waitMs = defaultWaitMs,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      try {
        // busy_timeout already waits a few seconds inside SQLite; a long migration takes longer.
        await sql`begin immediate`.execute(connection);
        break;
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
        await delay(100);
      }
    }
    let result: T;
    try {
      result = await work(connection);
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
    await sql`commit`.execute(connection);
    return result;
  });
}
