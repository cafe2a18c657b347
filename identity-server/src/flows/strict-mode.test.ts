import type { LoginFlow, SettingsFlow, UiNode, UiText } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/config.ts";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { call } from "../test-support/http-client.ts";
import {
  completeTotp,
  linkTotp,
  passwordSignIn,
  submitLogin,
  verifyEmail,
  type Browser,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// IDENTITY_ORY_EXTENSIONS=false: the server answers as Kratos and Hydra would. Every addition of
// ours is off (README "Our additions and strict mode"); protections without an API stay on.

/** Every UI text of a flow: messages, node messages, labels, text nodes. */
function textsOf(flow: { ui: { messages?: UiText[]; nodes: UiNode[] } }): UiText[] {
  const texts: UiText[] = [...(flow.ui.messages ?? [])];
  for (const node of flow.ui.nodes) {
    texts.push(...node.messages);
    if (node.meta.label) texts.push(node.meta.label);
    const text = (node.attributes as { text?: UiText }).text;
    if (text) texts.push(text);
  }
  return texts;
}

function names(flow: { ui: { nodes: UiNode[] } }): string[] {
  return flow.ui.nodes.map(
    (node) =>
      (node.attributes as { name?: string; id?: string }).name ??
      (node.attributes as { id?: string }).id ??
      "",
  );
}

describe("IDENTITY_ORY_EXTENSIONS", () => {
  it("is validated at start-up and names itself", () => {
    expect(() => loadConfig({ IDENTITY_ORY_EXTENSIONS: "maybe" })).toThrow(
      /IDENTITY_ORY_EXTENSIONS: must be true or false/,
    );
    expect(loadConfig({}).oryExtensions).toBe(true);
    expect(loadConfig({ IDENTITY_ORY_EXTENSIONS: "false" }).oryExtensions).toBe(false);
  });

  it("turns codes as a second factor per address off with it", () => {
    const strict = loadConfig({ IDENTITY_ORY_EXTENSIONS: "false" });
    expect(strict.secondFactor.codeMfaEnabled).toBe(false);
    expect(strict.oauth2.oryExtensions).toBe(false);
  });

  it("refuses an admin token in strict mode rather than opening the admin APIs silently", () => {
    const env = { IDENTITY_ORY_EXTENSIONS: "false", IDENTITY_ADMIN_TOKEN: "a".repeat(32) };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/IDENTITY_ADMIN_TOKEN: .*IDENTITY_ORY_EXTENSIONS=true/);
  });
});

describe("strict mode (IDENTITY_ORY_EXTENSIONS=false)", () => {
  let ts: TestServer;
  const email = "strict@example.gov";
  let secret: string;
  let signedIn: Browser;

  beforeAll(async () => {
    ts = await startTestServer({
      IDENTITY_ORY_EXTENSIONS: "false",
      IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: "2",
    });
    await registerNative(ts, email);
    await verifyEmail(ts, email);
    ({ browser: signedIn } = await passwordSignIn(ts, email));
    secret = await linkTotp(ts, signedIn);
  }, 60_000);

  afterAll(async () => {
    await ts.stop();
  });

  it("offers no trust_device checkbox and sets no trusted-device cookie", async () => {
    const { browser } = await passwordSignIn(ts, email);
    const flow: LoginFlow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    expect(names(flow)).not.toContain("trust_device");
    // Asked anyway: accepted as Kratos would (an unknown field), and nothing is trusted. The next
    // step's code, as linking used this step's (each step is accepted once).
    const next = new Date(ts.now().getTime() + 30_000);
    const answer = await completeTotp(ts, browser, secret, { trust_device: true }, next);
    expect(answer.status).toBe(200);
    expect(browser.jar.cookies.has("ory_trusted_device")).toBe(false);
  });

  it("shows settings without trusted devices, the code group or any id of ours", async () => {
    const flow: SettingsFlow = await signedIn.api.createBrowserSettingsFlow();
    expect(flow.ui.nodes.map((node) => node.group)).not.toContain("code");
    expect(names(flow)).not.toContain("totp-trusted-devices");
    expect(names(flow)).not.toContain("totp_device_untrust");
    expect(names(flow)).toContain("totp_unlink");
    const ids = textsOf(flow).map((text) => text.id);
    expect(ids.filter((id) => id >= 9_000_000)).toEqual([]);
  });

  it("knows no totp_device_untrust submission (Kratos' 4010004)", async () => {
    const flow: SettingsFlow = await signedIn.api.createBrowserSettingsFlow();
    const answer = await call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
      method: "POST",
      jar: signedIn.jar,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ totp_device_untrust: "x", csrf_token: csrfTokenOf(flow) }),
    });
    expect(answer.status).toBe(400);
    const body = answer.body as SettingsFlow;
    expect(body.ui.messages?.map((message) => message.id)).toEqual([4010004]);
  });

  it("answers a rate-limited attempt as Ory Network does: 429, Retry-After, Ory's error JSON", async () => {
    const browser = ts.browser();
    const flow = await browser.api.createBrowserLoginFlow();
    const wrong = { method: "password", identifier: email, password: "Not-the-password-42" };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await submitLogin(ts, browser, flow, wrong)).status).toBe(400);
    }
    for (const accept of ["application/json", "text/html"]) {
      const answer = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
        method: "POST",
        jar: browser.jar,
        headers: { "content-type": "application/x-www-form-urlencoded", accept },
        body: new URLSearchParams({ ...wrong, csrf_token: csrfTokenOf(flow) }).toString(),
      });
      expect(answer.status, accept).toBe(429);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.body).toEqual({
        error: {
          code: 429,
          status: "Too Many Requests",
          message: "The request was rate limited. Please try again later.",
        },
      });
    }
    // Even the right password is refused while the limit holds; the flow shows no message of ours.
    const right = await submitLogin(ts, browser, flow, { ...wrong, password: strongPassword });
    expect(right.status).toBe(429);
    const stored = await browser.api.getLoginFlow({ id: flow.id });
    expect(textsOf(stored).map((text) => text.id)).not.toContain(9010007);
  });

  it("serves /version on the admin listeners only, and no tokenizer key set", async () => {
    expect((await fetch(`${ts.publicUrl}/version`)).status).toBe(404);
    expect((await fetch(`${ts.adminUrl}/version`)).status).toBe(200);
    const jwks = await fetch(`${ts.publicUrl}/.well-known/ory/session-tokenizer/jwks.json`);
    expect(jwks.status).toBe(404);
    const oauth2 = ts.server.oauth2;
    expect(oauth2).toBeDefined();
    expect((await fetch(`${oauth2?.publicUrl ?? ""}/version`)).status).toBe(404);
    expect((await fetch(`${oauth2?.adminUrl ?? ""}/version`)).status).toBe(200);
  });
});
