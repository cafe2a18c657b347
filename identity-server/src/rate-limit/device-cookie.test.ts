import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import {
  csrfTokenOf,
  messageIds,
  registerNative,
  strongPassword,
} from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { deviceCookieName } from "./device-cookie.ts";

// Issue 12 §4: ten wrong passwords from anywhere locked the real owner out for 15 minutes. A
// browser that signed in to the account before keeps its own budget (OWASP "device cookies").

const wrong = "not-the-password-1";

/** One password attempt through a browser login flow, as an SPA (JSON) sends it. */
async function browserAttempt(
  ts: TestServer,
  jar: CookieJar,
  identifier: string,
  password: string,
  ip?: string,
): Promise<TestResponse> {
  const created = await call(`${ts.publicUrl}/self-service/login/browser`, {
    jar,
    headers: { accept: "application/json" },
  });
  expect(created.status).toBe(200);
  const flow = created.body as { id: string; ui: { nodes: never[] } };
  return call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "POST",
    jar,
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(ip ? { "x-forwarded-for": ip } : {}),
    },
    body: JSON.stringify({
      method: "password",
      identifier,
      password,
      csrf_token: csrfTokenOf(flow),
    }),
  });
}

function messageIdsOf(answer: TestResponse): number[] {
  return messageIds(answer.body as never, "");
}

/** A browser that signed in once and whose session has ended since (the device cookie stays). */
async function knownBrowser(ts: TestServer, email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  expect((await browserAttempt(ts, jar, email, strongPassword)).status).toBe(200);
  expect(jar.get(deviceCookieName)).toBeDefined();
  jar.cookies.delete("ory_kratos_session");
  return jar;
}

/** Wrong passwords from fresh browsers at changing addresses: an attacker elsewhere. */
async function strangersTry(ts: TestServer, email: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const answer = await browserAttempt(ts, new CookieJar(), email, wrong, `198.51.100.${i + 1}`);
    expect(messageIdsOf(answer)).toEqual([4000006]);
  }
}

