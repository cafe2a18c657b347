import { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { findConsentSessionByGrant } from "../challenges/consent-sessions.ts";
import { audienceNotAllowed, audienceNotAllowedHint } from "../clients/audience-matching.ts";
import type { ClientExtras } from "../clients/client-metadata.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

// fosite's refresh handler (handler/oauth2/flow_refresh.go HandleTokenEndpointRequest) checks the
// original grant against the client as it is now, before any token is rotated: every granted
// scope must still be one of the client's scopes (invalid_scope), and the granted access-token
// audience must be whitelisted for the client (invalid_request). Hydra lets the consent app grant
// any audience at the authorization and code steps, so the refresh is where a consent's
// `grant_access_token_audience` outside the client's `audience` is refused.
//
// oidc-provider's refresh handler has no hook of its own there; it looks the account up with the
// refresh token (findAccount) after its own checks and before it rotates anything, so the checks
// run in that call. A refresh token already used is left to the handler, which revokes the grant
// first, as fosite does.

interface Deps {
  db: OAuth2Db;
}

interface RefreshTokenLike {
  kind?: string;
  consumed?: unknown;
  grantId?: string;
  scope?: string;
}

function scopesOf(value: string | undefined): string[] {
  return (value ?? "").split(" ").filter((scope) => scope !== "");
}

async function checkRefreshAgainstClient(
  deps: Deps,
  ctx: KoaContextWithOIDC,
  token: RefreshTokenLike,
): Promise<void> {
  const client = ctx.oidc.client;
  if (!client) return;
  const clientScopes = new Set(scopesOf(client.scope));
  for (const scope of scopesOf(token.scope)) {
    if (!clientScopes.has(scope)) {
      throw new errors.InvalidScope(
        `The OAuth 2.0 Client is not allowed to request scope '${scope}'.`,
        scope,
      );
    }
  }
  const consent = token.grantId
    ? await findConsentSessionByGrant(deps.db, token.grantId)
    : undefined;
  const refused = audienceNotAllowed(
    (client as typeof client & ClientExtras).hydra_audience ?? [],
    consent?.grantAudience ?? [],
  );
  if (refused !== undefined) throw new errors.InvalidRequest(audienceNotAllowedHint(refused));
}

/** findAccount that first checks a refresh grant against the client, as fosite does. */
export function withRefreshGrantChecks(
  deps: Deps,
  findAccount: NonNullable<Configuration["findAccount"]>,
): NonNullable<Configuration["findAccount"]> {
  return async (ctx, sub, token) => {
    const refresh = token as RefreshTokenLike | undefined;
    if (
      ctx?.oidc?.route === "token" &&
      ctx.oidc.params?.grant_type === "refresh_token" &&
      refresh?.kind === "RefreshToken" &&
      !refresh.consumed
    ) {
      await checkRefreshAgainstClient(deps, ctx, refresh);
    }
    return findAccount(ctx, sub, token);
  };
}
