import type { Client, Configuration, KoaContextWithOIDC } from "oidc-provider";
import type { LifespanField } from "../clients/client-document.ts";
import type { ClientExtras } from "../clients/client-metadata.ts";
import type { OAuth2Lifespans } from "../oauth2-config.ts";
import { jwtBearerGrantType } from "./jwt-bearer-grant.ts";

// Token lifetimes: the server defaults (Hydra's ttl.*) unless the client sets a per-grant lifespan
// (PUT /admin/clients/{id}/lifespans). Which grant issues a token is read from the request.

type TokenKind = "access" | "id" | "refresh";
type Grant =
  "authorization_code" | "refresh_token" | "implicit" | "client_credentials" | "jwt_bearer";

function grantOf(ctx: KoaContextWithOIDC | undefined): Grant {
  if (ctx?.oidc.route !== "token") return "implicit";
  switch (ctx.oidc.params?.grant_type) {
    case "refresh_token":
      return "refresh_token";
    case "client_credentials":
      return "client_credentials";
    case jwtBearerGrantType:
      return "jwt_bearer";
    default:
      return "authorization_code";
  }
}

function clientLifespan(
  client: Client | undefined,
  grant: Grant,
  kind: TokenKind,
): number | undefined {
  const lifespans = (client as ClientExtras | undefined)?.hydra_lifespans;
  const field = `${grant}_grant_${kind}_token_lifespan` as LifespanField;
  return lifespans?.[field];
}

const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

/** A grant outlives the refresh tokens issued under it; Hydra's chains have no overall limit. */
const grantLifetimeSeconds = 365 * 24 * 3600;

export function tokenLifespans(
  defaults: OAuth2Lifespans,
  sessionTtl: NonNullable<Configuration["ttl"]>["Session"],
): Configuration["ttl"] {
  return {
    AccessToken: (ctx, _token, client) =>
      clientLifespan(client, grantOf(ctx), "access") ?? seconds(defaults.accessTokenMs),
    ClientCredentials: (_ctx, _token, client) =>
      clientLifespan(client, "client_credentials", "access") ?? seconds(defaults.accessTokenMs),
    IdToken: (ctx, _token, client) =>
      clientLifespan(client, grantOf(ctx), "id") ?? seconds(defaults.idTokenMs),
    RefreshToken: (ctx, _token, client) =>
      clientLifespan(client, grantOf(ctx), "refresh") ?? seconds(defaults.refreshTokenMs),
    AuthorizationCode: () => seconds(defaults.authorizationCodeMs),
    Interaction: () => seconds(defaults.loginConsentRequestMs),
    Grant: () => grantLifetimeSeconds,
    Session: sessionTtl,
  };
}
