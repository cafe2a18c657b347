import { sql, type Kysely } from "kysely";
import type { Database } from "./schema.ts";

interface Migration {
  version: number;
  name: string;
  up(db: Kysely<Database>): Promise<void>;
}

// Append new migrations at the end; never edit one that has shipped.
export const migrations: Migration[] = [
  {
    version: 1,
    name: "identities-sessions-flows",
    async up(db) {
      await db.schema
        .createTable("identities")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("schema_id", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("state_changed_at", "text")
        .addColumn("traits", "text", (c) => c.notNull())
        .addColumn("metadata_public", "text")
        .addColumn("metadata_admin", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("identity_credentials")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("identity_id", "text", (c) =>
          c.notNull().references("identities.id").onDelete("cascade"),
        )
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("config", "text", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addUniqueConstraint("identity_credentials_identity_type", ["identity_id", "type"])
        .execute();

      await db.schema
        .createTable("identity_credential_identifiers")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("credential_id", "text", (c) =>
          c.notNull().references("identity_credentials.id").onDelete("cascade"),
        )
        .addColumn("identity_id", "text", (c) =>
          c.notNull().references("identities.id").onDelete("cascade"),
        )
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("identifier", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("identity_credential_identifiers_type_identifier", [
          "type",
          "identifier",
        ])
        .execute();

      await db.schema
        .createTable("identity_verifiable_addresses")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("identity_id", "text", (c) =>
          c.notNull().references("identities.id").onDelete("cascade"),
        )
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("via", "text", (c) => c.notNull())
        .addColumn("verified", "integer", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("verified_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addUniqueConstraint("identity_verifiable_addresses_via_value", ["via", "value"])
        .execute();

      await db.schema
        .createTable("identity_recovery_addresses")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("identity_id", "text", (c) =>
          c.notNull().references("identities.id").onDelete("cascade"),
        )
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("via", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addUniqueConstraint("identity_recovery_addresses_via_value", ["via", "value"])
        .execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("identity_id", "text", (c) =>
          c.notNull().references("identities.id").onDelete("cascade"),
        )
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("active", "integer", (c) => c.notNull())
        .addColumn("aal", "text", (c) => c.notNull())
        .addColumn("authentication_methods", "text", (c) => c.notNull())
        .addColumn("issued_at", "text", (c) => c.notNull())
        .addColumn("authenticated_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("sessions_identity_id")
        .on("sessions")
        .column("identity_id")
        .execute();

      await db.schema
        .createTable("session_devices")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) =>
          c.notNull().references("sessions.id").onDelete("cascade"),
        )
        .addColumn("ip_address", "text")
        .addColumn("user_agent", "text")
        .addColumn("location", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("session_devices_session_id")
        .on("session_devices")
        .column("session_id")
        .execute();

      await db.schema
        .createTable("session_logout_tokens")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("session_id", "text", (c) =>
          c.notNull().references("sessions.id").onDelete("cascade"),
        )
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("selfservice_flows")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("request_url", "text", (c) => c.notNull())
        .addColumn("return_to", "text")
        .addColumn("ui", "text", (c) => c.notNull())
        .addColumn("csrf_token", "text", (c) => c.notNull())
        .addColumn("internal_context", "text", (c) => c.notNull())
        .addColumn("active_method", "text")
        .addColumn("refresh", "integer", (c) => c.notNull())
        .addColumn("requested_aal", "text", (c) => c.notNull())
        .addColumn("issued_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("selfservice_errors")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("error", "text", (c) => c.notNull())
        .addColumn("csrf_token", "text", (c) => c.notNull())
        .addColumn("was_seen", "integer", (c) => c.notNull())
        .addColumn("seen_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
    },
  },
];

/** Applies every migration not yet recorded, each in its own transaction. */
export async function migrate(db: Kysely<Database>): Promise<number[]> {
  await db.schema
    .createTable("schema_migrations")
    .ifNotExists()
    .addColumn("version", "integer", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("applied_at", "text", (c) => c.notNull())
    .execute();
  const done = new Set(
    (await db.selectFrom("schema_migrations").select("version").execute()).map((r) => r.version),
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      await trx
        .insertInto("schema_migrations")
        .values({
          version: migration.version,
          name: migration.name,
          applied_at: new Date().toISOString(),
        })
        .execute();
    });
    applied.push(migration.version);
  }
  await sql`PRAGMA optimize`.execute(db);
  return applied;
}
