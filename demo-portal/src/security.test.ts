import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemoPortal } from "./app.ts";
import { loadDemoConfig } from "./config.ts";
import { DemoBrowser } from "./test-support/demo-browser.ts";
import {
  clientSecret,
  demoPublicUrl,
  startIdentityStack,
  type IdentityStack,
} from "./test-support/identity-stack.ts";
import { IssuerBrowser } from "./test-support/issuer-browser.ts";

// The demo's security headers on every route (signed in or not), and its request log, captured at
// `info`, after a real sign-in and sign-out: the callback's code and state, the session cookie and
// the ID token sent along to end the session must not be in it.

const portalUrl = "http://localhost:3000";
const lines: string[] = [];
let stack: IdentityStack;
let demo: FastifyInstance;

beforeAll(async () => {
  stack = await startIdentityStack();
  demo = buildDemoPortal(
    loadDemoConfig({
      DEMO_PUBLIC_URL: demoPublicUrl,
      PORTAL_PUBLIC_URL: portalUrl,
      DEMO_OIDC_ISSUER: stack.issuer,
      DEMO_OIDC_CLIENT_SECRET: clientSecret,
      LOG_LEVEL: "info",
    }),
    undefined,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
});

afterAll(async () => {
  await demo?.close();
  await stack?.stop();
});

function challengeIn(location: string | undefined, kind: "login" | "consent"): string {
  const value = location ? new URL(location).searchParams.get(`${kind}_challenge`) : null;
  if (!value) throw new Error(`expected a redirect with ${kind}_challenge, got ${location}`);
  return value;
}

async function accept(kind: "login" | "consent", challenge: string, body: unknown) {
  const answer = await stack.admin(
    "PUT",
    `/admin/oauth2/auth/requests/${kind}/accept?${kind}_challenge=${encodeURIComponent(challenge)}`,
    body,
  );
  if (answer.status !== 200) throw new Error(`${kind}: ${JSON.stringify(answer.body)}`);
  return String(answer.body.redirect_to);
}

/** A whole sign-in; returns the callback's path and query as the OAuth2 service sent it. */
async function signIn(browser: DemoBrowser): Promise<string> {
  const issuer = new IssuerBrowser(stack.issuer);
  const start = await browser.get("/auth/login?return_to=/agency-selection");
  const toLogin = await issuer.follow(String(start.headers.location));
  const afterLogin = await accept("login", challengeIn(toLogin.location, "login"), {
    subject: "identity-logged",
  });
  const toConsent = await issuer.follow(afterLogin);
  const afterConsent = await accept("consent", challengeIn(toConsent.location, "consent"), {
    grant_scope: ["openid", "offline_access", "email", "profile"],
  });
  const back = new URL((await issuer.follow(afterConsent)).location ?? "");
  expect(`${back.origin}${back.pathname}`).toBe(`${demoPublicUrl}/auth/callback`);
  const callback = `${back.pathname}${back.search}`;
  expect((await browser.get(callback)).statusCode).toBe(303);
  return callback;
}

function directives(csp: string | string[] | number | undefined): Map<string, string[]> {
  return new Map(
    (typeof csp === "string" ? csp : "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = "", ...values]) => [name, values]),
  );
}

describe("demo security headers", () => {
  it("every page and answer: strict CSP, no framing, nosniff, Permissions-Policy, no-store", async () => {
    const browser = new DemoBrowser(demo);
    const anonymous = [
      ["GET", "/"],
      ["GET", "/agency-selection"],
      ["GET", "/auth/login?return_to=/agency-selection"],
      ["GET", "/auth/callback?code=x&state=y"],
      ["POST", "/auth/logout"],
      ["GET", "/health/alive"],
      ["GET", "/no-such-page"],
    ] as const;
    const answers = [];
    for (const [method, url] of anonymous) {
      answers.push({ what: `${method} ${url}`, response: await demo.inject({ method, url }) });
    }
    await signIn(browser);
    answers.push({
      what: "signed-in agency selection",
      response: await browser.get("/agency-selection"),
    });
    answers.push({ what: "signed-in home", response: await browser.get("/") });

    for (const { what, response } of answers) {
      const { headers } = response;
      const csp = directives(headers["content-security-policy"]);
      expect(csp.get("default-src"), what).toEqual(["'none'"]);
      expect(csp.get("frame-ancestors"), what).toEqual(["'none'"]);
      expect(csp.get("base-uri"), what).toEqual(["'none'"]);
      expect(csp.has("script-src"), what).toBe(false);
      expect(new Set(csp.get("form-action")), what).toEqual(
        new Set(["'self'", new URL(stack.issuer).origin, portalUrl]),
      );
      expect(headers["x-content-type-options"], what).toBe("nosniff");
      expect(headers["x-frame-options"], what).toBe("DENY");
      expect(headers["permissions-policy"], what).toMatch(/(^|,\s*)camera=\(\)/);
      expect(headers["cache-control"], what).toBe("no-store");
      expect(headers.pragma, what).toBe("no-cache");
      // The page's stylesheet is the one the policy allows by hash (so the page is not unstyled).
      const style = /<style>([\s\S]*?)<\/style>/.exec(response.body)?.[1];
      if (style !== undefined) {
        const hash = createHash("sha256").update(style).digest("base64");
        expect(csp.get("style-src"), what).toEqual([`'sha256-${hash}'`]);
      }
    }
    expect(answers.filter((a) => a.response.body.includes("<style>")).length).toBeGreaterThan(3);
  }, 60_000);
});

describe("demo request log", () => {
  it("holds neither the callback's code and state nor the session cookie or ID token", async () => {
    const browser = new DemoBrowser(demo);
    const callback = await signIn(browser);
    const query = new URLSearchParams(callback.split("?")[1]);
    const secrets = new Map([
      ["code", query.get("code") ?? ""],
      ["state", query.get("state") ?? ""],
      ["session cookie", browser.cookies.get("demo_session") ?? ""],
    ]);
    const page = await browser.get("/agency-selection");
    const token = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1] ?? "";
    secrets.set("sign-out form token", token);
    const signedOut = await browser.post(
      "/auth/logout",
      { csrf_token: token },
      { origin: demoPublicUrl },
    );
    expect(signedOut.statusCode).toBe(303);
    const endSession = new URL(String(signedOut.headers.location));
    secrets.set("id_token_hint", endSession.searchParams.get("id_token_hint") ?? "");

    const log = lines.join("");
    expect(log).toContain("/auth/callback?code=[redacted]&");
    expect(log).toContain("state=[redacted]");
    for (const [what, value] of secrets) {
      expect(value.length, what).toBeGreaterThan(10);
      expect(log.includes(value), `${what} is in the log`).toBe(false);
    }
  }, 60_000);
});
