import type Provider from "oidc-provider";
import type { AccessToken, ClientCredentials, RefreshToken } from "oidc-provider";
import { findConsentSessionByGrant } from "../challenges/consent-sessions.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

// Hydra's admin introspection (POST /admin/oauth2/introspect): no client authentication, access
// and refresh tokens, an optional `scope` the token must carry, and Hydra's answer shape with the
// consent's `session.access_token` under `ext`. A token is active only while its grant exists
// (revoked consent, reused codes and reused refresh tokens remove the grant).

/** Hydra's introspectedOAuth2Token. */
export interface Introspection {
  active: boolean;
  client_id?: string;
  scope?: string;
  exp?: number;
  iat?: number;
  nbf?: number;
  sub?: string;
  aud?: string[];
  iss?: string;
  token_type?: string;
  token_use?: string;
  ext?: Record<string, unknown>;
}

type Found =
  | { use: "access_token"; token: AccessToken | ClientCredentials }
  | { use: "refresh_token"; token: RefreshToken };

async function findToken(provider: Provider, value: string): Promise<Found | undefined> {
  const access = await provider.AccessToken.find(value);
  if (access) return { use: "access_token", token: access };
  const machine = await provider.ClientCredentials.find(value);
  if (machine) return { use: "access_token", token: machine };
  const refresh = await provider.RefreshToken.find(value);
  if (refresh) return { use: "refresh_token", token: refresh };
  return undefined;
}

export async function introspect(
  provider: Provider,
  db: OAuth2Db,
  issuer: string,
  value: string,
  requiredScope: string[],
): Promise<Introspection> {
  const inactive: Introspection = { active: false };
  const found = await findToken(provider, value);
  if (!found || !found.token.isValid) return inactive;
  const token = found.token;
  const grantId = "grantId" in token ? token.grantId : undefined;
  if (grantId && !(await provider.Grant.find(grantId))) return inactive;
  if (!(await provider.Client.find(token.clientId ?? ""))) return inactive;
  const scopes = new Set((token.scope ?? "").split(" ").filter((s) => s !== ""));
  if (!requiredScope.every((scope) => scopes.has(scope))) return inactive;

  const consent = grantId ? await findConsentSessionByGrant(db, grantId) : undefined;
  const accountId = "accountId" in token ? token.accountId : undefined;
  // Read from the consent, never from the token's `extra` (consent-claims.ts says why).
  const extra = consent?.sessionAccessToken;
  return {
    active: true,
    client_id: token.clientId,
    scope: [...scopes].join(" "),
    exp: token.exp,
    iat: token.iat,
    nbf: token.iat,
    // Hydra reports the client as the subject of client_credentials tokens.
    sub: accountId ?? token.clientId,
    aud: consent?.grantAudience ?? [],
    iss: issuer,
    token_type: "Bearer",
    token_use: found.use,
    ...(extra && Object.keys(extra).length > 0 ? { ext: extra } : {}),
  };
}
