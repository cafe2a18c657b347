import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import * as oidc from "openid-client";
import type { DemoConfig } from "./config.ts";
import type { OidcClient } from "./oidc-client.ts";
import { problemPage } from "./pages.ts";
import { defaultReturnPath, safeReturnPath } from "./return-path.ts";
import { createSealer } from "./sealed-cookie.ts";
import type { SessionStore } from "./session-store.ts";
import { isSignOutToken } from "./sign-out-token.ts";

// Cookie names start with `demo_`: the portal (ory_kratos_session, csrf_token_*) and the OAuth2
// service (_session, _interaction*) set theirs on the same `localhost` host on other ports, and
// browsers do not keep cookies apart by port.
export const sessionCookie = "demo_session";
const loginCookie = "demo_login";
const logoutCookie = "demo_logout";

const scope = "openid offline_access email profile";
const loginStateSeconds = 10 * 60;

interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

function isPendingLogin(value: unknown): value is PendingLogin {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return ["state", "nonce", "verifier", "returnTo"].every((k) => typeof v[k] === "string");
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type("text/html; charset=utf-8").send(body);
}

function loginHref(returnTo: string): string {
  return `/auth/login?return_to=${encodeURIComponent(returnTo)}`;
}

/** Status and wording for a callback that did not end in a session; never a 500. */
function describeCallbackFailure(error: unknown): {
  status: number;
  title: string;
  message: string;
} {
  if (error instanceof oidc.AuthorizationResponseError) {
    if (error.error === "access_denied") {
      return {
        status: 403,
        title: "Sign-in was not completed",
        message:
          "Sign-in was cancelled or refused, so you are not signed in to the agency product.",
      };
    }
    return {
      status: 400,
      title: "Sign-in failed",
      message: `The sign-in service answered: ${error.error_description ?? error.error} (${error.error}).`,
    };
  }
  if (error instanceof oidc.ResponseBodyError) {
    return {
      status: 400,
      title: "Sign-in failed",
      message: `The sign-in service refused to complete the sign-in (${error.error}). The link may have been used already.`,
    };
  }
  if (error instanceof oidc.WWWAuthenticateChallengeError) {
    return {
      status: 502,
      title: "Sign-in failed",
      message: "The sign-in service did not let the agency product read your profile.",
    };
  }
  if (error instanceof TypeError) {
    // fetch failing: the OAuth2 service is down or unreachable.
    return {
      status: 502,
      title: "Sign-in service unavailable",
      message: "The sign-in service could not be reached to complete your sign-in.",
    };
  }
  // openid-client's checks: state, PKCE, nonce, issuer or ID token signature did not match.
  return {
    status: 400,
    title: "Sign-in failed",
    message:
      "The answer from the sign-in service did not match the sign-in started in this browser, so it was not accepted.",
  };
}

export interface AuthRoutes {
  /** True (once) when the browser arrives back from the end-session endpoint with our state. */
  cameBackFromSignOut(request: FastifyRequest, reply: FastifyReply): boolean;
}

