import type { Kysely } from "kysely";
import { oauth2Migrations } from "../oauth2/store/oauth2-migrations.ts";
import type { OAuth2Db } from "../oauth2/store/oauth2-tables.ts";
import { pendingMigrations } from "./migration-runner.ts";
import { migrations } from "./migrations.ts";
import type { Database } from "./schema.ts";

interface PendingMigrations {
  identity: number[];
  oauth2: number[];
}

/** The migrations the data dir's database still needs, per schema (`npm run migrate` applies them). */
async function pendingSchemaMigrations(
  db: Kysely<Database>,
  oauth2Enabled: boolean,
): Promise<PendingMigrations> {
  return {
    identity: await pendingMigrations(db, "schema_migrations", migrations),
    oauth2: oauth2Enabled
      ? await pendingMigrations(db as unknown as OAuth2Db, "oauth2_migrations", oauth2Migrations)
      : [],
  };
}

/**
 * With IDENTITY_MIGRATE_ON_START=false the server does not change the schema: a database that
 * needs migrations stops the start, naming the command that applies them.
 */
export async function refusePendingMigrations(
  db: Kysely<Database>,
  oauth2Enabled: boolean,
): Promise<void> {
  const pending = await pendingSchemaMigrations(db, oauth2Enabled);
  const parts = [
    ...(pending.identity.length > 0 ? [`identity schema ${pending.identity.join(", ")}`] : []),
    ...(pending.oauth2.length > 0 ? [`OAuth2 schema ${pending.oauth2.join(", ")}`] : []),
  ];
  if (parts.length === 0) return;
  throw new Error(
    `The database needs migrations (${parts.join("; ")}) and IDENTITY_MIGRATE_ON_START is false: run npm run migrate first.`,
  );
}
