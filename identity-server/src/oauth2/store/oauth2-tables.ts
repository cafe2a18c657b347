import type { Kysely } from "kysely";

// The OAuth2 service's own tables, in the identity server's SQLite file. Timestamps are ISO-8601 UTC
// strings, booleans 0/1 and JSON documents text, as in the rest of the store.

interface OAuth2MigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

/** oidc-provider's models (sessions, interactions, grants, codes, tokens), one row per id. */
interface OAuth2PayloadsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  account_id: string | null;
  client_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

/** Clients in Hydra's JSON shape; the secret only as hashes. */
export interface OAuth2ClientsTable {
  id: string;
  document: string;
  secret_hash: string | null;
  rotated_secret_hashes: string;
  client_name: string;
  owner: string;
  created_at: string;
  updated_at: string;
}

/** Signing keys, each private JWK sealed with a key derived from the server secret. */
interface OAuth2SigningKeysTable {
  kid: string;
  alg: string;
  sealed_jwk: string;
  position: number;
  created_at: string;
}

/** Hydra's remembered login sessions, keyed by the oidc-provider session uid (`sid`). */
export interface OAuth2LoginSessionsTable {
  id: string;
  subject: string;
  remember: number;
  authenticated_at: string;
  expires_at: string;
  identity_provider_session_id: string | null;
  acr: string | null;
  amr: string;
}

/** One accepted consent request; its grant holds the tokens. */
export interface OAuth2ConsentSessionsTable {
  consent_request_id: string;
  consent_challenge: string;
  grant_id: string;
  subject: string;
  client_id: string;
  login_challenge: string | null;
  login_session_id: string | null;
  skip: number;
  grant_scope: string;
  grant_audience: string;
  remember: number;
  remember_for: number;
  session_access_token: string;
  session_id_token: string;
  context: string;
  requested_scope: string;
  requested_audience: string;
  request_url: string;
  acr: string | null;
  amr: string;
  oidc_context: string;
  handled_at: string;
  /** When a remembered consent stops being reused; null means forever or not remembered. */
  remember_until: string | null;
}

/**
 * A login or consent challenge's binding to the browser that started it (Hydra's login/consent
 * CSRF cookie) and, once the challenge is answered, its single-use verifier. Only hashes are kept.
 */
interface OAuth2ChallengeVerifiersTable {
  challenge: string;
  /** "login" or "consent". */
  kind: string;
  client_id: string;
  csrf_hash: string;
  verifier_hash: string | null;
  verifier_used_at: string | null;
  expires_at: string;
}

export interface OAuth2LogoutRequestsTable {
  challenge: string;
  /** SHA-256 of the logout_verifier handed out on accept. */
  verifier_hash: string;
  /** SHA-256 of the logout CSRF cookie of the browser that started the logout. */
  csrf_hash: string;
  subject: string;
  sid: string;
  client_id: string | null;
  request_url: string;
  rp_initiated: number;
  xsrf: string;
  /** pending → accepted → used, or rejected. */
  status: string;
  /** Where the completed logout redirects (null: rows from before version 3). */
  post_logout_redirect: string | null;
  requested_at: string;
  expires_at: string;
}

export interface OAuth2TrustedIssuersTable {
  id: string;
  issuer: string;
  subject: string;
  allow_any_subject: number;
  scope: string;
  kid: string;
  jwk: string;
  created_at: string;
  expires_at: string;
}

/** `jti` values of accepted jwt-bearer assertions, kept until the assertion expires. */
interface OAuth2SeenJtisTable {
  id: string;
  expires_at: string;
}

export interface OAuth2Tables {
  oauth2_migrations: OAuth2MigrationsTable;
  oauth2_payloads: OAuth2PayloadsTable;
  oauth2_clients: OAuth2ClientsTable;
  oauth2_signing_keys: OAuth2SigningKeysTable;
  oauth2_login_sessions: OAuth2LoginSessionsTable;
  oauth2_consent_sessions: OAuth2ConsentSessionsTable;
  oauth2_logout_requests: OAuth2LogoutRequestsTable;
  oauth2_challenge_verifiers: OAuth2ChallengeVerifiersTable;
  oauth2_trusted_issuers: OAuth2TrustedIssuersTable;
  oauth2_seen_jtis: OAuth2SeenJtisTable;
}

export type OAuth2Db = Kysely<OAuth2Tables>;
