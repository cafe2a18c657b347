import type { Context, Next } from "koa";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import type { LoginResult } from "../challenges/login-requests.ts";
import { saveLoginSession } from "../challenges/login-sessions.ts";
import type { OAuth2Lifespans } from "../oauth2-config.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";

// Hydra confirms a login session when the browser comes back with an accepted login: it lasts
// remember_for seconds (0: the authentication-session lifespan, which also caps it). A skipped
// login keeps the session as it was. oidc-provider's session gets the same fixed lifetime.

function lifetimeSeconds(login: LoginResult, lifespans: OAuth2Lifespans): number {
  const cap = Math.round(lifespans.authenticationSessionMs / 1000);
  return login.remember_for > 0 ? Math.min(login.remember_for, cap) : cap;
}

function loginOf(ctx: KoaContextWithOIDC | undefined): LoginResult | undefined {
  return ctx?.oidc?.result?.login as LoginResult | undefined;
}

/** ttl.Session: a fixed expiry from the login, never extended by later requests. */
export function sessionTtl(
  lifespans: OAuth2Lifespans,
): NonNullable<Configuration["ttl"]>["Session"] {
  return (ctx, session) => {
    // oidc-provider measures session expiry on the wall clock.
    const nowSeconds = Math.floor(Date.now() / 1000);
    const login = loginOf(ctx);
    if (login) return Math.max(60, login.ts + lifetimeSeconds(login, lifespans) - nowSeconds);
    if (typeof session.exp === "number") return Math.max(1, session.exp - nowSeconds);
    return Math.round(lifespans.loginConsentRequestMs / 1000);
  };
}

/** After a resumed authorization request, records Hydra's login session for the browser session. */
export function loginSessionRecorder(db: OAuth2Db, lifespans: OAuth2Lifespans) {
  return async function recordLoginSession(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.method !== "GET" || !ctx.path.startsWith("/oauth2/auth/")) return;
    const oidc = (ctx as unknown as KoaContextWithOIDC).oidc;
    const login = loginOf(ctx as unknown as KoaContextWithOIDC);
    const session = oidc?.session as
      { uid: string; accountId?: string; destroyed?: boolean } | undefined;
    if (!login || login.skip || !session || session.destroyed) return;
    if (session.accountId !== login.accountId) return;
    const authenticatedAt = new Date(login.ts * 1000);
    await saveLoginSession(db, {
      id: session.uid,
      subject: login.accountId,
      remember: login.remember,
      authenticatedAt,
      expiresAt: new Date(authenticatedAt.getTime() + lifetimeSeconds(login, lifespans) * 1000),
      identityProviderSessionId: login.identity_provider_session_id,
      acr: login.acr,
      amr: login.amr ?? [],
    });
  };
}
