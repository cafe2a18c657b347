import type { Context, Next } from "koa";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import { findConsentSessionByGrant } from "../challenges/consent-sessions.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

// What Hydra puts into ID tokens and userinfo answers beyond oidc-provider's standard claims:
// - every claim of the consent's `session.id_token` (hydra oauth2/handler.go
//   updateSessionWithRequest: `Extra: flow.SessionIDToken`), not only the OIDC standard ones
//   oidc-provider releases per scope: a consent app's `tenant` or `roles` reach the relying party;
// - `at_hash` in ID tokens from the token endpoint (fosite handler/openid
//   flow_explicit_token.go and flow_refresh_token.go set AccessTokenHash on both grants).
// Hydra's reserved claims win over the consent's: fosite's IDTokenClaims.ToMap
// (token/jwt/claims_id_token.go) copies the extra claims first, then sets or deletes sub, iss,
// jti, aud, iat, exp, rat, nonce, at_hash, c_hash, auth_time, acr and amr, and Hydra adds `sid`
// afterwards; the userinfo handler (oauth2/handler.go getOidcUserInfo) starts from the same map.

/** Claims a consent app cannot set (Hydra's reserved ones; s_hash: oidc-provider would hash it). */
const reservedIdTokenClaims: ReadonlySet<string> = new Set([
  "sub",
  "iss",
  "jti",
  "aud",
  "iat",
  "exp",
  "rat",
  "nonce",
  "at_hash",
  "c_hash",
  "s_hash",
  "auth_time",
  "acr",
  "amr",
  "sid",
]);

interface ClaimDeps {
  db: OAuth2Db;
}

/**
 * The consent's `session.id_token` claims that may reach tokens, by the grant they belong to: every
 * own key (`constructor` or `toString` too, as Hydra copies any key) except the reserved ones and
 * `__proto__`, in an object without a prototype so no key is mistaken for an inherited one.
 */
async function consentIdTokenClaims(
  db: OAuth2Db,
  grantId: string | undefined,
): Promise<Record<string, unknown>> {
  const claims = Object.create(null) as Record<string, unknown>;
  if (!grantId) return claims;
  const consent = await findConsentSessionByGrant(db, grantId);
  for (const [name, value] of Object.entries(consent?.sessionIdToken ?? {})) {
    if (!reservedIdTokenClaims.has(name) && name !== "__proto__") claims[name] = value;
  }
  return claims;
}

function grantIdOf(ctx: KoaContextWithOIDC | undefined): string | undefined {
  const entities = ctx?.oidc?.entities;
  return (
    entities?.Grant?.jti ??
    (ctx?.oidc?.result?.consent as { grantId?: string } | undefined)?.grantId
  );
}

/** The consent claims of each ID token being issued, added to its payload (below). */
const consentClaimsOf = new WeakMap<object, Record<string, unknown>>();

/**
 * Wraps IdToken#issue (oidc-provider 9.13.3, lib/models/id_token.js: `set` values are merged over
 * the masked claims, and an `at_hash` set to the access token is hashed with the signing alg).
 * oidc-provider's token endpoint (helpers/grant_common.js issueIdToken) never sets at_hash.
 * The consent's claims are added to the finished payload instead of through `set`: its merge
 * skips a key named `constructor`, and skips every `set` value once one is so named.
 */
export function issueIdTokensAsHydra(provider: Provider, deps: ClaimDeps): void {
  const prototype = provider.IdToken.prototype;
  // Read as plain function values: they are called with each ID token as `this` below.
  const original = Object.getOwnPropertyDescriptor(prototype, "issue")?.value as (
    this: typeof prototype,
    options: Parameters<typeof prototype.issue>[0],
  ) => Promise<string>;
  const originalPayload = Object.getOwnPropertyDescriptor(prototype, "payload")?.value as (
    this: typeof prototype,
  ) => Promise<Record<string, unknown>>;
  prototype.issue = async function issueAsHydra(options) {
    if (options.use === "idtoken") {
      const ctx = this.ctx as KoaContextWithOIDC | undefined;
      consentClaimsOf.set(this, await consentIdTokenClaims(deps.db, grantIdOf(ctx)));
      const accessToken = ctx?.oidc?.entities?.AccessToken;
      // Opaque access tokens: the token's value is its jti.
      if (ctx?.oidc?.route === "token" && accessToken?.jti) this.set("at_hash", accessToken.jti);
    }
    return original.call(this, options);
  };
  prototype.payload = async function payloadAsHydra() {
    const payload = await originalPayload.call(this);
    for (const [name, value] of Object.entries(consentClaimsOf.get(this) ?? {})) {
      // Claims oidc-provider already set (nonce, sid, …, or a released standard claim) stay.
      if (Object.hasOwn(payload, name)) continue;
      Object.defineProperty(payload, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return payload;
  };
}

/** Adds the consent's `session.id_token` claims to userinfo answers, as Hydra's userinfo does. */
export function userinfoWithConsentClaims(userinfoPath: string, deps: ClaimDeps) {
  return async function addConsentClaims(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.path !== userinfoPath || ctx.status !== 200) return;
    const body: unknown = ctx.body;
    if (body === null || typeof body !== "object" || Array.isArray(body)) return;
    const oidc = (ctx as unknown as KoaContextWithOIDC).oidc;
    const grantId = oidc?.entities?.AccessToken?.grantId;
    const extra = await consentIdTokenClaims(deps.db, grantId);
    // Spread copies own keys, `constructor` too; oidc-provider's claims win, as in ID tokens.
    ctx.body = { ...extra, ...(body as Record<string, unknown>) };
  };
}
