import type { Context, Next } from "koa";
import type { KoaContextWithOIDC } from "oidc-provider";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

// Hydra's strict refresh-token rotation removes every access token of the request before issuing
// the new pair (hydra persistence/sql/persister_oauth2.go strictRefreshRotation:
// deleteSessionByRequestID on the access table), so the access token a refresh replaces stops
// working at once. oidc-provider leaves it valid until it expires. A grant here is one
// authorization, Hydra's request id (consent-claims.ts rememberedGrant), so the access tokens of
// the refreshed grant other than the new one are exactly the ones Hydra removes.

export function revokeReplacedAccessTokens(tokenPath: string, db: OAuth2Db) {
  return async function afterRefresh(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.method !== "POST" || ctx.path !== tokenPath || ctx.status !== 200) return;
    const oidc = (ctx as unknown as KoaContextWithOIDC).oidc;
    if (oidc?.params?.grant_type !== "refresh_token") return;
    const issued = oidc.entities.AccessToken;
    if (!issued?.grantId) return;
    await db
      .deleteFrom("oauth2_payloads")
      .where("model", "=", "AccessToken")
      .where("grant_id", "=", issued.grantId)
      .where("id", "!=", issued.jti)
      .execute();
  };
}
