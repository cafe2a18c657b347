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
  stableNodes,
  submitLogin,
  whoami,
  type Browser,
} from "../../test-support/second-factor-helpers.ts";
import { SoftwareAuthenticator } from "../../test-support/software-authenticator.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// The portal's public URL of the test server (IDENTITY_UI_BASE_URL's default): the RP id is its
// host and the one allowed origin is its origin.
const portalOrigin = "http://localhost:3000";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

/** The JSON a trigger node carries, unwrapped from Kratos' `{"publicKey": …}`. */
function triggerOptions(flow: { ui: { nodes: UiNode[] } }, name: string) {
  const value: unknown = inputAttributes(flow, name)?.value;
  if (typeof value !== "string") throw new Error(`no ${name} node`);
  const parsed = JSON.parse(value) as { publicKey: Record<string, unknown> };
  expect(Object.keys(parsed)).toEqual(["publicKey"]);
  return parsed;
}

async function submitSettings(
  browser: Browser,
  flow: SettingsFlow,
  body: Record<string, unknown>,
): Promise<TestResponse> {
  return call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
    method: "POST",
    jar: browser.jar,
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ csrf_token: csrfTokenOf(flow), ...body }),
  });
}

/** Registers a key named `name` in settings (the session must be privileged). */
async function addKey(
  browser: Browser,
  authenticator: SoftwareAuthenticator,
  name = "Blue key",
): Promise<TestResponse> {
  const flow = await browser.api.createBrowserSettingsFlow();
  const answer = authenticator.register(triggerOptions(flow, "webauthn_register_trigger") as never);
  return submitSettings(browser, flow, {
    method: "webauthn",
    webauthn_register_displayname: name,
    webauthn_register: JSON.stringify(answer),
  });
}

/** An identity with a password and one security key; the browser that added it (aal2). */
async function withKey(email: string) {
  const { identityId } = await registerNative(ts, email);
  const { browser } = await passwordSignIn(ts, email);
  const authenticator = new SoftwareAuthenticator(portalOrigin);
  const added = await addKey(browser, authenticator);
  expect(added.status).toBe(200);
  return { identityId, browser, authenticator };
}

/** A new browser signed in with the password only (aal1), and its aal2 login flow. */
async function aal2Flow(email: string): Promise<{ browser: Browser; flow: LoginFlow }> {
  const { browser } = await passwordSignIn(ts, email);
  const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
  return { browser, flow };
}

function keyAnswer(
  authenticator: SoftwareAuthenticator,
  flow: LoginFlow,
  forced: Parameters<SoftwareAuthenticator["authenticate"]>[1] = {},
): string {
  return JSON.stringify(
    authenticator.authenticate(triggerOptions(flow, "webauthn_login_trigger") as never, forced),
  );
}

async function submitKey(browser: Browser, flow: LoginFlow, answer: string) {
  return submitLogin(ts, browser, flow, {
    method: "webauthn",
    webauthn_login: answer,
    identifier: inputAttributes(flow, "identifier")?.value,
  });
}

function refusedFlow(answer: TestResponse): LoginFlow {
  expect(answer.status).toBe(400);
  const flow = answer.body as LoginFlow;
  expect(messageIds(flow, "")).toEqual([4000043]);
  return flow;
}

