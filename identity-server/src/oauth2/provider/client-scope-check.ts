import { errors, type KoaContextWithOIDC } from "oidc-provider";
import type Provider from "oidc-provider";

// oidc-provider only checks requested scopes it knows (its configured list) against the client's
// `scope`; a scope it has never heard of slips through, and client_credentials would even put it
// into the token. Hydra refuses any scope the client is not registered with; so do we, at the
// authorization endpoint and in the client_credentials grant.

function scopesOf(value: unknown): string[] {
  return typeof value === "string" ? value.split(" ").filter((scope) => scope !== "") : [];
}

function assertClientMayRequest(clientScope: string | undefined, requested: string[]): void {
  const allowed = new Set(scopesOf(clientScope));
  for (const scope of requested) {
    if (!allowed.has(scope)) {
      throw new errors.InvalidScope(
        `The OAuth 2.0 Client is not allowed to request scope '${scope}'.`,
        scope,
      );
    }
  }
}

/** An extra-parameter validator (they run for every authorization request, after the client checks). */
export function authorizationScopeCheck(ctx: KoaContextWithOIDC): void {
  assertClientMayRequest(ctx.oidc.client?.scope, scopesOf(ctx.oidc.params?.scope));
}

/** Replaces oidc-provider's client_credentials handler with one that checks every scope. */
export function registerClientCredentialsGrant(provider: Provider): void {
  provider.registerGrantType(
    "client_credentials",
    async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      if (!client) throw new errors.InvalidClient("client authentication failed");
      const requested = scopesOf(ctx.oidc.params?.scope);
      assertClientMayRequest(client.scope, requested);
      const scope = requested.join(" ");
      const token = new provider.ClientCredentials({ client, ...(scope ? { scope } : {}) });
      ctx.oidc.entity("ClientCredentials", token);
      const accessToken = await token.save();
      ctx.body = {
        access_token: accessToken,
        expires_in: token.expiration,
        token_type: "Bearer",
        ...(scope ? { scope } : {}),
      };
    },
    ["scope"],
  );
}
