import { Writable } from "node:stream";
import * as oidc from "openid-client";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengeIn, redirectUri } from "../oauth2/test-support/portal-role.ts";
import { registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { oauth2Admin, oauth2Of, startAuthorization } from "../test-support/oauth2-relying-party.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Every log line of every listener and component, captured at `trace` (the most a production
// operator could turn on), while a person signs out with a session token, recovers the account
// with an administrator's code and signs in to a client through the OAuth2 code flow up to the
// token exchange: none of the secrets of those steps may appear (log-redaction.test.ts checks the
// request URLs of the browser flows at `info`).

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { logger: pino({ level: "trace" }, capture) });
});
afterAll(async () => {
  await ts.stop();
});

const json = { "content-type": "application/json", accept: "application/json" };

describe("logs at trace level", () => {
  it("hold no password, session token, recovery code, OAuth2 secret, code, verifier or token", async () => {
    const secrets = new Map<string, string>([["password", strongPassword]]);
    const email = "traced@example.com";
    const { token, identityId } = await registerNative(ts, email);
    secrets.set("session token", token);

    // A native sign-out with the session token in the body.
    const loggedOut = await fetch(`${ts.publicUrl}/self-service/logout/api`, {
      method: "DELETE",
      headers: json,
      body: JSON.stringify({ session_token: token }),
    });
    expect(loggedOut.status).toBe(204);

    // Recovery with a code the administrator created, submitted to its flow.
    const created = await fetch(`${ts.adminUrl}/admin/recovery/code`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ identity_id: identityId }),
    });
    const { recovery_code: recoveryCode, recovery_link: recoveryLink } = (await created.json()) as {
      recovery_code: string;
      recovery_link: string;
    };
    secrets.set("recovery code", recoveryCode);
    const flowId = new URL(recoveryLink).searchParams.get("flow") ?? "";
    const recovered = await fetch(`${ts.publicUrl}/self-service/recovery?flow=${flowId}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ method: "code", code: recoveryCode }),
    });
    expect(recovered.status).toBeLessThan(500);

    // The OAuth2 code flow: a client with a secret, PKCE, challenges accepted through the admin
    // API, the code exchanged for tokens at the token endpoint.
    const client = await oauth2Admin(ts, "POST", "/admin/clients", {
      redirect_uris: [redirectUri],
      scope: "openid",
    });
    const clientSecret = String(client.body.client_secret);
    secrets.set("client secret", clientSecret);
    const rp = await oidc.discovery(
      new URL(oauth2Of(ts).issuer),
      String(client.body.client_id),
      undefined,
      oidc.ClientSecretBasic(clientSecret),
      { execute: [oidc.allowInsecureRequests] },
    );
    const auth = await startAuthorization(ts, rp);
    secrets.set("state", auth.state);
    secrets.set("code verifier", auth.verifier);
    secrets.set("login challenge", auth.loginChallenge);
    const login = await oauth2Admin(
      ts,
      "PUT",
      `/admin/oauth2/auth/requests/login/accept?login_challenge=${auth.loginChallenge}`,
      { subject: identityId },
    );
    const afterLogin = String(login.body.redirect_to);
    secrets.set("login verifier", new URL(afterLogin).searchParams.get("login_verifier") ?? "");
    const consentChallenge = challengeIn(
      (await auth.browser.follow(afterLogin)).location,
      "consent",
    );
    secrets.set("consent challenge", consentChallenge);
    const consent = await oauth2Admin(
      ts,
      "PUT",
      `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${consentChallenge}`,
      { grant_scope: ["openid"] },
    );
    const afterConsent = String(consent.body.redirect_to);
    secrets.set(
      "consent verifier",
      new URL(afterConsent).searchParams.get("consent_verifier") ?? "",
    );
    const callback = (await auth.browser.follow(afterConsent)).location ?? "";
    expect(callback.startsWith(redirectUri)).toBe(true);
    secrets.set("authorization code", new URL(callback).searchParams.get("code") ?? "");
    const tokens = await oidc.authorizationCodeGrant(rp, new URL(callback), {
      expectedState: auth.state,
      pkceCodeVerifier: auth.verifier,
    });
    secrets.set("access token", tokens.access_token);
    secrets.set("id token", tokens.id_token ?? "");
    // The same code again: refused, and the refusal is not a place to print it either.
    await expect(
      oidc.authorizationCodeGrant(rp, new URL(callback), {
        expectedState: auth.state,
        pkceCodeVerifier: auth.verifier,
      }),
    ).rejects.toThrow();
    const introspected = await fetch(`${oauth2Of(ts).adminUrl}/admin/oauth2/introspect`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token }).toString(),
    });
    expect(introspected.status).toBe(200);

    const log = lines.join("");
    // The steps were logged (so the check below looked at something).
    expect(log).toContain("/self-service/logout/api");
    expect(log).toContain("/self-service/recovery?flow=[redacted]");
    expect(log).toContain(
      "/admin/oauth2/auth/requests/consent/accept?consent_challenge=[redacted]",
    );
    for (const [what, value] of secrets) {
      expect(value.length, what).toBeGreaterThan(5);
      expect(log.includes(value), `${what} is in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `${what} is in the log`).toBe(false);
    }
  }, 60_000);
});