describe("security keys in settings", () => {
  it("offers Kratos' nodes: the key's name, the trigger with creation options, the hidden answer", async () => {
    await registerNative(ts, "offer@example.com");
    const { browser } = await passwordSignIn(ts, "offer@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const nodes = stableNodes(nodesOfGroups(flow, ["webauthn"])).map((node) => {
      const { attributes } = node as { attributes: Record<string, unknown> };
      // Kratos' snapshots drop the options (random challenge) too.
      if (attributes.name === "webauthn_register_trigger") {
        expect(attributes.onclick).toBe(
          `window.oryWebAuthnRegistration(${String(attributes.value)})`,
        );
        delete attributes.value;
        delete attributes.onclick;
      }
      return node;
    });
    // Kratos' snapshot "one activation element is shown", without its webauthn_script node.
    expect(nodes).toEqual([
      {
        type: "input",
        group: "webauthn",
        attributes: {
          name: "webauthn_register_displayname",
          type: "text",
          value: "",
          disabled: false,
          node_type: "input",
        },
        messages: [],
        meta: { label: { id: 1050013, text: "Name of the security key", type: "info" } },
      },
      {
        type: "input",
        group: "webauthn",
        attributes: {
          name: "webauthn_register",
          type: "hidden",
          value: "",
          disabled: false,
          node_type: "input",
        },
        messages: [],
        meta: {},
      },
      {
        type: "input",
        group: "webauthn",
        attributes: {
          name: "webauthn_register_trigger",
          type: "button",
          disabled: false,
          onclickTrigger: "oryWebAuthnRegistration",
          node_type: "input",
        },
        messages: [],
        meta: { label: { id: 1050012, text: "Add security key", type: "info" } },
      },
    ]);
    const { publicKey } = triggerOptions(flow, "webauthn_register_trigger");
    expect(publicKey).toMatchObject({
      rp: { id: "localhost" },
      attestation: "none",
      authenticatorSelection: { residentKey: "discouraged", userVerification: "preferred" },
      excludeCredentials: [],
    });
    // Native apps run no ceremony through a form: Kratos shows them no webauthn group.
    const native = await ts.native().createNativeSettingsFlow({
      xSessionToken: (await registerNative(ts, "offer-native@example.com")).token,
    });
    expect(nodesOfGroups(native, ["webauthn"])).toEqual([]);
  });

  it("adds a named key: stored as Kratos stores it, listed with name and date, the session gains webauthn", async () => {
    const { identityId } = await registerNative(ts, "add@example.com");
    const { browser } = await passwordSignIn(ts, "add@example.com");
    const authenticator = new SoftwareAuthenticator(portalOrigin);

    const flow = await browser.api.createBrowserSettingsFlow();
    const options = triggerOptions(flow, "webauthn_register_trigger");
    const unnamed = await submitSettings(browser, flow, {
      method: "webauthn",
      webauthn_register_displayname: "",
      webauthn_register: JSON.stringify(authenticator.register(options as never)),
    });
    expect(unnamed.status).toBe(400);
    expect(messageIds(unnamed.body as SettingsFlow, "webauthn_register_displayname")).toEqual([
      4000002,
    ]);

    const added = await addKey(browser, authenticator, "Blue key");
    expect(added.status).toBe(200);
    const done = added.body as SettingsFlow;
    expect(done.state).toBe("success");
    const remove = done.ui.nodes.find(
      (n) => (n.attributes as { name?: string }).name === "webauthn_remove",
    );
    const id = authenticator.credentials[authenticator.credentials.length - 1]?.id;
    expect(remove?.attributes).toMatchObject({ type: "submit", value: id?.toString("hex") });
    const addedAt = new Date(ts.now().getTime()).toISOString().replace(".000Z", "Z");
    expect(remove?.meta.label).toEqual({
      id: 1050018,
      text: 'Remove security key "Blue key"',
      type: "info",
      context: {
        added_at: addedAt,
        added_at_unix: Math.floor(ts.now().getTime() / 1000),
        display_name: "Blue key",
      },
    });
    // The new key is excluded from the next creation options.
    expect(triggerOptions(done, "webauthn_register_trigger").publicKey.excludeCredentials).toEqual([
      expect.objectContaining({ id: id?.toString("base64url"), type: "public-key" }),
    ]);

    const session = (await whoami(ts, browser)).body as Session;
    expect(session.authenticator_assurance_level).toBe("aal2");
    expect(session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["password", "aal1"],
      ["webauthn", "aal2"],
    ]);

    const admin = await call(
      `${ts.adminUrl}/admin/identities/${identityId}?include_credential=webauthn`,
      { headers: { accept: "application/json" } },
    );
    const credential = (
      admin.body as { credentials: Record<string, { identifiers: string[]; config: unknown }> }
    ).credentials.webauthn;
    expect(credential?.identifiers).toEqual(["add@example.com"]);
    expect(credential?.config).toEqual({
      credentials: [
        expect.objectContaining({
          id: id?.toString("base64"),
          display_name: "Blue key",
          added_at: addedAt,
          is_passwordless: false,
          attestation_type: "none",
          authenticator: {
            aaguid: Buffer.alloc(16).toString("base64"),
            sign_count: 0,
            clone_warning: false,
          },
        }),
      ],
      user_handle: Buffer.from(identityId.replace(/-/g, ""), "hex").toString("base64"),
    });
  });

  it("keeps the key's identifier in step with the traits, as Kratos' schema extension does", async () => {
    const { identityId, browser } = await withKey("rename-key@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const renamed = await submitSettings(browser, flow, {
      method: "profile",
      "traits.email": "Renamed-Key@Example.com",
    });
    expect(renamed.status).toBe(200);
    const identity = await ts.admin().getIdentity({
      id: identityId,
      includeCredential: ["webauthn"],
    });
    expect(identity.credentials?.webauthn?.identifiers).toEqual(["renamed-key@example.com"]);
  });

  it("refuses a key whose credential id another identity registered (4000007)", async () => {
    const { authenticator } = await withKey("dup-key-owner@example.com");
    const ownerId = authenticator.credentials[0]?.id;
    if (!ownerId) throw new Error("no credential");
    await registerNative(ts, "dup-key-other@example.com");
    const { browser } = await passwordSignIn(ts, "dup-key-other@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const copy = new SoftwareAuthenticator(portalOrigin);
    const answer = copy.register(triggerOptions(flow, "webauthn_register_trigger") as never, {
      credentialId: ownerId,
    });
    const refused = await submitSettings(browser, flow, {
      method: "webauthn",
      webauthn_register_displayname: "Copy",
      webauthn_register: JSON.stringify(answer),
    });
    expect(refused.status, refused.text).toBe(400);
    expect(messageIds(refused.body as SettingsFlow, "")).toEqual([4000007]);
    const admin = await ts
      .admin()
      .listIdentities({ credentialsIdentifier: "dup-key-other@example.com" });
    expect(admin[0]?.credentials?.webauthn).toBeUndefined();
  });

  it("refuses an answer from another origin and one for a spent challenge", async () => {
    await registerNative(ts, "add-origin@example.com");
    const { browser } = await passwordSignIn(ts, "add-origin@example.com");
    const authenticator = new SoftwareAuthenticator(portalOrigin);
    const flow = await browser.api.createBrowserSettingsFlow();
    const options = triggerOptions(flow, "webauthn_register_trigger");
    const wrongOrigin = await submitSettings(browser, flow, {
      method: "webauthn",
      webauthn_register_displayname: "Key",
      webauthn_register: JSON.stringify(
        authenticator.register(options as never, { origin: "https://evil.example" }),
      ),
    });
    expect(wrongOrigin.status).toBe(400);
    const shown = wrongOrigin.body as SettingsFlow;
    expect(messageIds(shown, "")).toEqual([4000043]);
    // The refused answer spent the challenge: a right answer to the same options is refused too,
    // and the form carries new options.
    const fresh = triggerOptions(shown, "webauthn_register_trigger");
    expect(fresh.publicKey.challenge).not.toBe(options.publicKey.challenge);
    const replayed = await submitSettings(browser, shown, {
      method: "webauthn",
      webauthn_register_displayname: "Key",
      webauthn_register: JSON.stringify(authenticator.register(options as never)),
    });
    expect(replayed.status).toBe(400);
    expect(messageIds(replayed.body as SettingsFlow, "")).toEqual([4000043]);
    const admin = await ts
      .admin()
      .listIdentities({ credentialsIdentifier: "add-origin@example.com" });
    expect(admin[0]?.credentials?.webauthn).toBeUndefined();
  });

  it("needs a privileged session to add or remove a key: 403 session_refresh_required", async () => {
    const { browser, authenticator } = await withKey("stale-key@example.com");
    ts.advanceClock(61 * 60_000);
    try {
      const flow = await browser.api.createBrowserSettingsFlow();
      const add = await submitSettings(browser, flow, {
        method: "webauthn",
        webauthn_register_displayname: "Second",
        webauthn_register: JSON.stringify(
          authenticator.register(triggerOptions(flow, "webauthn_register_trigger") as never),
        ),
      });
      expect(add.status).toBe(403);
      expect((add.body as { error: { id: string } }).error.id).toBe("session_refresh_required");
      const remove = await submitSettings(browser, flow, {
        method: "webauthn",
        webauthn_remove: authenticator.credentials[0]?.id.toString("hex"),
      });
      expect(remove.status).toBe(403);
    } finally {
      ts.advanceClock(-61 * 60_000);
    }
  });

  it("removes a key: the identity is back to one factor; unknown keys are a 400", async () => {
    const { identityId, browser, authenticator } = await withKey("remove@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const unknown = await submitSettings(browser, flow, {
      method: "webauthn",
      webauthn_remove: "00ff",
    });
    expect(unknown.status).toBe(400);
    // Kratos answers its 400 as the form with the reason (4000001).
    expect((unknown.body as SettingsFlow).ui.messages).toEqual([
      expect.objectContaining({
        id: 4000001,
        text: "You tried to remove a WebAuthn credential which does not exist.",
      }),
    ]);
    const again = await browser.api.createBrowserSettingsFlow();
    const removed = await submitSettings(browser, again, {
      method: "webauthn",
      webauthn_remove: authenticator.credentials[0]?.id.toString("hex"),
    });
    expect(removed.status).toBe(200);
    expect(
      nodesOfGroups(removed.body as SettingsFlow, ["webauthn"]).map(
        (n) => (n.attributes as { name: string }).name,
      ),
    ).not.toContain("webauthn_remove");
    const identity = await ts
      .admin()
      .getIdentity({ id: identityId, includeCredential: ["webauthn"] });
    expect(identity.credentials?.webauthn).toBeUndefined();
    // A password sign-in is complete again: no second factor is asked for.
    const { browser: next } = await passwordSignIn(ts, "remove@example.com");
    expect(((await whoami(ts, next)).body as Session).authenticator_assurance_level).toBe("aal1");
    expect((await whoami(ts, next)).status).toBe(200);
  });
});

