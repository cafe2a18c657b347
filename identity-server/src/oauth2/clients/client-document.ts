// An OAuth2 client as Hydra's admin API reads and writes it (Hydra's client/client.go). The stored
// document never contains the secret; responses add it only where Hydra echoes it.

export const lifespanFields = [
  "authorization_code_grant_access_token_lifespan",
  "authorization_code_grant_id_token_lifespan",
  "authorization_code_grant_refresh_token_lifespan",
  "client_credentials_grant_access_token_lifespan",
  "device_authorization_grant_access_token_lifespan",
  "device_authorization_grant_id_token_lifespan",
  "device_authorization_grant_refresh_token_lifespan",
  "implicit_grant_access_token_lifespan",
  "implicit_grant_id_token_lifespan",
  "jwt_bearer_grant_access_token_lifespan",
  "refresh_token_grant_access_token_lifespan",
  "refresh_token_grant_id_token_lifespan",
  "refresh_token_grant_refresh_token_lifespan",
] as const;

export type LifespanField = (typeof lifespanFields)[number];

/** Go duration strings such as "1h0m0s"; null when the server default applies. */
export type Lifespans = Record<LifespanField, string | null>;

export interface HydraClient extends Lifespans {
  client_id: string;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  scope: string;
  audience: string[];
  owner: string;
  policy_uri: string;
  allowed_cors_origins: string[];
  tos_uri: string;
  client_uri: string;
  logo_uri: string;
  contacts: string[];
  client_secret_expires_at: number;
  subject_type: string;
  sector_identifier_uri?: string;
  jwks_uri?: string;
  jwks?: { keys: Record<string, unknown>[] };
  token_endpoint_auth_method: string;
  token_endpoint_auth_signing_alg?: string;
  request_uris?: string[];
  request_object_signing_alg?: string;
  userinfo_signed_response_alg: string;
  created_at: string;
  updated_at: string;
  frontchannel_logout_uri?: string;
  frontchannel_logout_session_required?: boolean;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
  metadata: unknown;
  access_token_strategy?: string;
  skip_consent: boolean;
  skip_logout_consent: boolean;
}

/** Hydra's field order, so responses read like Hydra's. */
const fieldOrder: (keyof HydraClient | "client_secret")[] = [
  "client_id",
  "client_name",
  "client_secret",
  "redirect_uris",
  "grant_types",
  "response_types",
  "scope",
  "audience",
  "owner",
  "policy_uri",
  "allowed_cors_origins",
  "tos_uri",
  "client_uri",
  "logo_uri",
  "contacts",
  "client_secret_expires_at",
  "subject_type",
  "sector_identifier_uri",
  "jwks_uri",
  "jwks",
  "token_endpoint_auth_method",
  "token_endpoint_auth_signing_alg",
  "request_uris",
  "request_object_signing_alg",
  "userinfo_signed_response_alg",
  "created_at",
  "updated_at",
  "frontchannel_logout_uri",
  "frontchannel_logout_session_required",
  "post_logout_redirect_uris",
  "backchannel_logout_uri",
  "backchannel_logout_session_required",
  "metadata",
  "access_token_strategy",
  "skip_consent",
  "skip_logout_consent",
  ...lifespanFields,
];

/** The client as Hydra's JSON, with the secret only when given (create, or PUT with a secret). */
export function clientJson(client: HydraClient, secret?: string): Record<string, unknown> {
  const source: Record<string, unknown> = { ...client, client_secret: secret };
  const out: Record<string, unknown> = {};
  for (const key of fieldOrder) {
    if (source[key] !== undefined) out[key] = source[key];
  }
  return out;
}

export function isPublicClient(client: Pick<HydraClient, "token_endpoint_auth_method">): boolean {
  return client.token_endpoint_auth_method === "none";
}

/** Grant types a client effectively has: Hydra treats an empty list as authorization_code. */
export function effectiveGrantTypes(client: Pick<HydraClient, "grant_types">): string[] {
  return client.grant_types.length > 0 ? client.grant_types : ["authorization_code"];
}

export function effectiveResponseTypes(client: Pick<HydraClient, "response_types">): string[] {
  return client.response_types.length > 0 ? client.response_types : ["code"];
}
