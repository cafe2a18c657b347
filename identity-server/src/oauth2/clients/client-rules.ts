import { invalidClientMetadata, invalidRedirectUri } from "../hydra-error.ts";
import { lifespanFields, type HydraClient } from "./client-document.ts";
import type { ClientInput } from "./client-input.ts";

// Hydra's client validator (client/validator.go), applied to every create and update.

/** Hydra's `oauth2.client_default_scope` (DefaultClientScope). */
const defaultClientScope = "offline_access offline openid";

const authSigningAlgs = new Set([
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
]);

// Hydra hashes secrets, so it cannot offer client_secret_jwt (which needs the plain secret).
const authMethods = new Set([
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
  "none",
]);

function parseRequestUri(value: string): URL | undefined {
  return URL.canParse(value) ? new URL(value) : undefined;
}

function isHttpUrl(value: string): boolean {
  const url = parseRequestUri(value);
  return url !== undefined && (url.protocol === "http:" || url.protocol === "https:");
}

function normaliseOrigin(origin: string): string {
  const url = parseRequestUri(origin);
  if (!url) {
    throw invalidClientMetadata(
      `Origin URL ${origin} from allowed_cors_origins could not be parsed.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidClientMetadata(
      `Origin URL ${origin} must use https:// or http:// as HTTP scheme.`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw invalidClientMetadata(
      `Origin URL ${origin} has HTTP user and/or password set which is not allowed.`,
    );
  }
  if (url.pathname.replace(/\/+$/, "") !== "" || url.search !== "" || url.hash !== "") {
    throw invalidClientMetadata(
      `Origin URL ${origin} must have an empty path, query, and fragment but one of the parts is not empty.`,
    );
  }
  return url.origin;
}

function checkRedirectUris(uris: string[]): URL[] {
  return uris.map((uri) => {
    if (uri.includes("#"))
      throw invalidRedirectUri("Redirect URIs must not contain fragments (#).");
    const url = parseRequestUri(uri);
    if (!url) throw invalidRedirectUri(`Unable to parse redirect URL: ${uri}`);
    return url;
  });
}

export interface ClientStamp {
  clientId: string;
  createdAt: string;
  updatedAt: string;
}