describe("a security key as second factor", () => {
  it("is offered first, as Kratos' nodes, and signs in with password + key at aal2", async () => {
    const { browser: first, authenticator } = await withKey("signin@example.com");
    // Backup codes as well, to see the order of the chooser.
    const settings = await first.api.createBrowserSettingsFlow();
    const generated = (
      await submitSettings(first, settings, {
        method: "lookup_secret",
        lookup_secret_regenerate: true,
      })
    ).body as SettingsFlow;
    expect(
      (
        await submitSettings(first, generated, {
          method: "lookup_secret",
          lookup_secret_confirm: true,
        })
      ).status,
    ).toBe(200);

    const { browser, flow } = await aal2Flow("signin@example.com");
    expect((await whoami(ts, browser)).status).toBe(403);
    const groups = flow.ui.nodes.map((n) => n.group).filter((g) => g !== "default");
    expect(groups[0]).toBe("webauthn");
    expect(groups.indexOf("lookup_secret")).toBeGreaterThan(groups.lastIndexOf("webauthn"));
    const trigger = flow.ui.nodes.find(
      (n) => (n.attributes as { name?: string }).name === "webauthn_login_trigger",
    );
    expect(trigger?.attributes).toMatchObject({
      type: "button",
      onclickTrigger: "oryWebAuthnLogin",
    });
    expect(trigger?.meta.label).toEqual({
      id: 1010008,
      text: "Sign in with a hardware key",
      type: "info",
    });
    expect(inputAttributes(flow, "webauthn_login")).toMatchObject({ type: "hidden", value: "" });
    expect(inputAttributes(flow, "identifier")).toMatchObject({
      type: "hidden",
      value: "signin@example.com",
    });
    const { publicKey } = triggerOptions(flow, "webauthn_login_trigger");
    expect(publicKey).toMatchObject({ rpId: "localhost", userVerification: "preferred" });
    expect(publicKey.allowCredentials).toHaveLength(1);

    const answer = await submitKey(browser, flow, keyAnswer(authenticator, flow));
    expect(answer.status).toBe(200);
    const session = (answer.body as { session: Session }).session;
    expect(session.authenticator_assurance_level).toBe("aal2");
    expect(session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["password", "aal1"],
      ["webauthn", "aal2"],
    ]);
  });

  it("refuses a wrong origin, a replayed answer, a counter that goes back and another identity's key", async () => {
    const { authenticator } = await withKey("refuse@example.com");
    const other = await withKey("refuse-other@example.com");

    const { browser, flow } = await aal2Flow("refuse@example.com");
    // Wrong origin: refused with 4000043, the challenge is spent and new options are shown.
    const fromEvil = refusedFlow(
      await submitKey(
        browser,
        flow,
        keyAnswer(authenticator, flow, { origin: "https://evil.example" }),
      ),
    );
    const replay = keyAnswer(authenticator, flow);
    const spent = refusedFlow(await submitKey(browser, fromEvil, replay));
    expect(triggerOptions(spent, "webauthn_login_trigger").publicKey.challenge).not.toBe(
      triggerOptions(flow, "webauthn_login_trigger").publicKey.challenge,
    );
    // Another identity's key signing this flow's challenge.
    const { publicKey } = triggerOptions(spent, "webauthn_login_trigger");
    const foreign = JSON.stringify(
      other.authenticator.authenticate({ ...publicKey, allowCredentials: [] } as never),
    );
    const notMine = refusedFlow(await submitKey(browser, spent, foreign));
    // The key's own answer to the current options signs in (the key counted 1 to 3 so far; only
    // this verified answer stores its counter, 3).
    const accepted = keyAnswer(authenticator, notMine);
    expect((await submitKey(browser, notMine, accepted)).status).toBe(200);

    const { browser: again, flow: next } = await aal2Flow("refuse@example.com");
    // The accepted answer, replayed on a new flow (another challenge).
    const replayed = refusedFlow(await submitKey(again, next, accepted));
    // A counter that does not increase past the stored 3.
    refusedFlow(
      await submitKey(again, replayed, keyAnswer(authenticator, replayed, { counter: 3 })),
    );
    expect((await whoami(ts, again)).status).toBe(403);
  });

  it("lets backup codes sign in while a key is set up", async () => {
    const { browser: first } = await withKey("codes@example.com");
    const settings = await first.api.createBrowserSettingsFlow();
    const generated = (
      await submitSettings(first, settings, {
        method: "lookup_secret",
        lookup_secret_regenerate: true,
      })
    ).body as SettingsFlow;
    const codesNode = generated.ui.nodes.find(
      (n) => (n.attributes as { id?: string }).id === "lookup_secret_codes",
    );
    const codes = (
      codesNode?.attributes as unknown as {
        text: { context: { secrets: { context: { secret: string } }[] } };
      }
    ).text.context.secrets.map((secret) => secret.context.secret);
    await submitSettings(first, generated, {
      method: "lookup_secret",
      lookup_secret_confirm: true,
    });

    const { browser, flow } = await aal2Flow("codes@example.com");
    const answer = await submitLogin(ts, browser, flow, {
      method: "lookup_secret",
      lookup_secret: codes[0],
    });
    expect(answer.status).toBe(200);
    expect(
      (answer.body as { session: Session }).session.authentication_methods?.map((m) => m.method),
    ).toEqual(["password", "lookup_secret"]);
  });

  it("is not offered to native apps, whose method=webauthn finds no strategy (4010002)", async () => {
    const { authenticator } = await withKey("native-key@example.com");
    const { token } = await (async () => {
      const api = ts.native();
      const login = await api.createNativeLoginFlow();
      const done = await api.updateLoginFlow({
        flow: login.id,
        updateLoginFlowBody: {
          method: "password",
          identifier: "native-key@example.com",
          password: "correct-Horse-battery-2-staple",
        },
      });
      return { token: done.session_token ?? "" };
    })();
    const flow = await ts.native().createNativeLoginFlow({ aal: "aal2", xSessionToken: token });
    expect(nodesOfGroups(flow, ["webauthn"])).toEqual([]);
    const answer = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-session-token": token,
      },
      body: JSON.stringify({
        method: "webauthn",
        webauthn_login: JSON.stringify(
          authenticator.authenticate({ challenge: "AAAA", rpId: "localhost" }),
        ),
      }),
    });
    expect(answer.status).toBe(400);
    expect(messageIds(answer.body as LoginFlow, "")).toEqual([4010002]);
  });
});

