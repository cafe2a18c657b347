import { sql } from "kysely";
import { applyMigrations, type Migration } from "../../store/migration-runner.ts";
import type { OAuth2Db, OAuth2Tables } from "./oauth2-tables.ts";

// The OAuth2 service keeps its own migration list (table oauth2_migrations) so that its schema
// changes never collide with the numbering of the identity store's migrations.
// Append new migrations at the end; never edit one that has shipped.
export const oauth2Migrations: Migration<OAuth2Tables>[] = [
  {
    version: 1,
    name: "oauth2-provider-and-hydra-facade",
    async up(db) {
      await db.schema
        .createTable("oauth2_payloads")
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("id", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("grant_id", "text")
        .addColumn("uid", "text")
        .addColumn("user_code", "text")
        .addColumn("account_id", "text")
        .addColumn("client_id", "text")
        .addColumn("expires_at", "text")
        .addColumn("consumed_at", "text")
        .addPrimaryKeyConstraint("oauth2_payloads_pk", ["model", "id"])
        .execute();
      for (const column of ["grant_id", "uid", "user_code", "account_id", "client_id"] as const) {
        await db.schema
          .createIndex(`oauth2_payloads_${column}`)
          .on("oauth2_payloads")
          .columns(["model", column])
          .execute();
      }
      await db.schema
        .createIndex("oauth2_payloads_expires_at")
        .on("oauth2_payloads")
        .column("expires_at")
        .execute();

      await db.schema
        .createTable("oauth2_clients")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("document", "text", (c) => c.notNull())
        .addColumn("secret_hash", "text")
        .addColumn("rotated_secret_hashes", "text", (c) => c.notNull())
        .addColumn("client_name", "text", (c) => c.notNull())
        .addColumn("owner", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("oauth2_signing_keys")
        .addColumn("kid", "text", (c) => c.primaryKey())
        .addColumn("alg", "text", (c) => c.notNull())
        .addColumn("sealed_jwk", "text", (c) => c.notNull())
        .addColumn("position", "integer", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("oauth2_login_sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("remember", "integer", (c) => c.notNull())
        .addColumn("authenticated_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("identity_provider_session_id", "text")
        .addColumn("acr", "text")
        .addColumn("amr", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("oauth2_login_sessions_subject")
        .on("oauth2_login_sessions")
        .column("subject")
        .execute();

      await db.schema
        .createTable("oauth2_consent_sessions")
        .addColumn("consent_request_id", "text", (c) => c.primaryKey())
        .addColumn("consent_challenge", "text", (c) => c.notNull())
        .addColumn("grant_id", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("client_id", "text", (c) => c.notNull())
        .addColumn("login_challenge", "text")
        .addColumn("login_session_id", "text")
        .addColumn("skip", "integer", (c) => c.notNull())
        .addColumn("grant_scope", "text", (c) => c.notNull())
        .addColumn("grant_audience", "text", (c) => c.notNull())
        .addColumn("remember", "integer", (c) => c.notNull())
        .addColumn("remember_for", "integer", (c) => c.notNull())
        .addColumn("session_access_token", "text", (c) => c.notNull())
        .addColumn("session_id_token", "text", (c) => c.notNull())
        .addColumn("context", "text", (c) => c.notNull())
        .addColumn("requested_scope", "text", (c) => c.notNull())
        .addColumn("requested_audience", "text", (c) => c.notNull())
        .addColumn("request_url", "text", (c) => c.notNull())
        .addColumn("acr", "text")
        .addColumn("amr", "text", (c) => c.notNull())
        .addColumn("oidc_context", "text", (c) => c.notNull())
        .addColumn("handled_at", "text", (c) => c.notNull())
        .addColumn("remember_until", "text")
        .execute();
      await db.schema
        .createIndex("oauth2_consent_sessions_subject_client")
        .on("oauth2_consent_sessions")
        .columns(["subject", "client_id"])
        .execute();
      await db.schema
        .createIndex("oauth2_consent_sessions_grant_id")
        .on("oauth2_consent_sessions")
        .column("grant_id")
        .execute();

      await db.schema
        .createTable("oauth2_logout_requests")
        .addColumn("challenge", "text", (c) => c.primaryKey())
        .addColumn("verifier", "text", (c) => c.notNull().unique())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("sid", "text", (c) => c.notNull())
        .addColumn("client_id", "text")
        .addColumn("request_url", "text", (c) => c.notNull())
        .addColumn("rp_initiated", "integer", (c) => c.notNull())
        .addColumn("xsrf", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("requested_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("oauth2_trusted_issuers")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("allow_any_subject", "integer", (c) => c.notNull())
        .addColumn("scope", "text", (c) => c.notNull())
        .addColumn("kid", "text", (c) => c.notNull())
        .addColumn("jwk", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addUniqueConstraint("oauth2_trusted_issuers_issuer_subject_kid", [
          "issuer",
          "subject",
          "kid",
        ])
        .execute();

      await db.schema
        .createTable("oauth2_seen_jtis")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
    },
  },
  {
    version: 2,
    name: "browser-bound-challenge-verifiers",
    async up(db) {
      // Hydra's login_verifier / consent_verifier: each challenge remembers the hash of the CSRF
      // cookie given to the browser that started it and, once answered, the hash of its verifier.
      await db.schema
        .createTable("oauth2_challenge_verifiers")
        .addColumn("challenge", "text", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("client_id", "text", (c) => c.notNull())
        .addColumn("csrf_hash", "text", (c) => c.notNull())
        .addColumn("verifier_hash", "text", (c) => c.unique())
        .addColumn("verifier_used_at", "text")
        .addColumn("expires_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("oauth2_challenge_verifiers_expires_at")
        .on("oauth2_challenge_verifiers")
        .column("expires_at")
        .execute();

      // Logout verifiers were stored in plain text. Logout requests live minutes, so the open ones
      // are dropped rather than carried over (their browsers start the logout again).
      await db.deleteFrom("oauth2_logout_requests").execute();
      await db.schema
        .alterTable("oauth2_logout_requests")
        .renameColumn("verifier", "verifier_hash")
        .execute();
      await db.schema
        .alterTable("oauth2_logout_requests")
        .addColumn("csrf_hash", "text", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  },
  {
    version: 3,
    name: "logout-request-post-logout-redirect",
    async up(db) {
      // Hydra's LogoutRequest.PostLogoutRedirectURI: where the logout ends, kept with the request
      // because the session it ends need not be the browser's (an id_token_hint names its own).
      await db.schema
        .alterTable("oauth2_logout_requests")
        .addColumn("post_logout_redirect", "text")
        .execute();
    },
  },
];

/** Applies every OAuth2 migration not yet recorded in `oauth2_migrations`. */
export async function migrateOAuth2(db: OAuth2Db, now: () => Date): Promise<number[]> {
  const applied = await applyMigrations(db, "oauth2_migrations", oauth2Migrations, now);
  if (applied.length > 0) await sql`PRAGMA optimize`.execute(db);
  return applied;
}
