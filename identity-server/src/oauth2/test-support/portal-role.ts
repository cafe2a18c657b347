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

export interface AuthorizationRun {
  /** The URL the browser was finally sent to (the client's redirect URI with code or error). */
  callback: URL;
  loginChallenge: string;
  consentChallenge: string;
}

/**
 * Runs one authorization request through the login and consent UIs, accepting both with the
 * given bodies; returns the redirect back to the client.
 */
export async function authorize(
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