describe("security keys through the admin API", () => {
  it("deletes the second-factor keys: DELETE /admin/identities/{id}/credentials/webauthn", async () => {
    const { identityId } = await withKey("admin-key@example.com");
    const deleted = await call(
      `${ts.adminUrl}/admin/identities/${identityId}/credentials/webauthn`,
      {
        method: "DELETE",
      },
    );
    expect(deleted.status).toBe(204);
    const identity = await ts
      .admin()
      .getIdentity({ id: identityId, includeCredential: ["webauthn"] });
    expect(identity.credentials?.webauthn).toBeUndefined();
    const missing = await call(
      `${ts.adminUrl}/admin/identities/${identityId}/credentials/webauthn`,
      {
        method: "DELETE",
        headers: { accept: "application/json" },
      },
    );
    expect(missing.status).toBe(404);
  });
});

describe("a security key with refresh and trusted devices", () => {
  it("re-verifies the key with refresh=true&aal=aal2 and can trust the browser, as TOTP does", async () => {
    const { authenticator } = await withKey("refresh-key@example.com");
    const { browser, flow } = await aal2Flow("refresh-key@example.com");
    expect(inputAttributes(flow, "trust_device")).toMatchObject({ type: "checkbox" });
    const trusted = await submitLogin(ts, browser, flow, {
      method: "webauthn",
      webauthn_login: keyAnswer(authenticator, flow),
      trust_device: true,
    });
    expect(trusted.status).toBe(200);
    expect(trusted.headers.getSetCookie().some((c) => c.startsWith("ory_trusted_device="))).toBe(
      true,
    );

    const refresh = await browser.api.createBrowserLoginFlow({ aal: "aal2", refresh: true });
    expect(messageIds(refresh, "")).toEqual([1010003]);
    const again = await submitKey(browser, refresh, keyAnswer(authenticator, refresh));
    expect(again.status).toBe(200);
    expect(
      (again.body as { session: Session }).session.authentication_methods?.map((m) => m.method),
    ).toEqual(["password", "webauthn", "webauthn"]);

    // The trusted browser's next password sign-in needs no key.
    const next = ts.browser();
    const token = browser.jar.get("ory_trusted_device");
    if (token) next.jar.cookies.set("ory_trusted_device", token);
    await passwordSignIn(ts, "refresh-key@example.com", next);
    const session = (await whoami(ts, next)).body as Session;
    expect(session.authenticator_assurance_level).toBe("aal2");
  });
});

