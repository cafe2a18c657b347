import type { LoginFlow, SettingsFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import {
  csrfTokenOf,
  messageIds,
  registerNative,
  strongPassword,
} from "../test-support/flow-helpers.ts";
import {
  passwordSignIn,
  submitLogin,
  verifyEmail,
  type Browser,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { deviceCookieName } from "./device-cookie.ts";

// The independent attack on issue 12: five recovery requests from anywhere used up the address's
// code budget, and the owner could then get no recovery, verification or sign-in code for 15
// minutes. The account's own browser (device cookie) or session now has a budget of its own.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

const json = { "content-type": "application/json", accept: "application/json" };
let stranger = 0;

/** A stranger's request through a fresh API flow, each from an address of its own. */
async function strangerAsks(kind: "recovery" | "verification", address: string) {
  const api = ts.native();
  const flow =
    kind === "recovery"
      ? await api.createNativeRecoveryFlow()
      : await api.createNativeVerificationFlow();
  stranger += 1;
  return call(`${ts.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
    method: "POST",
    headers: { ...json, "x-forwarded-for": `203.0.113.${stranger}` },
    body: JSON.stringify({ method: "code", email: address }),
  });
}

/** A browser flow (JSON, as an SPA or the portal sends it) asking for a code to the address. */
async function browserAsks(kind: "recovery" | "verification", jar: CookieJar, address: string) {
  const created = await call(`${ts.publicUrl}/self-service/${kind}/browser`, {
    jar,
    headers: { accept: "application/json" },
  });
  expect(created.status).toBe(200);
  const flow = created.body as { id: string; ui: { nodes: never[] } };
  return call(`${ts.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
    method: "POST",
    jar,
    headers: json,
    body: JSON.stringify({ method: "code", email: address, csrf_token: csrfTokenOf(flow) }),
  });
}

function ids(answer: TestResponse): number[] {
  return messageIds(answer.body as never, "");
}

/** Strangers ask for codes to the address until its budget is used up (and show that it is). */
async function strangersUseUp(address: string): Promise<void> {
  for (let i = 0; i < 5; i++) await strangerAsks("recovery", address);
  const refused = await strangerAsks("recovery", address);
  expect(refused.status).toBe(400);
  expect(ids(refused)).toEqual([9010008]);
}

/** A browser that signed in with the password once; its session has ended since. */
async function knownBrowser(email: string): Promise<CookieJar> {
  const { browser, answer } = await passwordSignIn(ts, email);
  expect(answer.status).toBe(200);
  expect(browser.jar.get(deviceCookieName)).toBeDefined();
  browser.jar.cookies.delete("ory_kratos_session");
  return browser.jar;
}

async function templatesTo(address: string): Promise<string[]> {
  return (await ts.messagesTo(address)).map((m) => m.template_type);
}

describe("the owner's own code budget", () => {
  it("sends the owner's known browser recovery and verification codes while strangers have used up the address", async () => {
    await registerNative(ts, "owner@example.org");
    const owner = await knownBrowser("owner@example.org");
    await strangersUseUp("owner@example.org");
    const before = (await templatesTo("owner@example.org")).length;

    const recovery = await browserAsks("recovery", owner, "owner@example.org");
    expect(recovery.status).toBe(200);
    expect(ids(recovery)).toEqual([1060003]);
    const verification = await browserAsks("verification", owner, "Owner@Example.org");
    expect(verification.status).toBe(200);
    const sent = await templatesTo("owner@example.org");
    expect(sent.length).toBe(before + 2);
    expect(sent.slice(0, 2)).toEqual(["verification_code_valid", "recovery_code_valid"]);

    // Another browser without the cookie shares the strangers' budget, still used up.
    const elsewhere = await browserAsks("recovery", new CookieJar(), "owner@example.org");
    expect(elsewhere.status).toBe(400);
    expect(ids(elsewhere)).toEqual([9010008]);
    expect((await strangerAsks("verification", "owner@example.org")).status).toBe(400);
  });

  it("limits the known browser by its own budget (5 per 15 minutes by default)", async () => {
    await registerNative(ts, "eager@example.org");
    const owner = await knownBrowser("eager@example.org");
    for (let i = 0; i < 5; i++) {
      expect((await browserAsks("recovery", owner, "eager@example.org")).status).toBe(200);
    }
    const refused = await browserAsks("recovery", owner, "eager@example.org");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("retry-after")).toBe("900");
    expect(ids(refused)).toEqual([9010008]);
    // The address's budget for everybody else was not touched by the owner's sends (the
    // registration's verification code is its only send).
    for (let i = 0; i < 4; i++) {
      expect((await strangerAsks("recovery", "eager@example.org")).status).toBe(200);
    }
    expect((await strangerAsks("recovery", "eager@example.org")).status).toBe(400);
  });

  it("treats a forged cookie, or one naming another account, as a stranger", async () => {
    await registerNative(ts, "target@example.org");
    await registerNative(ts, "mallory@example.org");
    const real = await knownBrowser("target@example.org");
    const mallory = await knownBrowser("mallory@example.org");
    await strangersUseUp("target@example.org");

    expect(ids(await browserAsks("recovery", mallory, "target@example.org"))).toEqual([9010008]);
    const value = real.get(deviceCookieName) ?? "";
    const forged = new CookieJar();
    forged.cookies.set(deviceCookieName, value.slice(0, -1) + (value.endsWith("A") ? "B" : "A"));
    expect(ids(await browserAsks("recovery", forged, "target@example.org"))).toEqual([9010008]);
  });
});

describe("second-factor sign-in codes after the password", () => {
  async function withCodeMfa(email: string): Promise<void> {
    await registerNative(ts, email);
    await verifyEmail(ts, email);
    const { browser } = await passwordSignIn(ts, email);
    const settings: SettingsFlow = await browser.api.createBrowserSettingsFlow();
    await browser.api.updateSettingsFlow({
      flow: settings.id,
      updateSettingsFlowBody: {
        method: "code",
        code_mfa_enable: email,
        csrf_token: csrfTokenOf(settings),
      } as never,
    });
  }

  it("sends the code to a browser that just proved the password, in a new browser too", async () => {
    await withCodeMfa("mfa-browser@example.org");
    await strangersUseUp("mfa-browser@example.org");
    const browser: Browser = ts.browser();
    const { answer } = await passwordSignIn(ts, "mfa-browser@example.org", browser);
    expect(answer.status).toBe(422);
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    const sent = await submitLogin(ts, browser, flow, {
      method: "code",
      address: "mfa-browser@example.org",
    });
    expect(messageIds(sent.body as LoginFlow, "")).toEqual([1010025]);
    expect((await templatesTo("mfa-browser@example.org"))[0]).toBe("login_code_valid");
  });

  it("sends the code to an API client holding the aal1 session (its own budget)", async () => {
    await withCodeMfa("mfa-api@example.org");
    await strangersUseUp("mfa-api@example.org");
    const api = ts.native();
    const login = await api.createNativeLoginFlow();
    const signedIn = await call(`${ts.publicUrl}/self-service/login?flow=${login.id}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        method: "password",
        identifier: "mfa-api@example.org",
        password: strongPassword,
      }),
    });
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body as { session_token: string }).session_token;
    const aal2 = await api.createNativeLoginFlow({ aal: "aal2", xSessionToken: token });
    const send = () =>
      call(`${ts.publicUrl}/self-service/login?flow=${aal2.id}`, {
        method: "POST",
        headers: { ...json, "x-session-token": token },
        body: JSON.stringify({ method: "code", address: "mfa-api@example.org", resend: "code" }),
      });
    expect(ids(await send())).toEqual([1010025]);
    for (let i = 0; i < 4; i++) expect(ids(await send())).toEqual([1010025]);
    // The session's own budget is used up now.
    expect(ids(await send())).toEqual([9010008]);
  });
});
