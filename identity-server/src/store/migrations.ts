import { sql, type Kysely } from "kysely";
import { applyMigrations, type Migration } from "./migration-runner.ts";
import type { Database } from "./schema.ts";

// Append new migrations at the end; never edit one that has shipped.
export const migrations: Migration<Database>[] = [
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
  {
    version: 2,
    name: "codes-courier-recovery-verification-settings",
    async up(db) {
      await db.schema
        .alterTable("selfservice_flows")
        .addColumn("submit_count", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("selfservice_flows").addColumn("identity_id", "text").execute();
      await db.schema.alterTable("selfservice_flows").addColumn("locale", "text").execute();

      await db.schema
        .createTable("one_time_codes")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("flow_id", "text", (c) =>
          c.notNull().references("selfservice_flows.id").onDelete("cascade"),
        )
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("code_hmac", "text", (c) => c.notNull())
        .addColumn("code_type", "text", (c) => c.notNull())
        .addColumn("identity_id", "text", (c) =>
          c.notNull().references("identities.id").onDelete("cascade"),
        )
        .addColumn("address_value", "text")
        .addColumn("address_via", "text")
        .addColumn("used_at", "text")
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("issued_at", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("one_time_codes_flow_id")
        .on("one_time_codes")
        .column("flow_id")
        .execute();

      await db.schema
        .createTable("courier_messages")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("channel", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("template_type", "text", (c) => c.notNull())
        .addColumn("template_data", "text", (c) => c.notNull())
        .addColumn("locale", "text", (c) => c.notNull())
        .addColumn("send_count", "integer", (c) => c.notNull())
        .addColumn("next_attempt_at", "text", (c) => c.notNull())
        .addColumn("last_error", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("courier_messages_status_next_attempt")
        .on("courier_messages")
        .columns(["status", "next_attempt_at"])
        .execute();
      await db.schema
        .createIndex("courier_messages_created_at_id")
        .on("courier_messages")
        .columns(["created_at", "id"])
        .execute();

      await db.schema
        .createTable("courier_message_dispatches")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("message_id", "text", (c) =>
          c.notNull().references("courier_messages.id").onDelete("cascade"),
        )
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("courier_message_dispatches_message_id")
        .on("courier_message_dispatches")
        .column("message_id")
        .execute();
    },
  },
  {
    version: 3,
    name: "second-factors-trusted-devices",
    async up(db) {
      // The newest TOTP time step accepted per identity, so no code is accepted twice.
      await db.schema
        .createTable("totp_used_steps")
        .addColumn("identity_id", "text", (c) =>
          c.primaryKey().references("identities.id").onDelete("cascade"),
        )
        .addColumn("step", "integer", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("trusted_devices")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("identity_id", "text", (c) =>
          c.notNull().references("identities.id").onDelete("cascade"),
        )
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("user_agent", "text")
        .addColumn("ip_address", "text")
        .addColumn("fingerprint", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("trusted_devices_identity_id")
        .on("trusted_devices")
        .column("identity_id")
        .execute();
      await db.schema
        .createIndex("sessions_created_at_id")
        .on("sessions")
        .columns(["created_at", "id"])
        .execute();
    },
  },
  {
    version: 4,
    name: "session-token-exchange",
    async up(db) {
      await db.schema
        .alterTable("selfservice_flows")
        .addColumn("session_token_exchange_code", "text")
        .execute();
      await db.schema
        .createTable("session_token_exchanges")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("flow_id", "text", (c) =>
          c.notNull().references("selfservice_flows.id").onDelete("cascade"),
        )
        .addColumn("init_code", "text", (c) => c.notNull().unique())
        .addColumn("return_to_code", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("session_token_exchanges_flow_id")
        .on("session_token_exchanges")
        .column("flow_id")
        .execute();
    },
  },
  {
    version: 5,
    name: "flow-oauth2-login-challenge",
    async up(db) {
      // Login and registration flows started by an OAuth2 login request keep its challenge, and so
      // does the verification flow a registration starts (Kratos' oauth2_login_challenge columns).
      await db.schema
        .alterTable("selfservice_flows")
        .addColumn("oauth2_login_challenge", "text")
        .execute();
    },
  },
  {
    version: 6,
    name: "lookup-indexes",
    async up(db) {
      // Every identity read (whoami, login, admin) loads the identity's credentials, identifiers and
      // addresses by identity_id, and deleting an identity, credential, flow or session cascades by
      // these foreign keys: without indexes each of them scanned the whole table.
      const indexes: [name: string, table: keyof Database, columns: string[]][] = [
        [
          "identity_credential_identifiers_identity_id",
          "identity_credential_identifiers",
          ["identity_id"],
        ],
        [
          "identity_credential_identifiers_credential_id",
          "identity_credential_identifiers",
          ["credential_id"],
        ],
        [
          "identity_verifiable_addresses_identity_id",
          "identity_verifiable_addresses",
          ["identity_id"],
        ],
        ["identity_recovery_addresses_identity_id", "identity_recovery_addresses", ["identity_id"]],
        ["one_time_codes_identity_id", "one_time_codes", ["identity_id"]],
        ["session_logout_tokens_session_id", "session_logout_tokens", ["session_id"]],
      ];
      for (const [name, table, columns] of indexes) {
        await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
      }
    },
  },
  {
    version: 7,
    name: "cleanup-indexes",
    async up(db) {
      // The cleanup (operations/cleanup.ts) finds expired rows by expiry, a batch at a time: without
      // these each batch scanned its whole table.
      const indexes: [name: string, table: keyof Database, columns: string[]][] = [
        ["selfservice_flows_expires_at", "selfservice_flows", ["expires_at"]],
        ["sessions_expires_at", "sessions", ["expires_at"]],
        ["one_time_codes_expires_at", "one_time_codes", ["expires_at"]],
        ["trusted_devices_expires_at", "trusted_devices", ["expires_at"]],
        ["courier_messages_status_updated_at", "courier_messages", ["status", "updated_at"]],
      ];
      for (const [name, table, columns] of indexes) {
        await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
      }
    },
  },
  {
    version: 8,
    name: "courier-claimed-by",
    async up(db) {
      // Which courier worker holds a "processing" message: another process starting next to it
      // leaves the message alone instead of queueing it again (courier/claims.ts).
      await db.schema.alterTable("courier_messages").addColumn("claimed_by", "text").execute();
    },
  },
];

/** Applies every identity-store migration not yet recorded in `schema_migrations`. */
export async function migrate(db: Kysely<Database>): Promise<number[]> {
  const applied = await applyMigrations(db, "schema_migrations", migrations, () => new Date());
  await sql`PRAGMA optimize`.execute(db);
  return applied;
}
