import { errors, type KoaContextWithOIDC } from "oidc-provider";
import type Provider from "oidc-provider";
import { answerAccessToken, clientMayNotRequest, scopesOf } from "./access-token-answer.ts";

// oidc-provider checks requested scopes against the client's `scope` only when it knows them (its
// configured list); at the token endpoint an unknown scope would slip into a client_credentials
// token. Hydra refuses any scope the client is not registered with, so this grant does too.
// (At the authorization endpoint oidc-provider drops unknown scopes instead.)

function assertClientMayRequest(clientScope: string | undefined, requested: string[]): void {
  const allowed = new Set(scopesOf(clientScope));
  for (const scope of requested) {
    if (!allowed.has(scope)) throw clientMayNotRequest(scope);
  }
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
      await answerAccessToken(ctx, "ClientCredentials", token, scope);
    },
    ["scope"],
  );
}
