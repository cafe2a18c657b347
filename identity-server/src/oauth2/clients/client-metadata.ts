import { createHash } from "node:crypto";
import type { ClientMetadata } from "oidc-provider";
import { parseDuration } from "../../config/duration.ts";
import {
  effectiveGrantTypes,
  effectiveResponseTypes,
  lifespanFields,
  type HydraClient,
  type LifespanField,
} from "./client-document.ts";

/** Client properties oidc-provider does not know but our configuration reads (extraClientMetadata). */
export const extraClientProperties = [
  "hydra_secret_hashes",
  "hydra_lifespans",
  "hydra_audience",
  "allowed_cors_origins",
] as const;

/** What the provider's Client object carries besides the standard metadata. */
export interface ClientExtras {
  /** Current secret hash first, then rotated ones; compared by our compareClientSecret override. */
  hydra_secret_hashes?: string[];
  /** Per-grant token lifespans in seconds. */
  hydra_lifespans?: Partial<Record<LifespanField, number>>;
  hydra_audience?: string[];
  allowed_cors_origins?: string[];
}

const secretAuthMethods = new Set(["client_secret_basic", "client_secret_post"]);

/**
 * The metadata oidc-provider validates and runs a client with. oidc-provider requires a
 * `client_secret` for secret-based authentication and compares it in plain text; we hand it an
 * unguessable stand-in derived from the hash and compare real secrets against the hashes instead.
 */
export function providerMetadata(client: HydraClient, secretHashes: string[]): ClientMetadata {
  const lifespans: Partial<Record<LifespanField, number>> = {};
  for (const field of lifespanFields) {
    const value = client[field];
    const ms = value === null ? undefined : parseDuration(value);
    if (ms !== undefined && ms > 0) lifespans[field] = Math.max(1, Math.round(ms / 1000));
  }
  const grantTypes = effectiveGrantTypes(client);
  const usesBrowser = grantTypes.includes("authorization_code") || grantTypes.includes("implicit");
  // Hydra has no application_type; a custom-scheme redirect URI means an app on a device, which
  // oidc-provider only accepts for native clients.
  const native = client.redirect_uris.some((uri) => !/^https?:/i.test(uri));
  const needsSecret = secretAuthMethods.has(client.token_endpoint_auth_method);
  const standIn = createHash("sha256")
    .update(`oauth2-client-secret-stand-in:${client.client_id}:${secretHashes.join(",")}`)
    .digest("base64url");
  // Our own validation ran first; oidc-provider validates the algorithm names itself.
  const metadata: Record<string, unknown> & ClientExtras = {
    client_id: client.client_id,
    ...(needsSecret ? { client_secret: standIn } : {}),
    ...(client.client_name ? { client_name: client.client_name } : {}),
    application_type: native ? "native" : "web",
    redirect_uris: client.redirect_uris,
    post_logout_redirect_uris: client.post_logout_redirect_uris ?? [],
    grant_types: grantTypes,
    // A client without a browser grant has no response types (oidc-provider then needs no redirect URI).
    response_types: usesBrowser ? effectiveResponseTypes(client) : [],
    scope: client.scope,
    token_endpoint_auth_method: client.token_endpoint_auth_method,
    ...(client.token_endpoint_auth_signing_alg
      ? { token_endpoint_auth_signing_alg: client.token_endpoint_auth_signing_alg }
      : {}),
    ...(client.jwks ? { jwks: client.jwks } : {}),
    ...(client.jwks_uri ? { jwks_uri: client.jwks_uri } : {}),
    ...(client.request_uris ? { request_uris: client.request_uris } : {}),
    ...(client.request_object_signing_alg
      ? { request_object_signing_alg: client.request_object_signing_alg }
      : {}),
    ...(client.sector_identifier_uri
      ? { sector_identifier_uri: client.sector_identifier_uri }
      : {}),
    ...(client.backchannel_logout_uri
      ? {
          backchannel_logout_uri: client.backchannel_logout_uri,
          backchannel_logout_session_required: client.backchannel_logout_session_required ?? false,
        }
      : {}),
    ...(client.policy_uri ? { policy_uri: client.policy_uri } : {}),
    ...(client.tos_uri ? { tos_uri: client.tos_uri } : {}),
    ...(client.client_uri ? { client_uri: client.client_uri } : {}),
    ...(client.logo_uri ? { logo_uri: client.logo_uri } : {}),
    hydra_secret_hashes: needsSecret ? secretHashes : [],
    hydra_lifespans: lifespans,
    hydra_audience: client.audience,
    allowed_cors_origins: client.allowed_cors_origins,
  };
  return metadata as ClientMetadata;
}
