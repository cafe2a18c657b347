import type { Kysely } from "kysely";

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
 * Applies every migration in `migrations` that `table` has not recorded yet, each in its own
 * transaction together with its bookkeeping row, and returns the versions it applied. Each schema
 * (identity store, OAuth2 service) keeps its own table so their version numbers never collide.
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
  await db.schema
    .createTable(table)
    .ifNotExists()
    .addColumn("version", "integer", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("applied_at", "text", (c) => c.notNull())
    .execute();
  const done = new Set(
    (await bookkeeping(db).selectFrom(table).select("version").execute()).map((r) => r.version),
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      await bookkeeping(trx)
        .insertInto(table)
        .values({
          version: migration.version,
          name: migration.name,
          applied_at: now().toISOString(),
        })
        .execute();
    });
    applied.push(migration.version);
  }
  return applied;
}
