import type { Context, Next } from "koa";
import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import type { Logger } from "pino";
import { deleteLoginSessions, findLoginSession } from "../challenges/login-sessions.ts";
import { newSecret } from "../challenges/challenge-verifiers.ts";
import { revokeLoginSessionById } from "../challenges/headless-logout.ts";
import {
  createLogoutRequest,
  findAcceptedLogout,
  spendAcceptedLogout,
} from "../challenges/logout-requests.ts";
import type { OAuth2Config } from "../oauth2-config.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { sendBrowserError } from "./browser-pages.ts";
import {
  csrfCookieName,
  csrfCookieProblem,
  requestForbiddenDescription,
  setCsrfCookie,
} from "./csrf-cookies.ts";

// Hydra's logout challenge on top of oidc-provider's RP-initiated logout:
// 1. GET /oauth2/sessions/logout: oidc-provider validates the request (id_token_hint, registered
//    post_logout_redirect_uri) and keeps `state` and the post-logout URI in the browser session;
//    `logoutSource` stores a logout request, gives the browser a logout CSRF cookie and redirects
//    to the logout UI. Without a signed-in session Hydra redirects straight to the post-logout URI
//    (consent/strategy_default.go issueLogoutVerifier); oidc-provider's auto-submit form for that
//    case is replaced by the same 302.
// 2. The logout UI accepts through the admin API and sends the browser to
//    /oauth2/sessions/logout?logout_verifier=…; the verifier is spent and, only if this browser
//    has the CSRF cookie of step 1, the logout completes as Hydra's completeLogout does: the login
//    session ends (back-channel logout, the identity provider's session), the session cookie is
//    cleared and the browser is redirected 302 to the post-logout URI (with `state`), as Hydra's
//    performOidcFrontOrBackChannelLogout (oauth2/handler.go). No page, no script, no form: HTTP
//    clients that follow redirects and browsers without JavaScript arrive.

export interface LogoutDeps {
  db: OAuth2Db;
  now: () => Date;
  config: OAuth2Config;
  issuer: string;
  logger: Logger;
  provider(): Provider;
  /** Ends identity-provider (Kratos) sessions recorded at login accept. */
  endIdentityProviderSessions(sessionIds: string[]): Promise<void>;
}

/** What oidc-provider keeps in the session for a logout (actions/end_session.js renderLogout). */
interface LogoutState {
  secret?: string;
  state?: string;
  postLogoutRedirectUri?: string;
}

/**
 * Hydra's PostLogoutRedirectURI: the client's registered post_logout_redirect_uri with `state`, or
 * urls.post_logout_redirect.
 */
function postLogoutTarget(config: OAuth2Config, state: LogoutState | undefined): string {
  if (!state?.postLogoutRedirectUri) return config.postLogoutRedirectUrl;
  const url = new URL(state.postLogoutRedirectUri);
  if (state.state) url.searchParams.set("state", state.state);
  return url.href;
}

async function storedLogoutState(db: OAuth2Db, sid: string): Promise<LogoutState | undefined> {
  const row = await db
    .selectFrom("oauth2_payloads")
    .select("payload")
    .where("model", "=", "Session")
    .where("uid", "=", sid)
    .executeTakeFirst();
  return row ? (JSON.parse(row.payload) as { state?: LogoutState }).state : undefined;
}

export const logoutPath = "/oauth2/sessions/logout";

type LogoutSourceDeps = Pick<LogoutDeps, "db" | "now" | "config" | "issuer">;

/** The `sid` of a validated id_token_hint (oidc-provider checked its signature and audience). */
function hintSidOf(ctx: KoaContextWithOIDC): string | undefined {
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sid?: unknown } } | undefined;
  return typeof hint?.payload?.sid === "string" ? hint.payload.sid : undefined;
}

/**
 * The remembered login session an id_token_hint names, as Hydra's issueLogoutVerifier looks it up
 * (GetRememberedLoginSession(hint sid)): the logout is about that session and its subject, not
 * the browser's (found in issue 15: a hint for X presented in Y's browser asked to log Y out).
 */
async function hintedLoginSession(deps: LogoutSourceDeps, sid: string) {
  const session = await findLoginSession(deps.db, sid);
  return session?.remember ? session : undefined;
}

