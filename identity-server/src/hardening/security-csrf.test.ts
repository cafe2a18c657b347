import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { passwordSignIn, type Browser } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// CSRF on every browser flow, for each way a forged request can look (kratos-behaviour §1.4):
// no cookie at all, a cookie of another browser, no token, a wrong token — as JSON (403) and as an
// HTML form post (303 to the error UI, which stores security_csrf_violation). The wrong-token JSON
// case per flow kind is in flows/flow-lifecycle.test.ts ("CSRF"), the login diagnosis texts in
// flows/login/login.test.ts and the stored HTML error of login in selfservice/errors.test.ts.

const kinds = ["login", "registration", "recovery", "verification", "settings"] as const;
type Kind = (typeof kinds)[number];

const email = "csrf-victim@example.com";
const json = { accept: "application/json" };

let ts: TestServer;
let victim: Browser;
let attacker: Browser;

beforeAll(async () => {
  ts = await startTestServer();
  await registerNative(ts, email);
  await registerNative(ts, "csrf-attacker@example.com");
  victim = (await passwordSignIn(ts, email)).browser;
  attacker = (await passwordSignIn(ts, "csrf-attacker@example.com")).browser;
});
afterAll(async () => {
  await ts.stop();
});

/** Complete bodies: Kratos validates the payload before it checks the token. */
function bodyFor(kind: Kind): Record<string, string> {
  switch (kind) {
    case "login":
      return { method: "password", identifier: email, password: strongPassword };
    case "registration":
      return {
        method: "password",
        password: strongPassword,
        "traits.email": "csrf-new@example.com",
      };
    case "settings":
      return { method: "profile", "traits.email": email };
    case "recovery":
    case "verification":
      return { method: "code", email };
  }
}

/** A fresh browser flow; settings run in a signed-in browser, the others in an anonymous one. */
async function browserFlow(kind: Kind): Promise<{ id: string; token: string; jar: CookieJar }> {
  const jar = new CookieJar();
  if (kind === "settings") {
    for (const [name, value] of victim.jar.cookies) jar.cookies.set(name, value);
  }
  const response = await call(`${ts.publicUrl}/self-service/${kind}/browser`, {
    jar,
    headers: json,
  });
  expect(response.status, kind).toBe(200);
  const flow = response.body as { id: string; ui: { nodes: never[] } };
  return { id: flow.id, token: csrfTokenOf(flow), jar };
}

function cookieHeader(jar: CookieJar, without?: (name: string) => boolean): string {
  return [...jar.cookies]
    .filter(([name]) => !without?.(name))
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
}

