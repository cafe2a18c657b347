import * as oidc from "openid-client";
import type { Browser } from "./browser.ts";
import type { OAuth2TestService } from "./oauth2-test-service.ts";

// The test plays the portal: it reads challenges from the redirects to the login and consent UIs
// and answers them through the admin API, while a Browser carries the cookies.

export const redirectUri = "http://127.0.0.1:5555/callback";

export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
}

export async function registerClient(
  service: OAuth2TestService,
  body: Record<string, unknown>,
): Promise<RegisteredClient> {
  const response = await service.admin("POST", "/admin/clients", { json: body });
  if (response.status !== 201)
    throw new Error(`client not created: ${JSON.stringify(response.body)}`);
  return response.body as RegisteredClient;
}

/** An openid-client relying party for a registered client (http issuer allowed). */
export function relyingParty(
  service: OAuth2TestService,
  client: RegisteredClient,
  authMethod: "basic" | "post" | "none" = "basic",
): Promise<oidc.Configuration> {
  const auth =
    authMethod === "none"
      ? oidc.None()
      : authMethod === "post"
        ? oidc.ClientSecretPost(client.client_secret)
        : oidc.ClientSecretBasic(client.client_secret);
  return oidc.discovery(new URL(service.issuer), client.client_id, undefined, auth, {
    execute: [oidc.allowInsecureRequests],
  });
}

/** The challenge in a redirect to the login, consent or logout UI. */
export function challengeIn(
  location: string | undefined,
  kind: "login" | "consent" | "logout",
): string {
  const value = location ? new URL(location).searchParams.get(`${kind}_challenge`) : null;
  if (!value) throw new Error(`expected a redirect with ${kind}_challenge, got ${location}`);
  return value;
}

/** Opens a URL in the browser and returns the challenge of the UI it ends up at. */
export async function visitUntilChallenge(
  browser: Browser,
  url: string,
  kind: "login" | "consent" | "logout",
): Promise<string> {
  const response = await browser.follow(url);
  return challengeIn(response.location, kind);
}

export async function acceptLogin(
  service: OAuth2TestService,
  challenge: string,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await service.admin(
    "PUT",
    `/admin/oauth2/auth/requests/login/accept?login_challenge=${encodeURIComponent(challenge)}`,
    { json: body },
  );
  if (response.status !== 200)
    throw new Error(`login not accepted: ${JSON.stringify(response.body)}`);
  return (response.body as { redirect_to: string }).redirect_to;
}

export async function acceptConsent(
  service: OAuth2TestService,
  challenge: string,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await service.admin(
    "PUT",
    `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${encodeURIComponent(challenge)}`,
    { json: body },
  );
  if (response.status !== 200) {
    throw new Error(`consent not accepted: ${JSON.stringify(response.body)}`);
  }
  return (response.body as { redirect_to: string }).redirect_to;
}

interface AuthorizationRun {
  /** The URL the browser was finally sent to (the client's redirect URI with code or error). */
  callback: URL;
  loginChallenge: string;
  consentChallenge: string;
}

/**
 * Runs one authorization request through the login and consent UIs, accepting both with the
 * given bodies; returns the redirect back to the client.
 */
async function authorize(
  service: OAuth2TestService,
  browser: Browser,
  authorizationUrl: URL,
  login: Record<string, unknown>,
  consent: Record<string, unknown>,
): Promise<AuthorizationRun> {
  const loginChallenge = await visitUntilChallenge(browser, authorizationUrl.href, "login");
  const afterLogin = await acceptLogin(service, loginChallenge, login);
  const consentChallenge = await visitUntilChallenge(browser, afterLogin, "consent");
  const afterConsent = await acceptConsent(service, consentChallenge, consent);
  const final = await browser.follow(afterConsent);
  if (!final.location)
    throw new Error(`no redirect back to the client: ${final.status} ${final.text}`);
  return { callback: new URL(final.location), loginChallenge, consentChallenge };
}

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export async function pkce(): Promise<PkcePair> {
  const verifier = oidc.randomPKCECodeVerifier();
  return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
}

export async function introspect(
  service: OAuth2TestService,
  token: string,
  scope?: string,
): Promise<Record<string, unknown>> {
  const response = await service.admin("POST", "/admin/oauth2/introspect", {
    form: { token, ...(scope ? { scope } : {}) },
  });
  if (response.status !== 200)
    throw new Error(`introspection failed: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown>;
}

export interface SignInOptions {
  scope?: string;
  subject?: string;
  usePkce?: boolean;
  login?: Record<string, unknown>;
  consent?: Record<string, unknown>;
  extra?: Record<string, string>;
}

export interface SignedIn {
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
  run: AuthorizationRun;
}

/** A whole sign-in: authorization request, both UIs accepted, code exchanged for tokens. */
export async function signIn(
  service: OAuth2TestService,
  browser: Browser,
  rp: oidc.Configuration,
  options: SignInOptions = {},
): Promise<SignedIn> {
  const scope = options.scope ?? "openid offline_access";
  const pair = options.usePkce === false ? undefined : await pkce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope,
    state,
    ...(pair ? { code_challenge: pair.challenge, code_challenge_method: "S256" } : {}),
    ...options.extra,
  });
  const run = await authorize(
    service,
    browser,
    url,
    { subject: options.subject ?? "user-1", remember: true, ...options.login },
    { grant_scope: scope.split(" "), ...options.consent },
  );
  const tokens = await oidc.authorizationCodeGrant(rp, run.callback, {
    expectedState: state,
    ...(pair ? { pkceCodeVerifier: pair.verifier } : {}),
  });
  return { tokens, run };
}

/** A raw token endpoint call (for the error answers openid-client would throw on). */
export async function tokenRequest(
  service: OAuth2TestService,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basic) {
    const credentials = `${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  const response = await fetch(`${service.issuer}/oauth2/token`, {
    method: "POST",
    headers,
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