describe("answers that are not WebAuthn at all", () => {
  it("refuses unreadable assertions with 4000043 (never a 500) and signs in by HTML form post", async () => {
    const { authenticator } = await withKey("form-post@example.com");
    const { browser, flow } = await aal2Flow("form-post@example.com");
    let current = flow;
    for (const junk of [
      "{not json",
      "[]",
      '{"id":"x"}',
      JSON.stringify({
        ...(JSON.parse(keyAnswer(authenticator, current)) as object),
        type: "other",
      }),
    ]) {
      current = refusedFlow(await submitKey(browser, current, junk));
    }
    const form = new URLSearchParams({
      csrf_token: csrfTokenOf(current),
      method: "webauthn",
      webauthn_login: keyAnswer(authenticator, current),
    });
    const posted = await call(`${ts.publicUrl}/self-service/login?flow=${current.id}`, {
      method: "POST",
      jar: browser.jar,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: form.toString(),
    });
    expect(posted.status).toBe(303);
    const session = (await whoami(ts, browser)).body as Session;
    expect(session.authenticator_assurance_level).toBe("aal2");
  });
});

describe("wrong security-key answers per identity (the second-factor limit, 10 per 10 minutes)", () => {
  it("refuses the 11th answer, even a right one, with 9010007 until the window has passed", async () => {
    const { authenticator } = await withKey("limit-key@example.com");
    const { browser, flow } = await aal2Flow("limit-key@example.com");
    let current = flow;
    for (let i = 0; i < 10; i++) {
      current = refusedFlow(
        await submitKey(
          browser,
          current,
          keyAnswer(authenticator, current, { origin: "https://evil.example" }),
        ),
      );
    }
    const refused = await submitKey(browser, current, keyAnswer(authenticator, current));
    expect(refused.status).toBe(400);
    expect(messageIds(refused.body as LoginFlow, "")).toEqual([9010007]);
    ts.advanceClock(11 * 60_000);
    const next = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    expect((await submitKey(browser, next, keyAnswer(authenticator, next))).status).toBe(200);
  });
});
