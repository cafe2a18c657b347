import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { passwordSignIn, type Browser } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { routesListeningOn } from "./route-registry.ts";

// Answers of the identity listeners carry sessions, session tokens, flows (with their CSRF token),
// TOTP secrets, backup codes, logout tokens and recovery codes: none may be stored by a cache, and
// none may be sniffed into another type. Real answers with each kind of secret, then every route
// each listener has.

let ts: TestServer;
let browser: Browser;
let identityId: string;
const email = "headers@example.com";

beforeAll(async () => {
  ts = await startTestServer();
  ({ identityId } = await registerNative(ts, email));
  ({ browser } = await passwordSignIn(ts, email));
});
afterAll(async () => {
  await ts.stop();
});

function expectHardening(headers: Headers, what: string): void {
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("permissions-policy"), what).toMatch(/(^|,\s*)camera=\(\)/);
}

function expectNoStoreAndHardening(headers: Headers, what: string): void {
  expect(headers.get("cache-control"), what).toMatch(/(^|,\s*)no-store(\s*,|$)/);
  expect(headers.get("pragma"), what).toBe("no-cache");
  expectHardening(headers, what);
}

// Public keys carry no secret and are meant to be cached by those who verify session JWTs.
const cacheableDocuments = new Set(["/.well-known/ory/session-tokenizer/jwks.json"]);

const json = { "content-type": "application/json", accept: "application/json" };

/** One real answer per kind of secret: what it is, the call, and the secret it must carry. */
const secretAnswers: [string, () => Promise<{ headers: Headers; text: string }>, RegExp][] = [
  [
    "native registration (session token)",
    () =>
      call(`${ts.publicUrl}/self-service/registration/api`, { headers: json }).then((flow) =>
        call(`${ts.publicUrl}/self-service/registration?flow=${(flow.body as { id: string }).id}`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({
            method: "password",
            password: strongPassword,
            traits: { email: "second@example.com" },
          }),
        }),
      ),
    /"session_token":"[^"]+"/,
  ],
  [
    "browser password login (session cookie)",
    async () => (await passwordSignIn(ts, email)).answer,
    /"session":\{/,
  ],
  [
    "whoami (session)",
    () => call(`${ts.publicUrl}/sessions/whoami`, { jar: browser.jar, headers: json }),
    /"identity":\{/,
  ],
  [
    "the session list",
    () => call(`${ts.publicUrl}/sessions`, { jar: browser.jar, headers: json }),
    /"authenticated_at"/,
  ],
  [
    "a settings flow (TOTP secret)",
    () =>
      call(`${ts.publicUrl}/self-service/settings/browser`, { jar: browser.jar, headers: json }),
    /"totp_secret_key"/,
  ],
  [
    "regenerated backup codes",
    async () => {
      const flow = await browser.api.createBrowserSettingsFlow();
      return call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
        method: "POST",
        jar: browser.jar,
        headers: json,
        body: JSON.stringify({
          method: "lookup_secret",
          lookup_secret_regenerate: true,
          csrf_token: csrfTokenOf(flow),
        }),
      });
    },
    /"lookup_secret_codes"/,
  ],
  [
    "a logout URL (logout token)",
    () => call(`${ts.publicUrl}/self-service/logout/browser`, { jar: browser.jar, headers: json }),
    /"logout_token":"[^"]+"/,
  ],
  [
    "a recovery flow (CSRF token)",
    () => call(`${ts.publicUrl}/self-service/recovery/browser`, { headers: json }),
    /"csrf_token"/,
  ],
  [
    "an admin recovery code",
    () =>
      call(`${ts.adminUrl}/admin/recovery/code`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ identity_id: identityId }),
      }),
    /"recovery_code":"[^"]+"/,
  ],
  [
    "an admin session list",
    () => call(`${ts.adminUrl}/admin/identities/${identityId}/sessions`, { headers: json }),
    /"authenticator_assurance_level"/,
  ],
  [
    "the mailbox's messages (codes)",
    async () => {
      const response = await fetch(`${ts.mailboxUrl}/messages.json`);
      return { headers: response.headers, text: await response.text() };
    },
    /"code":"\d+"/,
  ],
];

describe("identity answers that carry secrets", () => {
  it.each(secretAnswers)(
    "%s: Cache-Control no-store, Pragma no-cache, nosniff, Permissions-Policy",
    async (what, request, secret) => {
      const answer = await request();
      // The answer really holds the secret the row is about.
      expect(answer.text, what).toMatch(secret);
      expectNoStoreAndHardening(answer.headers, what);
    },
    30_000,
  );
});

/** A request to a route pattern, with a made-up value in every path parameter. */
function requestFor(base: string, method: string, url: string): Promise<Response> {
  const path = url.replace(/:[^/]+/g, "00000000-0000-4000-8000-000000000000");
  const withBody = method === "POST" || method === "PUT" || method === "PATCH";
  return fetch(`${base}${path}`, {
    method,
    redirect: "manual",
    headers: withBody ? { "content-type": "application/json" } : {},
    body: withBody ? "{}" : undefined,
  });
}

describe("every route of every identity listener", () => {
  it.each([
    ["public", () => ts.publicUrl],
    ["admin", () => ts.adminUrl],
    ["mailbox", () => ts.mailboxUrl],
  ])(
    "the %s listener: every route, answered or refused, is uncacheable and hardened",
    async (_name, baseOf) => {
      const base = baseOf();
      const routes = routesListeningOn(Number(new URL(base).port)) ?? [];
      expect(routes.length).toBeGreaterThan(1);
      for (const route of routes) {
        if (route.method === "HEAD" || route.method === "OPTIONS") continue;
        const response = await requestFor(base, route.method, route.url);
        await response.body?.cancel();
        const what = `${route.method} ${route.url}`;
        if (cacheableDocuments.has(route.url)) expectHardening(response.headers, what);
        else expectNoStoreAndHardening(response.headers, what);
      }
      // Unknown paths and refused methods (404 / 405) too.
      const unknown = await fetch(`${base}/no-such-route`);
      await unknown.body?.cancel();
      expectNoStoreAndHardening(unknown.headers, "404");
    },
    60_000,
  );
});