describe("device cookies against lockout", () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({}, undefined, { freezeClock: true });
  });
  afterAll(async () => {
    await ts.stop();
  });

  it("lets the owner's known browser sign in while strangers have locked the account for unknown browsers", async () => {
    await registerNative(ts, "owner@example.com");
    const owner = await knownBrowser(ts, "owner@example.com");
    await strangersTry(ts, "owner@example.com", 10);

    const unknown = await browserAttempt(ts, new CookieJar(), "owner@example.com", strongPassword);
    expect(unknown.status).toBe(400);
    expect(messageIdsOf(unknown)).toEqual([9010007]);

    const known = await browserAttempt(ts, owner, "owner@example.com", strongPassword);
    expect(known.status).toBe(200);
    // The owner's sign-in does not hand the strangers a fresh budget.
    const again = await browserAttempt(ts, new CookieJar(), "owner@example.com", strongPassword);
    expect(messageIdsOf(again)).toEqual([9010007]);
  });

  it("gives a known browser a budget of its own: its wrong passwords lock only itself", async () => {
    await registerNative(ts, "typo@example.com");
    const browser = await knownBrowser(ts, "typo@example.com");
    for (let i = 0; i < 10; i++) {
      expect(messageIdsOf(await browserAttempt(ts, browser, "typo@example.com", wrong))).toEqual([
        4000006,
      ]);
    }
    const limited = await browserAttempt(ts, browser, "typo@example.com", strongPassword);
    expect(messageIdsOf(limited)).toEqual([9010007]);
    // The account's budget for unknown browsers was not touched.
    const other = await browserAttempt(ts, new CookieJar(), "typo@example.com", strongPassword);
    expect(other.status).toBe(200);
  });

  it("treats a forged cookie, or one for another account, as an unknown browser", async () => {
    await registerNative(ts, "target@example.com");
    await registerNative(ts, "mallory@example.com");
    const real = await knownBrowser(ts, "target@example.com");
    const mallory = await knownBrowser(ts, "mallory@example.com");
    await strangersTry(ts, "target@example.com", 10);

    // Mallory's own valid cookie names her account, not the target's.
    const foreign = await browserAttempt(ts, mallory, "target@example.com", strongPassword);
    expect(messageIdsOf(foreign)).toEqual([9010007]);

    // The target's entry with one character of its signature changed.
    const value = real.get(deviceCookieName) ?? "";
    const forged = new CookieJar();
    forged.cookies.set(deviceCookieName, value.slice(0, -1) + (value.endsWith("A") ? "B" : "A"));
    const answer = await browserAttempt(ts, forged, "target@example.com", strongPassword);
    expect(messageIdsOf(answer)).toEqual([9010007]);
  });

  it("keeps one entry per account for a shared browser, each with its own budget", async () => {
    await registerNative(ts, "first@example.com");
    await registerNative(ts, "second@example.com");
    const shared = await knownBrowser(ts, "first@example.com");
    expect((await browserAttempt(ts, shared, "second@example.com", strongPassword)).status).toBe(
      200,
    );
    shared.cookies.delete("ory_kratos_session");
    await strangersTry(ts, "first@example.com", 10);
    await strangersTry(ts, "second@example.com", 10);
    expect((await browserAttempt(ts, shared, "first@example.com", strongPassword)).status).toBe(
      200,
    );
    shared.cookies.delete("ory_kratos_session");
    expect((await browserAttempt(ts, shared, "second@example.com", strongPassword)).status).toBe(
      200,
    );
  });

  it("shares one device budget among all the account's known browsers", async () => {
    await registerNative(ts, "jars@example.com");
    // Before the fix every fresh cookie jar got a budget of its own (second attack round, issue 12).
    const jars = [];
    for (let i = 0; i < 3; i++) jars.push(await knownBrowser(ts, "jars@example.com"));
    for (let i = 0; i < 10; i++) {
      const jar = jars[i % 2] ?? new CookieJar();
      expect(messageIdsOf(await browserAttempt(ts, jar, "jars@example.com", wrong))).toEqual([
        4000006,
      ]);
    }
    const third = await browserAttempt(ts, jars[2] ?? new CookieJar(), "jars@example.com", wrong);
    expect(messageIdsOf(third)).toEqual([9010007]);
    // Unknown browsers still have the account's own budget.
    const other = await browserAttempt(ts, new CookieJar(), "jars@example.com", strongPassword);
    expect(other.status).toBe(200);
  });

  it("stops recognising a browser once the password has changed", async () => {
    const { identityId } = await registerNative(ts, "changed@example.com");
    const old = [];
    for (let i = 0; i < 5; i++) old.push(await knownBrowser(ts, "changed@example.com"));
    const newPassword = "another-Lamp-river-7-quartz";
    const put = await call(`${ts.adminUrl}/admin/identities/${identityId}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        schema_id: "default",
        state: "active",
        traits: { email: "changed@example.com" },
        credentials: { password: { config: { password: newPassword } } },
      }),
    });
    expect(put.status).toBe(200);
    const revoked = await call(`${ts.adminUrl}/admin/identities/${identityId}/sessions`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);

    // The old entries count as unknown browsers: their guesses share the identifier's budget.
    let limited = 0;
    for (const jar of old) {
      for (let i = 0; i < 3; i++) {
        const answer = await browserAttempt(ts, jar, "changed@example.com", wrong, "203.0.113.9");
        if (messageIdsOf(answer).includes(9010007)) limited++;
      }
    }
    expect(limited).toBe(5);
    // A browser with an old entry signing in with the new password (once the identifier's window
    // has passed) gets a valid entry again.
    const renewed = old[0] ?? new CookieJar();
    ts.advanceClock(16 * 60_000);
    expect((await browserAttempt(ts, renewed, "changed@example.com", newPassword)).status).toBe(
      200,
    );
    renewed.cookies.delete("ory_kratos_session");
    await strangersTry(ts, "changed@example.com", 10);
    expect((await browserAttempt(ts, renewed, "changed@example.com", newPassword)).status).toBe(
      200,
    );
  });

  it("issues the cookie HttpOnly, SameSite=Lax, for a year, to browsers only", async () => {
    await registerNative(ts, "flags@example.com");
    const answer = await browserAttempt(ts, new CookieJar(), "flags@example.com", strongPassword);
    const line = answer.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith(`${deviceCookieName}=`));
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Max-Age=31536000/);

    const native = ts.native();
    const flow = await native.createNativeLoginFlow();
    const api = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        method: "password",
        identifier: "flags@example.com",
        password: strongPassword,
      }),
    });
    expect(api.status).toBe(200);
    expect(api.headers.getSetCookie()).toEqual([]);
  });
});
