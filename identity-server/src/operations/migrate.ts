import { migrateOAuth2 } from "../oauth2/store/oauth2-migrations.ts";
import type { OAuth2Db } from "../oauth2/store/oauth2-tables.ts";
import { openDatabase } from "../store/database.ts";
import { migrate } from "../store/migrations.ts";

function versions(applied: number[]): string {
  return applied.length === 0 ? "none pending" : `applied ${applied.join(", ")}`;
}

/**
 * `npm run migrate`: applies the pending migrations of both schemas (identity store and OAuth2
 * service, whether or not the OAuth2 service is enabled) under the database's write lock, so it is
 * safe next to a running or starting server, and says what it did.
 */
export async function migrateDataDir(dataDir: string): Promise<string> {
  const db = await openDatabase(dataDir, { migrate: false });
  try {
    const identity = await migrate(db);
    const oauth2 = await migrateOAuth2(db as unknown as OAuth2Db, () => new Date());
    return `Migrated ${dataDir}: identity schema ${versions(identity)}; OAuth2 schema ${versions(oauth2)}.`;
  } finally {
    await db.destroy();
  }
}
