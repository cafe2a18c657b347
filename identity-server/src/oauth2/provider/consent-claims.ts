import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { findClient } from "../clients/client-store.ts";
import { isPublicClient } from "../clients/client-document.ts";
import {
  findConsentSessionByGrant,
  findRememberedConsent,
  saveConsentSession,
} from "../challenges/consent-sessions.ts";
import { randomId } from "../crypto/random.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

// What the consent app put into `session.access_token` and `session.id_token` travels with the
// grant: token contents are looked up by grant id whenever an ID token is issued, userinfo
// answers or a token is introspected (`session.access_token` is never copied into oidc-provider's
// token `extra`, whose "plain object" check fails on a claim named `constructor`).

/** Claims oidc-provider may put into ID tokens and userinfo answers (undeclared ones are dropped). */
export const releasableClaims = [
  "sub",
  "acr",
  "amr",
  "auth_time",
  "name",
  "given_name",
  "family_name",
  "middle_name",
  "nickname",
  "preferred_username",
  "profile",
  "picture",
  "website",
  "email",
  "email_verified",
  "gender",
  "birthdate",
  "zoneinfo",
  "locale",
  "phone_number",
  "phone_number_verified",
  "address",
  "updated_at",
];

/** The releasable claims a consent app may set (the others are Hydra's reserved ones). */
const standardClaims: ReadonlySet<string> = new Set(
  releasableClaims.filter((name) => !["sub", "acr", "amr", "auth_time"].includes(name)),
);

interface Deps {
  db: OAuth2Db;
  now: () => Date;
}

type WithGrant = { grantId?: string | undefined } | undefined;

function grantIdOf(ctx: KoaContextWithOIDC | undefined, token: WithGrant): string | undefined {
  return (
    token?.grantId ??
    ctx?.oidc.entities.Grant?.jti ??
    (ctx?.oidc.result?.consent as { grantId?: string } | undefined)?.grantId
  );
}

/**
 * findAccount: the subject plus the consent's standard claims. Only the claims oidc-provider may
 * release are passed on (it drops the others anyway): its "plain object" checks read
 * `.constructor`, so a consent claim named `constructor` would make it throw. The other consent
 * claims are added by hydra-token-claims.ts.
 */
export function findAccountWithConsentClaims(
  deps: Deps,
): NonNullable<Configuration["findAccount"]> {
  return (ctx, sub, token) => ({
    accountId: sub,
    async claims() {
      const grantId = grantIdOf(ctx, token);
      const consent = grantId ? await findConsentSessionByGrant(deps.db, grantId) : undefined;
      const claims: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(consent?.sessionIdToken ?? {})) {
        if (standardClaims.has(name)) claims[name] = value;
      }
      return { ...claims, sub };
    },
  });
}

/** Hydra lets a public client reuse consent only with an https or loopback redirect URI. */
export function publicClientMaySkip(redirectUri: string): boolean {
  if (!URL.canParse(redirectUri)) return false;
  const url = new URL(redirectUri);
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/**
 * loadExistingGrant: the grant of this request's consent answer, or, for prompt=none, a new grant
 * made from the subject's remembered consent for this client. Hydra remembers consent per subject
 * and client, not per browser, so the session's own grant is never reused; and every
 * authorization gets tokens of its own (Hydra's request id: a skipped consent is a new flow), so
 * the remembered consent is copied into a skipped consent session with its own grant rather than
 * shared: revoking or rotating one authorization's tokens leaves the others and the remembered
 * consent alone.
 */
export function rememberedGrant(deps: Deps): NonNullable<Configuration["loadExistingGrant"]> {
  return async (ctx) => {
    const { oidc } = ctx;
    const answered = (oidc.result?.consent as { grantId?: string } | undefined)?.grantId;
    if (answered) return oidc.provider.Grant.find(answered);
    const accountId = oidc.session?.accountId;
    if (!oidc.prompts.has("none") || !accountId || !oidc.client) return undefined;
    const stored = await findClient(deps.db, oidc.client.clientId);
    if (!stored) return undefined;
    if (
      isPublicClient(stored.client) &&
      !publicClientMaySkip(
        typeof oidc.params?.redirect_uri === "string" ? oidc.params.redirect_uri : "",
      )
    ) {
      return undefined;
    }
    const remembered = await findRememberedConsent(
      deps.db,
      accountId,
      oidc.client.clientId,
      deps.now(),
    );
    if (!remembered) return undefined;
    // Hydra's skip needs the remembered scopes to cover the request; otherwise consent_required.
    const granted = new Set(remembered.grantScope);
    if (![...oidc.requestParamOIDCScopes].every((scope) => granted.has(scope))) return undefined;
    const grant = new oidc.provider.Grant({ accountId, clientId: oidc.client.clientId });
    const scopes = remembered.grantScope.filter((scope) => scope !== "");
    if (scopes.length > 0) grant.addOIDCScope(scopes.join(" "));
    const grantId = await grant.save();
    const now = deps.now();
    await saveConsentSession(deps.db, {
      ...remembered,
      consentRequestId: randomId(),
      consentChallenge: "",
      grantId,
      loginSessionId: oidc.session.uid,
      skip: true,
      remember: false,
      rememberFor: 0,
      requestUrl: ctx.href,
      handledAt: now,
      rememberUntil: undefined,
    });
    return grant;
  };
}
