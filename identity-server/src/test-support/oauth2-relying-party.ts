import * as oidc from "openid-client";
import { Browser } from "../oauth2/test-support/browser.ts";
import { challengeIn, pkce, redirectUri } from "../oauth2/test-support/portal-role.ts";
import type { TestServer } from "./test-server.ts";

// The OAuth2 side of the login-challenge tests: a registered client with an openid-client relying
// party, and a browser on the OAuth2 origin. The identity server's own pages are a different
// origin, so the tests keep a separate cookie jar for them (as a real browser would).

export function oauth2Of(ts: TestServer) {
  const oauth2 = ts.server.oauth2;
  if (!oauth2) throw new Error("the OAuth2 service is not running");
  return oauth2;
}

export async function oauth2Admin(
  ts: TestServer,
  method: string,
  path: string,
  json?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${oauth2Of(ts).adminUrl}${path}`, {
    method,
    headers: json === undefined ? {} : { "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

export async function registerRelyingParty(ts: TestServer): Promise<oidc.Configuration> {
  const created = await oauth2Admin(ts, "POST", "/admin/clients", {
    client_name: "login challenge test",
    redirect_uris: [redirectUri],
    scope: "openid",
  });
  if (created.status !== 201) throw new Error(`no client: ${JSON.stringify(created.body)}`);
  return oidc.discovery(
    new URL(oauth2Of(ts).issuer),
    String(created.body.client_id),
    undefined,
    oidc.ClientSecretBasic(String(created.body.client_secret)),
    { execute: [oidc.allowInsecureRequests] },
  );
}

export interface Authorization {
  rp: oidc.Configuration;
  browser: Browser;
  loginChallenge: string;
  state: string;
  verifier: string;
}

/** Starts an authorization request and follows it to the login UI's `login_challenge`. */
export async function startAuthorization(
  ts: TestServer,
  rp: oidc.Configuration,
  browser: Browser = new Browser(oauth2Of(ts).issuer),
): Promise<Authorization> {
  const { verifier, challenge } = await pkce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const loginChallenge = challengeIn((await browser.follow(url.href)).location, "login");
  return { rp, browser, loginChallenge, state, verifier };
}

/**
 * Continues at the URL the identity server sent the browser to (the accepted login), plays the
 * consent UI and exchanges the code: the ID token's claims.
 */
export async function finishAuthorization(
  ts: TestServer,
  auth: Authorization,
  afterLogin: string,
): Promise<oidc.IDToken> {
  const consentChallenge = challengeIn((await auth.browser.follow(afterLogin)).location, "consent");
  const consent = await oauth2Admin(
    ts,
    "PUT",
    `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${consentChallenge}`,
    { grant_scope: ["openid"], remember: true },
  );
  const final = await auth.browser.follow(String(consent.body.redirect_to));
  if (!final.location) throw new Error(`no redirect to the client: ${final.status}`);
  const tokens = await oidc.authorizationCodeGrant(auth.rp, new URL(final.location), {
    expectedState: auth.state,
    pkceCodeVerifier: auth.verifier,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("no ID token");
  return claims;
}
