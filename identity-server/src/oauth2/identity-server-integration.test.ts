import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { strongPassword } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { Browser } from "./test-support/browser.ts";
import { challengeIn, pkce, redirectUri } from "./test-support/portal-role.ts";

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
});

afterAll(() => ts.stop());

async function oauth2Admin(method: string, path: string, json?: unknown) {
  const oauth2 = ts.server.oauth2;
  if (!oauth2) throw new Error("the OAuth2 service is not running");
  const response = await fetch(`${oauth2.adminUrl}${path}`, {
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

describe("the OAuth2 service inside the identity server", () => {
  it("starts with the identity server on its own listeners", async () => {
    const oauth2 = ts.server.oauth2;
    expect(oauth2).toBeDefined();
    const discovery = await fetch(`${oauth2?.issuer}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(new URL(oauth2?.adminUrl ?? "").hostname).toBe("127.0.0.1");
  });

  it("is left out with IDENTITY_OAUTH2_ENABLED=false", async () => {
    const without = await startTestServer({ IDENTITY_OAUTH2_ENABLED: "false" });
    try {
      expect(without.server.oauth2).toBeUndefined();
    } finally {
      await without.stop();
    }
  });

  it("ends the identity session recorded at login accept when the login session ends", async () => {
    const oauth2 = ts.server.oauth2;
    if (!oauth2) throw new Error("the OAuth2 service is not running");
    const api = ts.native();
    const flow = await api.createNativeRegistrationFlow();
    const registered = await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: "password",
        password: strongPassword,
        traits: { email: "oauth2-user@example.com" },
      },
    });
    const sessionToken = registered.session_token ?? "";
    const sessionId = registered.session?.id ?? "";
    expect(sessionId).not.toBe("");

    const created = await oauth2Admin("POST", "/admin/clients", {
      redirect_uris: [redirectUri],
      scope: "openid",
    });
    const rp = await oidc.discovery(
      new URL(oauth2.issuer),
      String(created.body.client_id),
      undefined,
      oidc.ClientSecretBasic(String(created.body.client_secret)),
      { execute: [oidc.allowInsecureRequests] },
    );
    const { challenge } = await pkce();
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: redirectUri,
      scope: "openid",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const browser = new Browser(oauth2.issuer);
    const loginChallenge = challengeIn((await browser.follow(url.href)).location, "login");

    // The identity server's own login flow answers the challenge in-process.
    const { redirect_to } = await oauth2.acceptLoginRequest(loginChallenge, {
      subject: registered.identity.id,
      remember: true,
      identity_provider_session_id: sessionId,
    });
    const consentChallenge = challengeIn((await browser.follow(redirect_to)).location, "consent");
    const consent = await oauth2Admin(
      "PUT",
      `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${consentChallenge}`,
      { grant_scope: ["openid"] },
    );
    await browser.follow(String(consent.body.redirect_to));
    const loginSession = await oauth2Admin(
      "GET",
      `/admin/oauth2/auth/sessions/consent?subject=${registered.identity.id}`,
    );
    const sid = String(
      (loginSession.body as unknown as { consent_request: { login_session_id: string } }[])[0]
        ?.consent_request.login_session_id,
    );

    expect((await api.toSession({ xSessionToken: sessionToken })).active).toBe(true);
    const revoked = await oauth2Admin("DELETE", `/admin/oauth2/auth/sessions/login?sid=${sid}`);
    expect(revoked.status).toBe(204);
    await expect(api.toSession({ xSessionToken: sessionToken })).rejects.toMatchObject({
      response: { status: 401 },
    });
  });
});
