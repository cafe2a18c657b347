import type { LoginFlow, Session, SettingsFlow, UiNode } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type TestResponse } from "../../test-support/http-client.ts";
import {
  csrfTokenOf,
  inputAttributes,
  messageIds,
  registerNative,
} from "../../test-support/flow-helpers.ts";
import {
  nodesOfGroups,
  passwordSignIn,
  type Browser,
} from "../../test-support/second-factor-helpers.ts";
import { SoftwareAuthenticator } from "../../test-support/software-authenticator.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// IDENTITY_WEBAUTHN_PASSWORDLESS=true: security keys are a first factor (Kratos'
// selfservice.methods.webauthn.config.passwordless).

const portalOrigin = "http://localhost:3000";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_WEBAUTHN_PASSWORDLESS: "true" }, undefined, {
    freezeClock: true,
  });
});
afterAll(async () => {
  await ts.stop();
});

function triggerOptions(flow: { ui: { nodes: UiNode[] } }, name: string): never {
  const value: unknown = inputAttributes(flow, name)?.value;
  if (typeof value !== "string") throw new Error(`no ${name} node`);
  return JSON.parse(value) as never;
}

async function post(
  browser: Browser,
  path: string,
  flow: SettingsFlow | LoginFlow,
  body: Record<string, unknown>,
): Promise<TestResponse> {
  return call(`${ts.publicUrl}/self-service/${path}?flow=${flow.id}`, {
    method: "POST",
    jar: browser.jar,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ csrf_token: csrfTokenOf(flow), ...body }),
  });
}

/** An identity (with a password) that added a passwordless key in settings. */
async function withPasswordlessKey(email: string) {
  const { identityId } = await registerNative(ts, email);
  const { browser } = await passwordSignIn(ts, email);
  const authenticator = new SoftwareAuthenticator(portalOrigin);
  const flow = await browser.api.createBrowserSettingsFlow();
  const added = await post(browser, "settings", flow, {
    method: "webauthn",
    webauthn_register_displayname: "Desk key",
    webauthn_register: JSON.stringify(
      authenticator.register(triggerOptions(flow, "webauthn_register_trigger")),
    ),
  });
  expect(added.status).toBe(200);
  return { identityId, browser, authenticator, settings: added.body as SettingsFlow };
}

describe("passwordless security keys (IDENTITY_WEBAUTHN_PASSWORDLESS=true)", () => {
  it("are added as first factors: is_passwordless, webauthn at aal1, never offered as a second factor", async () => {
    const { identityId, browser, settings } = await withPasswordlessKey("pl-add@example.com");
    const identity = await ts.admin().getIdentity({
      id: identityId,
      includeCredential: ["webauthn"],
    });
    const config = identity.credentials?.webauthn?.config as {
      credentials: { is_passwordless: boolean }[];
    };
    expect(config.credentials.map((c) => c.is_passwordless)).toEqual([true]);
    const session = (
      await call(`${ts.publicUrl}/sessions/whoami`, {
        jar: browser.jar,
        headers: { accept: "application/json" },
      })
    ).body as Session;
    expect(session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["password", "aal1"],
      ["webauthn", "aal1"],
    ]);
    // The password remains, so the key may go.
    expect(inputAttributes(settings, "webauthn_remove")?.disabled).toBe(false);
    // A password sign-in is complete: a passwordless key is no second factor.
    const { browser: next } = await passwordSignIn(ts, "pl-add@example.com");
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, {
      jar: next.jar,
      headers: { accept: "application/json" },
    });
    expect(whoami.status).toBe(200);
  });

  it("signs in without a password: identifier, then the key (Kratos' two steps), aal1", async () => {
    const { authenticator } = await withPasswordlessKey("pl-login@example.com");
    const browser = ts.browser();
    const flow = await browser.api.createBrowserLoginFlow();
    expect(inputAttributes(flow, "identifier")).toMatchObject({
      type: "text",
      required: true,
      autocomplete: "username webauthn",
    });
    const button = nodesOfGroups(flow, ["webauthn"]).find(
      (n) => (n.attributes as { name?: string }).name === "method",
    );
    expect(button?.attributes).toMatchObject({ type: "submit", value: "webauthn" });
    expect(button?.meta.label?.id).toBe(1010008);

    const unknown = await post(browser, "login", flow, {
      method: "webauthn",
      identifier: "nobody@example.com",
    });
    expect(unknown.status).toBe(400);
    expect(messageIds(unknown.body as LoginFlow, "")).toEqual([4000015]);

    const step = await post(browser, "login", unknown.body as LoginFlow, {
      method: "webauthn",
      identifier: "PL-Login@example.com",
    });
    expect(step.status).toBe(400);
    const keys = step.body as LoginFlow;
    expect(messageIds(keys, "")).toEqual([1010012]);
    expect(inputAttributes(keys, "identifier")).toMatchObject({
      type: "hidden",
      value: "pl-login@example.com",
    });
    const trigger = keys.ui.nodes.find(
      (n) => (n.attributes as { name?: string }).name === "webauthn_login_trigger",
    );
    expect(trigger?.meta.label?.id).toBe(1010011);
    expect(inputAttributes(keys, "password")).toBeUndefined();

    const evil = await post(browser, "login", keys, {
      method: "webauthn",
      identifier: "pl-login@example.com",
      webauthn_login: JSON.stringify(
        authenticator.authenticate(triggerOptions(keys, "webauthn_login_trigger"), {
          origin: "https://evil.example",
        }),
      ),
    });
    expect(evil.status).toBe(400);
    const retry = evil.body as LoginFlow;
    expect(messageIds(retry, "")).toEqual([4000043]);

    const done = await post(browser, "login", retry, {
      method: "webauthn",
      identifier: "pl-login@example.com",
      webauthn_login: JSON.stringify(
        authenticator.authenticate(triggerOptions(retry, "webauthn_login_trigger")),
      ),
    });
    expect(done.status).toBe(200);
    const session = (done.body as { session: Session }).session;
    expect(session.authenticator_assurance_level).toBe("aal1");
    expect(session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["webauthn", "aal1"],
    ]);
  });

  it("offers no security key at aal2", async () => {
    await withPasswordlessKey("pl-aal2@example.com");
    const { browser } = await passwordSignIn(ts, "pl-aal2@example.com");
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2", refresh: true });
    expect(nodesOfGroups(flow, ["webauthn"])).toEqual([]);
  });
});