function postJson(kind: Kind, id: string, body: Record<string, string>, cookie: string) {
  const headers: Record<string, string> = { ...json, "content-type": "application/json" };
  if (cookie) headers.cookie = cookie;
  return call(`${ts.publicUrl}/self-service/${kind}?flow=${id}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

function expectCsrfViolation(response: TestResponse, label: string): void {
  expect(response.status, label).toBe(403);
  expect(response.body, label).toMatchObject({
    error: { id: "security_csrf_violation", code: 403 },
  });
}

describe("CSRF on every browser flow", () => {
  it("refuses a submission without any anti-CSRF cookie", async () => {
    for (const kind of kinds) {
      const { id, token, jar } = await browserFlow(kind);
      // Settings still send the session cookie; the others send no cookie at all.
      const cookie = cookieHeader(jar, (name) => name.startsWith("csrf_token_"));
      const response = await postJson(kind, id, { ...bodyFor(kind), csrf_token: token }, cookie);
      expectCsrfViolation(response, kind);
      expect(JSON.stringify(response.body), kind).toMatch(
        kind === "settings" ? /did not include the anti-CSRF cookie/ : /Cookie Header is empty/,
      );
    }
  });

  it("refuses the flow's own token sent with another browser's anti-CSRF cookie", async () => {
    for (const kind of kinds) {
      const { id, token, jar } = await browserFlow(kind);
      // The attacker's browser has a valid cookie of its own, just not the victim's.
      const foreign = attacker.jar.find("csrf_token_");
      expect(foreign, kind).toBeDefined();
      const own = jar.find("csrf_token_");
      expect(foreign?.value, kind).not.toBe(own?.value);
      const cookie = [
        cookieHeader(jar, (name) => name.startsWith("csrf_token_")),
        `${foreign?.name}=${foreign?.value}`,
      ]
        .filter(Boolean)
        .join("; ");
      const response = await postJson(kind, id, { ...bodyFor(kind), csrf_token: token }, cookie);
      expectCsrfViolation(response, kind);
    }
  });

  it("refuses a submission with the right cookie but no token or another browser's token", async () => {
    for (const kind of kinds) {
      const { id, jar } = await browserFlow(kind);
      const missing = await postJson(kind, id, bodyFor(kind), cookieHeader(jar));
      expectCsrfViolation(missing, `${kind} without token`);

      // A token that is valid for the attacker's cookie, submitted into the victim's flow.
      const other = await browserFlow(kind === "settings" ? "login" : kind);
      const crossed = await postJson(
        kind,
        id,
        { ...bodyFor(kind), csrf_token: other.token },
        cookieHeader(jar),
      );
      expectCsrfViolation(crossed, `${kind} with a foreign token`);
    }
  });

  it("sends an HTML form post with a wrong token to the error UI, which holds the CSRF error", async () => {
    for (const kind of kinds) {
      const { id, jar } = await browserFlow(kind);
      const post = await call(`${ts.publicUrl}/self-service/${kind}?flow=${id}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: cookieHeader(jar),
        },
        body: new URLSearchParams({ ...bodyFor(kind), csrf_token: "forged" }),
      });
      expect(post.status, kind).toBe(303);
      const location = new URL(post.headers.get("location") ?? "");
      expect(location.origin + location.pathname, kind).toBe("http://localhost:3000/error");
      const stored = await ts
        .browser()
        .api.getFlowError({ id: location.searchParams.get("id") ?? "" });
      expect(stored.error, kind).toMatchObject({ id: "security_csrf_violation", code: 403 });
    }
  });

  it("changes nothing when a forged settings submission is refused", async () => {
    const { id, jar } = await browserFlow("settings");
    const forged = await postJson(
      "settings",
      id,
      { method: "profile", "traits.email": "hijacked@example.com", csrf_token: "forged" },
      cookieHeader(jar),
    );
    expectCsrfViolation(forged, "settings");
    const me = await call(`${ts.publicUrl}/sessions/whoami`, { jar: victim.jar, headers: json });
    expect(me.body).toMatchObject({ identity: { traits: { email } } });
  });
});

describe("CSRF on logout (the logout token is the anti-CSRF token)", () => {
  it("refuses a missing, a wrong and another session's logout token, and the session survives", async () => {
    const browser = (await passwordSignIn(ts, email)).browser;
    const attackerToken = (await attacker.api.createBrowserLogoutFlow()).logout_token;
    for (const token of ["", "ory_lo_wrong", attackerToken]) {
      const response = await call(
        `${ts.publicUrl}/self-service/logout?token=${encodeURIComponent(token)}`,
        { jar: browser.jar, headers: json },
      );
      expect(response.status, token).toBe(token === "" ? 400 : 403);
      const me = await call(`${ts.publicUrl}/sessions/whoami`, { jar: browser.jar });
      expect(me.status, token).toBe(200);
    }
    // The attacker's own session was not signed out by its token being used elsewhere either.
    const attackerMe = await call(`${ts.publicUrl}/sessions/whoami`, { jar: attacker.jar });
    expect(attackerMe.status).toBe(200);
  });

  it("sends a browser with a wrong logout token to the error UI", async () => {
    const browser = (await passwordSignIn(ts, email)).browser;
    const response = await call(`${ts.publicUrl}/self-service/logout?token=ory_lo_wrong`, {
      jar: browser.jar,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/error\?id=/);
    const me = await call(`${ts.publicUrl}/sessions/whoami`, { jar: browser.jar });
    expect(me.status).toBe(200);
  });
});
