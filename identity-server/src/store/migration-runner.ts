import { sql, type Kysely } from "kysely";
import { withWriteLock } from "./write-lock.ts";

/** One schema change. Append new ones at the end of their list; never edit one that has shipped. */
export interface Migration<DB> {
  version: number;
  name: string;
  up(db: Kysely<DB>): Promise<void>;
}

/** The row each bookkeeping table keeps per applied migration. */
interface AppliedMigration {
  version: number;
  name: string;
  applied_at: string;
}

/**
 * Applies every migration in `migrations` that `table` has not recorded yet, together with their
 * bookkeeping rows, and returns the versions it applied. The check and the changes run under
 * SQLite's write lock (`withWriteLock`), so two processes starting on one data dir apply each
 * migration once: the second waits, then finds nothing pending. The pending migrations are applied
 * all or none. Each schema (identity store, OAuth2 service) keeps its own table so their version
 * numbers never collide.
 */
export async function applyMigrations<DB>(
  db: Kysely<DB>,
  table: string,
  migrations: readonly Migration<DB>[],
  now: () => Date,
): Promise<number[]> {
  // The bookkeeping table is not part of `DB`'s typed tables in a way the runner can name.
  const bookkeeping = (executor: Kysely<DB>) =>
    executor as unknown as Kysely<Record<string, AppliedMigration>>;
  return withWriteLock(db, async (locked) => {
    await locked.schema
      .createTable(table)
      .ifNotExists()
      .addColumn("version", "integer", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("applied_at", "text", (c) => c.notNull())
      .execute();
    const done = new Set(
      (await bookkeeping(locked).selectFrom(table).select("version").execute()).map(
        (r) => r.version,
      ),
    );
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await migration.up(locked);
      await bookkeeping(locked)
        .insertInto(table)
        .values({
          version: migration.version,
          name: migration.name,
          applied_at: now().toISOString(),
        })
        .execute();
      applied.push(migration.version);
    }
    return applied;
  });
}

/** The versions in `migrations` that `table` has not recorded (all of them on a new database). */
export async function pendingMigrations<DB>(
  db: Kysely<DB>,
  table: string,
  migrations: readonly Migration<DB>[],
): Promise<number[]> {
  const known = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  if (known.rows.length === 0) return migrations.map((m) => m.version);
  const done = await sql<{ version: number }>`select version from ${sql.table(table)}`.execute(db);
  const versions = new Set(done.rows.map((r) => r.version));
  return migrations.filter((m) => !versions.has(m.version)).map((m) => m.version);
}
