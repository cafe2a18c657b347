import type { Context, Next } from "koa";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { deleteLoginSessions } from "../challenges/login-sessions.ts";
import { newSecret } from "../challenges/challenge-verifiers.ts";
import { createLogoutRequest, useLogoutVerifier } from "../challenges/logout-requests.ts";
import type { OAuth2Config } from "../oauth2-config.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { sendAutoSubmitForm, sendBrowserError } from "./browser-pages.ts";
import {
  csrfCookieName,
  csrfCookieProblem,
  requestForbiddenDescription,
  setCsrfCookie,
} from "./csrf-cookies.ts";

// Hydra's logout challenge on top of oidc-provider's RP-initiated logout:
// 1. GET /oauth2/sessions/logout: oidc-provider validates the request and puts an xsrf secret into
//    the browser session; `logoutSource` stores a logout request, gives the browser a logout CSRF
//    cookie and redirects to the logout UI.
// 2. The logout UI accepts through the admin API and sends the browser to
//    /oauth2/sessions/logout?logout_verifier=…; the verifier is spent and, only if this browser
//    has the CSRF cookie of step 1, the xsrf secret is posted to oidc-provider's own confirmation
//    endpoint (so its session handling, back-channel logout and redirect apply).
// 3. After that confirmation, the Hydra login session and the identity provider's session end.

export interface LogoutDeps {
  db: OAuth2Db;
  now: () => Date;
  config: OAuth2Config;
  issuer: string;
  /** Ends identity-provider (Kratos) sessions recorded at login accept. */
  endIdentityProviderSessions(sessionIds: string[]): Promise<void>;
}

export const logoutPath = "/oauth2/sessions/logout";

export function logoutSource(
  deps: LogoutDeps,
): NonNullable<
  NonNullable<NonNullable<Configuration["features"]>["rpInitiatedLogout"]>["logoutSource"]
> {
  return async (ctx: KoaContextWithOIDC) => {
    const { session, client } = ctx.oidc;
    if (!session) throw new Error("logout without a session context");
    const state = session.state as { secret?: string } | undefined;
    const csrf = newSecret();
    const challenge = await createLogoutRequest(
      deps.db,
      {
        subject: session.accountId ?? "",
        sid: session.uid,
        clientId: client?.clientId,
        requestUrl: new URL(ctx.originalUrl, `${deps.issuer}/`).href,
        rpInitiated: client !== undefined,
        xsrf: state?.secret ?? "",
        csrf,
      },
      deps.now(),
      deps.config.lifespans.loginConsentRequestMs,
    );
    const lifespanMs = deps.config.lifespans.loginConsentRequestMs;
    setCsrfCookie(ctx, csrfCookieName("logout"), csrf, logoutPath, lifespanMs);
    const url = new URL(deps.config.logoutUrl);
    url.searchParams.set("logout_challenge", challenge);
    ctx.status = 303;
    ctx.redirect(url.href);
  };
}

/** Step 2: turns an accepted logout verifier into the confirmation post. */
export function logoutVerifier(deps: LogoutDeps) {
  return async function completeAcceptedLogout(ctx: Context, next: Next): Promise<void> {
    const verifier =
      ctx.method === "GET" && ctx.path === logoutPath ? ctx.query.logout_verifier : undefined;
    if (typeof verifier !== "string") {
      await next();
      return;
    }
    const spent = await useLogoutVerifier(deps.db, verifier, deps.now());
    if (!spent) {
      sendBrowserError(
        ctx,
        deps.config.errorUrl,
        "access_denied",
        "The logout verifier has already been used, has not been granted, or is invalid.",
      );
      return;
    }
    const problem = csrfCookieProblem(ctx, csrfCookieName("logout"), spent.csrfHash);
    if (problem) {
      sendBrowserError(
        ctx,
        deps.config.errorUrl,
        "request_forbidden",
        requestForbiddenDescription(problem),
        403,
      );
      return;
    }
    sendAutoSubmitForm(ctx, `${deps.issuer}${logoutPath}/confirm`, {
      xsrf: spent.xsrf,
      logout: "yes",
    });
  };
}

/** Step 3: once oidc-provider destroyed the browser session, Hydra's login session ends too. */
export function logoutCompletion(deps: LogoutDeps) {
  return async function endLoginSession(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.method !== "POST" || ctx.path !== `${logoutPath}/confirm`) return;
    const session = (ctx as unknown as KoaContextWithOIDC).oidc?.session as
      { uid: string; destroyed?: boolean } | undefined;
    if (!session?.destroyed) return;
    const ended = await deleteLoginSessions(deps.db, { id: session.uid });
    const idpSessions = ended.flatMap((s) => s.identityProviderSessionId ?? []);
    if (idpSessions.length > 0) await deps.endIdentityProviderSessions(idpSessions);
  };
}

export function postLogoutSuccess(config: OAuth2Config) {
  return (ctx: KoaContextWithOIDC) => {
    // Hydra sends the browser to urls.post_logout_redirect when no client URI applies.
    ctx.status = 303;
    ctx.redirect(config.postLogoutRedirectUrl);
  };
}
