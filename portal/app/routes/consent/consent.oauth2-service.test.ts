// @vitest-environment node
import * as oidc from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  acceptLogin,
  pkce,
  redirectUri,
  registerClient,
  relyingParty,
  visitUntilChallenge,
} from "../../../../identity-server/src/oauth2/test-support/portal-role.ts";
import { startOAuth2TestService } from "../../../../identity-server/src/oauth2/test-support/oauth2-test-service.ts";
import type { OAuth2TestService } from "../../../../identity-server/src/oauth2/test-support/oauth2-test-service.ts";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { createLoadContext } from "../../http/request-context.ts";
import { loadConsent, submitConsent } from "./consent.server.ts";

/**
 * The consent page against the identity server's real OAuth2 service (Hydra's admin API): the
 * test's browser runs the authorization request, the login is accepted for the session's
 * identity, and the portal's loader and action answer the consent challenge.
 */
let service: OAuth2TestService;
let rp: oidc.Configuration;
const realFetch = globalThis.fetch;
const session = vendorJson("kratos.fixture.session.aal2-password-totp.json") as {
  identity: { id: string };
};

beforeAll(async () => {
  service = await startOAuth2TestService();
  // Read once by getConfig, on the first loader call of this file.
  process.env.HYDRA_ADMIN_URL = service.adminUrl;
  process.env.HYDRA_PUBLIC_URL = service.issuer;
  const client = await registerClient(service, {
    client_name: "Agency portal",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code"],
    scope: "openid email",
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The identity service's whoami answers with the fixture session; the OAuth2 service is real. */
function stubWhoami() {
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/sessions/whoami") {
      return Promise.resolve(Response.json(session, { status: 200 }));
    }
    return realFetch(input, init);
  });
}

async function consentChallenge() {
  const browser = service.browser();
  const { challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid email",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st",
  });
  const login = await visitUntilChallenge(browser, url.href, "login");
  const afterLogin = await acceptLogin(service, login, { subject: session.identity.id });
  return { browser, challenge: await visitUntilChallenge(browser, afterLogin, "consent") };
}

function args(path: string, fields?: Record<string, string>) {
  const url = new URL(path, "http://localhost:3000");
  return {
    request: new Request(url, fields ? { method: "POST", body: new URLSearchParams(fields) } : {}),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c" }),
    locale: "en" as const,
    url,
  };
}

describe("consent against the OAuth2 service", () => {
  it("shows the request, and Allow ends at the client with a code", async () => {
    stubWhoami();
    const { browser, challenge } = await consentChallenge();
    const path = `/en/consent?consent_challenge=${encodeURIComponent(challenge)}`;

    await expect(loadConsent(args(path))).resolves.toMatchObject({
      client: { name: "Agency portal" },
      scopes: ["openid", "email"],
    });
    const allowed = await submitConsent(args(path, { decision: "allow" }));

    expect(allowed.status).toBe(303);
    const back = await browser.follow(allowed.headers.get("location") ?? "");
    const callback = new URL(back.location ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("code")).toBeTruthy();

    // The challenge is used now: the page follows the service's redirect_to (410).
    const again = await loadConsent(args(path));
    expect(again instanceof Response && again.status).toBe(303);
  });

  it("Deny ends at the client with access_denied", async () => {
    stubWhoami();
    const { browser, challenge } = await consentChallenge();
    const path = `/en/consent?consent_challenge=${encodeURIComponent(challenge)}`;

    const denied = await submitConsent(args(path, { decision: "deny" }));

    const back = await browser.follow(denied.headers.get("location") ?? "");
    expect(new URL(back.location ?? "").searchParams.get("error")).toBe("access_denied");
  });

  it("sends an unknown challenge to the error page", async () => {
    const result = await loadConsent(args("/en/consent?consent_challenge=not-a-challenge"));
    expect(result instanceof Response && result.headers.get("location")).toBe(
      "/en/error?oauth2=expired",
    );
  });
});
