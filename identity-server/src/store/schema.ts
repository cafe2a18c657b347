import type { Kysely, Transaction } from "kysely";

// Timestamps are ISO-8601 UTC strings, booleans 0/1 and JSON documents text, as SQLite stores them.

interface IdentitiesTable {
  id: string;
  schema_id: string;
  state: string;
  state_changed_at: string | null;
  traits: string;
  metadata_public: string | null;
  metadata_admin: string | null;
  created_at: string;
  updated_at: string;
}

interface IdentityCredentialsTable {
  id: string;
  identity_id: string;
  type: string;
  config: string;
  version: number;
  created_at: string;
  updated_at: string;
}

interface IdentityCredentialIdentifiersTable {
  id: string;
  credential_id: string;
  identity_id: string;
  type: string;
  identifier: string;
  created_at: string;
}

interface VerifiableAddressesTable {
  id: string;
  identity_id: string;
  value: string;
  via: string;
  verified: number;
  status: string;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

interface RecoveryAddressesTable {
  id: string;
  identity_id: string;
  value: string;
  via: string;
  created_at: string;
  updated_at: string;
}

interface SessionsTable {
  id: string;
  identity_id: string;
  token_hash: string;
  active: number;
  aal: string;
  authentication_methods: string;
  issued_at: string;
  authenticated_at: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

interface SessionDevicesTable {
  id: string;
  session_id: string;
  ip_address: string | null;
  user_agent: string | null;
  location: string | null;
  created_at: string;
}

interface LogoutTokensTable {
  token_hash: string;
  session_id: string;
  created_at: string;
}

export interface FlowsTable {
  id: string;
  kind: string;
  type: string;
  state: string;
  request_url: string;
  return_to: string | null;
  ui: string;
  csrf_token: string;
  internal_context: string;
  active_method: string | null;
  refresh: number;
  requested_aal: string;
  issued_at: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
  /** One-time code submissions so far (Kratos' submit_count); never reset for the flow. */
  submit_count: number;
  /** Settings: the owner; recovery: the recovered identity; verification: who it was made for. */
  identity_id: string | null;
  /** The language messages for this flow are written in ("en", "es"). */
  locale: string | null;
  /** API login/registration: the init code of its session token exchange (Kratos' field). */
  session_token_exchange_code: string | null;
  /** Login/registration/verification: the OAuth2 login challenge the flow answers. */
  oauth2_login_challenge: string | null;
}

/**
 * Kratos' session_token_exchanges: an API flow's two codes. Kratos also records the session once
 * the flow finishes in a browser (social sign-in), which never happens here, so there is no column.
 */
interface SessionTokenExchangesTable {
  id: string;
  flow_id: string;
  init_code: string;
  return_to_code: string;
  created_at: string;
  updated_at: string;
}

interface OneTimeCodesTable {
  id: string;
  flow_id: string;
  /** "recovery" | "verification" | "login" */
  kind: string;
  code_hmac: string;
  /** "self_service" | "admin" | "admin_link" */
  code_type: string;
  identity_id: string;
  address_value: string | null;
  address_via: string | null;
  used_at: string | null;
  expires_at: string;
  issued_at: string;
  created_at: string;
}

export interface CourierMessagesTable {
  id: string;
  /** "email" | "sms" (Kratos' message type) */
  type: string;
  channel: string;
  status: string;
  recipient: string;
  subject: string;
  body: string;
  template_type: string;
  template_data: string;
  locale: string;
  send_count: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** The courier worker that took the message (courier/claims.ts); null until one does. */
  claimed_by: string | null;
}

interface CourierDispatchesTable {
  id: string;
  message_id: string;
  status: string;
  error: string | null;
  created_at: string;
  updated_at: string;
}

interface ErrorsTable {
  id: string;
  error: string;
  csrf_token: string;
  was_seen: number;
  seen_at: string | null;
  created_at: string;
  updated_at: string;
}

interface TotpUsedStepsTable {
  identity_id: string;
  /** TOTP counter (Unix seconds / 30) of the newest code accepted. */
  step: number;
  updated_at: string;
}

export interface TrustedDevicesTable {
  id: string;
  identity_id: string;
  /** SHA-256 of the random token in the browser's `ory_trusted_device` cookie. */
  token_hash: string;
  user_agent: string | null;
  ip_address: string | null;
  /** The browser fingerprint (`x-session-entropy`) seen when the device was trusted, if any. */
  fingerprint: string | null;
  created_at: string;
  expires_at: string;
}

interface MigrationsTable {
  version: number;
  name: string;
  applied_at: string;
}

export interface Database {
  identities: IdentitiesTable;
  identity_credentials: IdentityCredentialsTable;
  identity_credential_identifiers: IdentityCredentialIdentifiersTable;
  identity_verifiable_addresses: VerifiableAddressesTable;
  identity_recovery_addresses: RecoveryAddressesTable;
  sessions: SessionsTable;
  session_devices: SessionDevicesTable;
  session_logout_tokens: LogoutTokensTable;
  selfservice_flows: FlowsTable;
  selfservice_errors: ErrorsTable;
  one_time_codes: OneTimeCodesTable;
  courier_messages: CourierMessagesTable;
  courier_message_dispatches: CourierDispatchesTable;
  totp_used_steps: TotpUsedStepsTable;
  trusted_devices: TrustedDevicesTable;
  session_token_exchanges: SessionTokenExchangesTable;
  schema_migrations: MigrationsTable;
}

/** Either the database or an open transaction; repositories accept both. */
export type Executor = Kysely<Database> | Transaction<Database>;