/** Applies Hydra's defaults and checks to a create/replace body; throws Hydra's 400 errors. */
export function buildClient(input: ClientInput, stamp: ClientStamp): HydraClient {
  const method = input.token_endpoint_auth_method || "client_secret_basic";
  if (!authMethods.has(method)) {
    throw invalidClientMetadata(
      `Field token_endpoint_auth_method must be one of client_secret_basic, client_secret_post, private_key_jwt or none.`,
    );
  }
  if (method === "private_key_jwt") {
    if (!input.jwks_uri && !input.jwks) {
      throw invalidClientMetadata(
        "When token_endpoint_auth_method is 'private_key_jwt', either jwks or jwks_uri must be set.",
      );
    }
    if (
      input.token_endpoint_auth_signing_alg &&
      !authSigningAlgs.has(input.token_endpoint_auth_signing_alg)
    ) {
      throw invalidClientMetadata(
        "Only RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 and ES512 are supported as algorithms for private key authentication.",
      );
    }
  }
  if (input.jwks_uri && input.jwks) {
    throw invalidClientMetadata(
      "Fields jwks and jwks_uri can not both be set, you must choose one.",
    );
  }
  for (const [field, uri] of Object.entries({
    tos_uri: input.tos_uri,
    policy_uri: input.policy_uri,
    logo_uri: input.logo_uri,
    client_uri: input.client_uri,
  })) {
    if (!uri) continue;
    if (!parseRequestUri(uri)) throw invalidClientMetadata(`Field ${field} must be a valid URI.`);
    if (!isHttpUrl(uri)) {
      throw invalidClientMetadata(
        `${uri} must use https:// or http:// as HTTP scheme for field ${field}.`,
      );
    }
  }
  if (
    input.client_secret !== undefined &&
    input.client_secret.length > 0 &&
    input.client_secret.length < 6
  ) {
    throw invalidClientMetadata(
      "Field client_secret must contain a secret that is at least 6 characters long.",
    );
  }
  const userinfoAlg = input.userinfo_signed_response_alg || "none";
  if (userinfoAlg !== "none") {
    // Signed userinfo answers are not offered here (Hydra also allows RS256).
    throw invalidClientMetadata("Field userinfo_signed_response_alg can only be 'none'.");
  }
  const subjectType = input.subject_type || "public";
  if (subjectType !== "public") {
    throw invalidClientMetadata(
      `Subject type ${subjectType} is not supported by server, only [public] are allowed.`,
    );
  }
  if (input.access_token_strategy && input.access_token_strategy !== "opaque") {
    throw invalidClientMetadata(
      `invalid access token strategy: only "opaque" access tokens are issued by this server`,
    );
  }
  if (input.frontchannel_logout_uri) {
    throw invalidClientMetadata(
      "Front-channel logout is not supported; use backchannel_logout_uri.",
    );
  }

  const redirects = checkRedirectUris(input.redirect_uris ?? []);
  for (const uri of input.post_logout_redirect_uris ?? []) {
    const url = parseRequestUri(uri);
    if (!url) throw invalidClientMetadata(`Unable to parse post_logout_redirect_uri: ${uri}`);
    const sameOrigin = redirects.some(
      (redirect) =>
        redirect.protocol === url.protocol &&
        redirect.hostname === url.hostname &&
        redirect.port === url.port,
    );
    if (!sameOrigin) {
      throw invalidClientMetadata(
        `post_logout_redirect_uri '${uri}' must match the domain, port, scheme of at least one of the registered redirect URIs but did not`,
      );
    }
  }

  const client: HydraClient = {
    client_id: stamp.clientId,
    client_name: input.client_name ?? "",
    redirect_uris: input.redirect_uris ?? [],
    grant_types: input.grant_types ?? [],
    response_types: input.response_types ?? [],
    scope: input.scope || defaultClientScope,
    audience: input.audience ?? [],
    owner: input.owner ?? "",
    policy_uri: input.policy_uri ?? "",
    allowed_cors_origins: (input.allowed_cors_origins ?? []).map(normaliseOrigin),
    tos_uri: input.tos_uri ?? "",
    client_uri: input.client_uri ?? "",
    logo_uri: input.logo_uri ?? "",
    contacts: input.contacts ?? [],
    client_secret_expires_at: 0,
    subject_type: subjectType,
    sector_identifier_uri: input.sector_identifier_uri || undefined,
    jwks_uri: input.jwks_uri || undefined,
    jwks: input.jwks,
    token_endpoint_auth_method: method,
    token_endpoint_auth_signing_alg: input.token_endpoint_auth_signing_alg || undefined,
    request_uris:
      input.request_uris && input.request_uris.length > 0 ? input.request_uris : undefined,
    request_object_signing_alg: input.request_object_signing_alg || undefined,
    userinfo_signed_response_alg: userinfoAlg,
    created_at: stamp.createdAt,
    updated_at: stamp.updatedAt,
    post_logout_redirect_uris:
      input.post_logout_redirect_uris && input.post_logout_redirect_uris.length > 0
        ? input.post_logout_redirect_uris
        : undefined,
    backchannel_logout_uri: input.backchannel_logout_uri || undefined,
    backchannel_logout_session_required: input.backchannel_logout_session_required || undefined,
    metadata: input.metadata ?? {},
    access_token_strategy: input.access_token_strategy || undefined,
    skip_consent: input.skip_consent ?? false,
    skip_logout_consent: input.skip_logout_consent ?? false,
    ...Object.fromEntries(lifespanFields.map((field) => [field, input[field] ?? null])),
  } as HydraClient;
  return client;
}