export function registerAuthRoutes(
  app: FastifyInstance,
  config: DemoConfig,
  client: OidcClient,
  sessions: SessionStore,
): AuthRoutes {
  const loginSealer = createSealer(config.cookieSecret, loginCookie);
  const logoutSealer = createSealer(config.cookieSecret, logoutCookie);
  const callbackUrl = `${config.publicUrl}/auth/callback`;
  const cookieOptions = {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: config.secureCookies,
  };

  async function discovered(request: FastifyRequest): Promise<oidc.Configuration | undefined> {
    try {
      return await client.configuration();
    } catch (error) {
      request.log.warn({ err: error, issuer: config.oidc.issuer }, "OIDC discovery failed");
      return undefined;
    }
  }

  app.get<{ Querystring: { return_to?: string } }>("/auth/login", async (request, reply) => {
    const returnTo = safeReturnPath(request.query.return_to, config.publicUrl) ?? defaultReturnPath;
    const oidcConfig = await discovered(request);
    if (!oidcConfig) {
      return html(
        reply,
        503,
        problemPage(
          "Sign-in service unavailable",
          "The sign-in service is not reachable right now. Please try again in a moment.",
          loginHref(returnTo),
        ),
      );
    }
    const pending: PendingLogin = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      returnTo,
    };
    const url = oidc.buildAuthorizationUrl(oidcConfig, {
      redirect_uri: callbackUrl,
      scope,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: "S256",
    });
    reply.setCookie(loginCookie, loginSealer.seal(pending, loginStateSeconds), {
      ...cookieOptions,
      path: "/auth",
      maxAge: loginStateSeconds,
    });
    return reply.redirect(url.href, 303);
  });

  app.get("/auth/callback", async (request, reply) => {
    const pending = loginSealer.open(request.cookies[loginCookie]);
    // One attempt per login state: a replayed or second callback must start over.
    reply.clearCookie(loginCookie, { ...cookieOptions, path: "/auth" });
    if (!isPendingLogin(pending)) {
      return html(
        reply,
        400,
        problemPage(
          "Sign-in expired",
          "This sign-in was not started in this browser or took too long, so it cannot be completed.",
          loginHref(defaultReturnPath),
        ),
      );
    }
    const retry = loginHref(pending.returnTo);
    const oidcConfig = await discovered(request);
    if (!oidcConfig) {
      return html(
        reply,
        502,
        problemPage(
          "Sign-in service unavailable",
          "The sign-in service could not be reached to complete your sign-in.",
          retry,
        ),
      );
    }
    const current = new URL(callbackUrl);
    current.search = new URL(request.url, "http://callback.invalid").search;
    let session;
    try {
      const tokens = await oidc.authorizationCodeGrant(oidcConfig, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) throw new Error("no ID token");
      const userinfo = await oidc.fetchUserInfo(oidcConfig, tokens.access_token, claims.sub);
      // The refresh token (offline_access) is not kept: the demo calls no APIs after sign-in.
      session = { claims: { ...claims }, userinfo: { ...userinfo }, idToken: tokens.id_token };
    } catch (error) {
      const failure = describeCallbackFailure(error);
      request.log.warn({ err: error }, "sign-in callback failed");
      return html(reply, failure.status, problemPage(failure.title, failure.message, retry));
    }
    // A fresh id per sign-in; whatever session this browser had before is over.
    sessions.delete(request.cookies[sessionCookie]);
    reply.setCookie(sessionCookie, sessions.create(session), { ...cookieOptions, path: "/" });
    return reply.redirect(pending.returnTo, 303);
  });

  app.post<{ Body: Record<string, string> | undefined }>("/auth/logout", async (request, reply) => {
    const origin = request.headers.origin;
    const sessionId = request.cookies[sessionCookie];
    const session = sessions.get(sessionId);
    if (
      (origin !== undefined && origin !== new URL(config.publicUrl).origin) ||
      (session && !isSignOutToken(config.cookieSecret, sessionId ?? "", request.body?.csrf_token))
    ) {
      return html(
        reply,
        403,
        problemPage(
          "Sign-out not accepted",
          "This sign-out request did not come from the agency product's own page.",
          "/",
        ),
      );
    }
    sessions.delete(sessionId);
    reply.clearCookie(sessionCookie, { ...cookieOptions, path: "/" });
    if (!session) return reply.redirect("/", 303);

    const oidcConfig = await discovered(request);
    if (!oidcConfig?.serverMetadata().end_session_endpoint) {
      return html(
        reply,
        502,
        problemPage(
          "Signed out of the agency product only",
          "You are signed out here, but the sign-in service could not be reached, so you may still be signed in there.",
          "/",
        ),
      );
    }
    // The state comes back on the post-logout redirect; `/` checks it before saying "signed out".
    const state = oidc.randomState();
    reply.setCookie(logoutCookie, logoutSealer.seal(state, loginStateSeconds), {
      ...cookieOptions,
      path: "/",
      maxAge: loginStateSeconds,
    });
    const url = oidc.buildEndSessionUrl(oidcConfig, {
      id_token_hint: session.idToken,
      post_logout_redirect_uri: `${config.publicUrl}/`,
      state,
    });
    return reply.redirect(url.href, 303);
  });

  return {
    cameBackFromSignOut(request, reply) {
      const { state } = request.query as { state?: unknown };
      const expected = logoutSealer.open(request.cookies[logoutCookie]);
      if (typeof state !== "string" || expected !== state) return false;
      reply.clearCookie(logoutCookie, { ...cookieOptions, path: "/" });
      return true;
    },
  };
}
