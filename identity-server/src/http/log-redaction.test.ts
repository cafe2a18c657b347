import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser as OAuth2Browser } from "../oauth2/test-support/browser.ts";
import { pkce } from "../oauth2/test-support/portal-role.ts";
import { call, CookieJar } from "../test-support/http-client.ts";
import { csrfTokenOf, registerNative } from "../test-support/flow-helpers.ts";
import { passwordSignIn } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { redactUrl } from "./log-redaction.ts";

// The request log of every listener, captured at `info` (the production level), while a person
// verifies their address from the e-mail link, signs out with a logout token, recovers the account
// with the administrator's link and with an e-mailed code, and signs in through OAuth2: none of
// those secrets may appear in it.

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { logger: pino({ level: "info" }, capture) });
});
afterAll(async () => {
  await ts.stop();
});

const json = { "content-type": "application/json", accept: "application/json" };

/** The path and query of a URL the server built for browsers (its public base URL differs). */
function onServer(link: string): string {
  const url = new URL(link);
  return `${ts.publicUrl}${url.pathname.replace(/^\/api\/kratos/, "")}${url.search}`;
}

describe("request logs", () => {
  it("hold no token, code, challenge, verifier, PKCE value, state or cookie of real flows", async () => {
    const secrets = new Map<string, string>();
    const email = "logged@example.com";

    // Verification from the e-mail's link (?code=&flow=).
    const { identityId } = await registerNative(ts, email);
    const [message] = await ts.messagesTo(email);
    const link = /https?:\/\/\S+\/self-service\/verification\?\S+/.exec(message?.body ?? "")?.[0];
    if (!link || !message?.code) throw new Error("no verification link was sent");
    secrets.set("verification code", message.code);
    const verified = await fetch(onServer(link), { redirect: "manual" });
    expect(verified.status).toBeLessThan(500);

    // Sign-in, then a browser logout with its token in the query (and the cookies sent along).
    const { browser } = await passwordSignIn(ts, email);
    for (const [name, value] of browser.jar.cookies) secrets.set(`cookie ${name}`, value);
    const logoutUrl = await call(`${ts.publicUrl}/self-service/logout/browser`, {
      jar: browser.jar,
      headers: json,
    });
    const { logout_token: logoutToken } = logoutUrl.body as { logout_token: string };
    secrets.set("logout token", logoutToken);
    const loggedOut = await call(`${ts.publicUrl}/self-service/logout?token=${logoutToken}`, {
      jar: browser.jar,
    });
    expect(loggedOut.status).toBe(303);

    // Recovery with the administrator's link (?flow=&token=).
    const adminLink = await call(`${ts.adminUrl}/admin/recovery/link`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ identity_id: identityId }),
    });
    const recoveryLink = (adminLink.body as { recovery_link: string }).recovery_link;
    secrets.set("recovery token", new URL(recoveryLink).searchParams.get("token") ?? "");
    const recovered = await fetch(onServer(recoveryLink), { redirect: "manual" });
    expect(recovered.status).toBe(303);

    // Recovery with an e-mailed code (the courier's log line once printed it).
    const jar = new CookieJar();
    const flow = await call(`${ts.publicUrl}/self-service/recovery/browser`, {
      jar,
      headers: json,
    });
    const flowId = (flow.body as { id: string }).id;
    const csrf = csrfTokenOf(flow.body as Parameters<typeof csrfTokenOf>[0]);
    const sent = await call(`${ts.publicUrl}/self-service/recovery?flow=${flowId}`, {
      method: "POST",
      jar,
      headers: json,
      body: JSON.stringify({ method: "code", email, csrf_token: csrf }),
    });
    expect(sent.status).toBe(200);
    const recoveryCode = await ts.latestCode(email);
    secrets.set("recovery code", recoveryCode);
    for (const [name, value] of jar.cookies) secrets.set(`cookie ${name}`, value);
    const used = await call(`${ts.publicUrl}/self-service/recovery?flow=${flowId}`, {
      method: "POST",
      jar,
      headers: json,
      body: JSON.stringify({ method: "code", code: recoveryCode, csrf_token: csrf }),
    });
    expect([200, 422]).toContain(used.status);

    // OAuth2: authorization request with PKCE and state, the login challenge read and accepted
    // through the admin API, the browser sent back with what the acceptance returned.
    const oauth2 = ts.server.oauth2;
    if (!oauth2) throw new Error("the OAuth2 service is not running");
    const created = await fetch(`${oauth2.adminUrl}/admin/clients`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        redirect_uris: ["http://127.0.0.1:5555/callback"],
        scope: "openid",
      }),
    });
    const { client_id: clientId } = (await created.json()) as { client_id: string };
    const { challenge: codeChallenge } = await pkce();
    const state = "state-value-that-is-secret-0123456789";
    secrets.set("code_challenge", codeChallenge);
    secrets.set("state", state);
    const oauth2Browser = new OAuth2Browser(oauth2.issuer);
    const authorization = new URL(`${oauth2.issuer}/oauth2/auth`);
    authorization.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: "http://127.0.0.1:5555/callback",
      response_type: "code",
      scope: "openid",
      state,
      code_challenge: codeChallenge,
      code_challenge_method: "S256",
    }).toString();
    const toLogin = await oauth2Browser.follow(authorization.href);
    const loginChallenge = new URL(toLogin.location ?? "").searchParams.get("login_challenge");
    if (!loginChallenge) throw new Error(`no login challenge: ${toLogin.location}`);
    secrets.set("login challenge", loginChallenge);
    const loginRequest = await fetch(
      `${oauth2.adminUrl}/admin/oauth2/auth/requests/login?login_challenge=${loginChallenge}`,
    );
    expect(loginRequest.status).toBe(200);
    const accepted = await fetch(
      `${oauth2.adminUrl}/admin/oauth2/auth/requests/login/accept?login_challenge=${loginChallenge}`,
      { method: "PUT", headers: json, body: JSON.stringify({ subject: identityId }) },
    );
    const { redirect_to: redirectTo } = (await accepted.json()) as { redirect_to: string };
    for (const value of new URL(redirectTo).searchParams.values()) {
      secrets.set("login verifier", value);
    }
    await oauth2Browser.follow(redirectTo);

    const log = lines.join("");
    // The log did record these requests, with the secrets replaced.
    expect(log).toContain("/self-service/logout?token=[redacted]");
    expect(log).toContain("/self-service/verification?code=[redacted]&flow=[redacted]");
    expect(log).toContain("login_challenge=[redacted]");
    for (const [what, value] of secrets) {
      expect(value.length, what).toBeGreaterThan(5);
      expect(log.includes(value), `${what} is in the log`).toBe(false);
      expect(log.includes(encodeURIComponent(value)), `${what} is in the log`).toBe(false);
    }
  }, 60_000);
});