/** Stores the logout request, gives the browser its CSRF cookie and sends it to the logout UI. */
async function startLogoutRequest(
  ctx: KoaContextWithOIDC,
  deps: LogoutSourceDeps,
  named: { subject: string; sid: string },
): Promise<void> {
  const { session, client } = ctx.oidc;
  const state = session?.state as (LogoutState & { secret?: string }) | undefined;
  const csrf = newSecret();
  const challenge = await createLogoutRequest(
    deps.db,
    {
      subject: named.subject,
      sid: named.sid,
      clientId: client?.clientId,
      requestUrl: new URL(ctx.originalUrl, `${deps.issuer}/`).href,
      rpInitiated: client !== undefined,
      xsrf: state?.secret ?? "",
      csrf,
      postLogoutRedirect: postLogoutTarget(deps.config, state),
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
}

export function logoutSource(
  deps: LogoutSourceDeps,
): NonNullable<
  NonNullable<NonNullable<Configuration["features"]>["rpInitiatedLogout"]>["logoutSource"]
> {
  return async (ctx: KoaContextWithOIDC) => {
    const { session } = ctx.oidc;
    if (!session) throw new Error("logout without a session context");
    const hintSid = hintSidOf(ctx);
    if (hintSid && hintSid !== session.uid) {
      const hinted = await hintedLoginSession(deps, hintSid);
      if (!hinted) {
        // Hydra: the hinted session is gone, nothing to log out; straight to the target.
        ctx.status = 302;
        ctx.redirect(postLogoutTarget(deps.config, session.state));
        return;
      }
      await startLogoutRequest(ctx, deps, { subject: hinted.subject, sid: hintSid });
      return;
    }
    await startLogoutRequest(ctx, deps, { subject: session.accountId ?? "", sid: session.uid });
  };
}

/**
 * Step 2: an accepted logout verifier ends the login session and redirects. The browser is
 * checked before the verifier is spent: another browser's attempt (403) leaves it to the browser
 * that started the logout (found in issue 15: it used the verifier up and the user stayed signed
 * in).
 */
export function logoutVerifier(deps: LogoutDeps) {
  return async function completeAcceptedLogout(ctx: Context, next: Next): Promise<void> {
    const verifier =
      ctx.method === "GET" && ctx.path === logoutPath ? ctx.query.logout_verifier : undefined;
    if (typeof verifier !== "string") {
      await next();
      return;
    }
    const unusable = () =>
      sendBrowserError(
        ctx,
        deps.config.errorUrl,
        "access_denied",
        "The logout verifier has already been used, has not been granted, or is invalid.",
        403,
      );
    const accepted = await findAcceptedLogout(deps.db, verifier, deps.now());
    if (!accepted) {
      unusable();
      return;
    }
    const problem = csrfCookieProblem(ctx, csrfCookieName("logout"), accepted.csrfHash);
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
    if (!(await spendAcceptedLogout(deps.db, accepted.challenge))) {
      unusable();
      return;
    }
    const target =
      accepted.postLogoutRedirect ??
      postLogoutTarget(deps.config, await storedLogoutState(deps.db, accepted.sid));
    await revokeLoginSessionById(deps, accepted.sid);
    // Hydra's revokeAuthenticationSession: the browser's session cookie goes too.
    ctx.cookies.set(deps.provider().cookieName("session"), null, {
      httpOnly: true,
      sameSite: "lax",
    });
    ctx.status = 302;
    ctx.redirect(target);
  };
}

/**
 * Step 1 without a signed-in session: straight to the post-logout URI, as Hydra, unless an
 * id_token_hint names a remembered login session (Hydra logs that one out from any browser).
 */
export function logoutWithoutSession(deps: LogoutSourceDeps) {
  return async function redirectWithoutSession(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.method !== "GET" || ctx.path !== logoutPath || ctx.status !== 200) return;
    const oidcCtx = ctx as unknown as KoaContextWithOIDC;
    const session = oidcCtx.oidc?.session;
    if (!session || session.accountId) return;
    ctx.body = undefined;
    const hintSid = hintSidOf(oidcCtx);
    const hinted = hintSid ? await hintedLoginSession(deps, hintSid) : undefined;
    if (hinted && hintSid) {
      await startLogoutRequest(oidcCtx, deps, { subject: hinted.subject, sid: hintSid });
      return;
    }
    ctx.status = 302;
    ctx.redirect(postLogoutTarget(deps.config, session.state));
  };
}

/**
 * oidc-provider's own confirmation (POST /oauth2/sessions/logout/confirm) needs the session's
 * xsrf secret, which no answer carries any more; should it still complete a logout, Hydra's login
 * session ends too.
 */
export function logoutCompletion(deps: Pick<LogoutDeps, "db" | "endIdentityProviderSessions">) {
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