describe("redactUrl", () => {
  it.each([
    [
      "/self-service/logout?token=abc&return_to=/x",
      "/self-service/logout?token=[redacted]&return_to=/x",
    ],
    [
      "/x?login_challenge=a&consent_verifier=b",
      "/x?login_challenge=[redacted]&consent_verifier=[redacted]",
    ],
    [
      "/x?code_challenge=a&code_verifier=b&refresh_token=c",
      "/x?code_challenge=[redacted]&code_verifier=[redacted]&refresh_token=[redacted]",
    ],
    ["/x?Flow=a&%74oken=b&aal=aal2", "/x?Flow=[redacted]&%74oken=[redacted]&aal=aal2"],
    ["/oauth2/auth/uid-123?x=1", "/oauth2/auth/[redacted]?x=1"],
    ["/self-service/login/browser?refresh=true", "/self-service/login/browser?refresh=true"],
    // Found by an independent attack: secrets inside a URL parameter, and api keys.
    [
      "/self-service/login/browser?return_to=http%3A%2F%2Fx%2F%3Ftoken%3DSECRET%26a%3D1",
      `/self-service/login/browser?return_to=${encodeURIComponent("http://x/?token=[redacted]&a=1")}`,
    ],
    [
      "/x?api_key=k&partner_key=p&return_to=/plain",
      "/x?api_key=[redacted]&partner_key=[redacted]&return_to=/plain",
    ],
  ])("%s → %s", (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
