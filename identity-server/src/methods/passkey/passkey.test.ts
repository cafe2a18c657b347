import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiNode } from "@ory/client-fetch";
import { call, CookieJar, type TestResponse } from "../../test-support/http-client.ts";
import { csrfTokenOf, inputAttributes, messageIds } from "../../test-support/flow-helpers.ts";
import { SoftwareAuthenticator } from "../../test-support/software-authenticator.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// The passkey strategy end to end against a real server, with a software authenticator in place
// of the browser: sign-up, sign-in, settings, the admin API, and every refusal answering in
// Kratos' shape with Kratos' message id.

const origin = "http://localhost:3000";
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

interface Flow {
  id: string;
  ui: { action: string; nodes: UiNode[]; messages?: { id: number; text: string }[] };
}

const json = { "content-type": "application/json", accept: "application/json" };

function nodeValue(flow: Flow, name: string): string {
  const value: unknown = inputAttributes(flow, name)?.value;
  if (typeof value !== "string") throw new Error(`the flow has no ${name} value`);
  return value;
}

/** The passkey group's nodes by name (the flow sorts them as Kratos does), values elided. */
function passkeyNodes(flow: Flow) {
  return flow.ui.nodes
    .filter((n) => n.group === "passkey")
    .map((n) => {
      const { value, ...rest } = n.attributes as unknown as Record<string, unknown>;
      const shown: Record<string, unknown> = rest;
      if (value !== undefined) shown.value = value === "" ? "" : "…";
      return shown;
    })
    .sort((a, b) => String(a.name).localeCompare(String(b.name)));
}

async function getJson<T>(url: string, jar?: CookieJar): Promise<T> {
  const response = await call(url, {
    headers: { accept: "application/json" },
    ...(jar ? { jar } : {}),
  });
  expect(response.status, response.text).toBe(200);
  return response.body as T;
}

async function submit(
  kind: "login" | "registration" | "settings",
  flow: Flow,
  body: Record<string, unknown>,
  jar?: CookieJar,
): Promise<TestResponse> {
  return call(`${ts.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(body),
    ...(jar ? { jar } : {}),
  });
}

const registrationFlow = () => getJson<Flow>(`${ts.publicUrl}/self-service/registration/api`);
const loginFlow = () => getJson<Flow>(`${ts.publicUrl}/self-service/login/api`);

/** Signs up with a passkey through an API flow; the session token and identity id. */
async function signUp(authenticator: SoftwareAuthenticator, email: string) {
  const flow = await registrationFlow();
  const createData = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
    credentialOptions: { publicKey: never };
  };
  const answer = await submit("registration", flow, {
    method: "passkey",
    traits: { email },
    passkey_register: JSON.stringify(authenticator.register(createData.credentialOptions)),
  });
  expect(answer.status, answer.text).toBe(200);
  const body = answer.body as { session_token: string; identity: { id: string } };
  return { token: body.session_token, id: body.identity.id };
}

/** Signs in with the authenticator's passkey through a new API flow. */
async function signIn(
  authenticator: SoftwareAuthenticator,
  forced: Parameters<SoftwareAuthenticator["authenticate"]>[1] = {},
) {
  const flow = await loginFlow();
  const options = JSON.parse(nodeValue(flow, "passkey_challenge")) as { publicKey: never };
  const assertion = authenticator.authenticate(options, forced);
  const answer = await submit("login", flow, {
    method: "passkey",
    passkey_login: JSON.stringify(assertion),
  });
  return { flow, answer, assertion };
}

async function adminIdentity(id: string) {
  return getJson<{
    credentials: Record<string, { identifiers: string[]; config?: Record<string, unknown> }>;
  }>(`${ts.adminUrl}/admin/identities/${id}?include_credential=passkey`);
}

function refusedWith(answer: TestResponse, id: number): void {
  expect(answer.status, answer.text).toBe(400);
  expect(messageIds(answer.body as Flow, "")).toEqual([id]);
}

describe("passkey registration", () => {
  it("offers Kratos' nodes and creates the identity only once the passkey verifies", async () => {
    const flow = await registrationFlow();
    expect(passkeyNodes(flow)).toEqual([
      {
        name: "passkey_create_data",
        type: "hidden",
        value: "…",
        disabled: false,
        node_type: "input",
      },
      { name: "passkey_register", type: "hidden", disabled: false, node_type: "input" },
      {
        name: "passkey_register_trigger",
        type: "button",
        disabled: false,
        onclickTrigger: "oryPasskeyRegistration",
        node_type: "input",
      },
    ]);
    const createData = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
      credentialOptions: { publicKey: Record<string, unknown> };
      displayNameFieldName: string;
      displayNameFieldNames: string[];
    };
    expect(createData.displayNameFieldName).toBe("traits.email");
    expect(createData.displayNameFieldNames).toEqual(["traits.email"]);
    expect(createData.credentialOptions.publicKey).toMatchObject({
      rp: { id: "localhost" },
      attestation: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    });

    const authenticator = new SoftwareAuthenticator(origin);
    const attestation = authenticator.register(createData.credentialOptions as never);
    // A wrong origin: refused, nobody is created, and the challenge is spent.
    const forged = authenticator.register(createData.credentialOptions as never, {
      origin: "https://evil.example",
    });
    const refused = await submit("registration", flow, {
      method: "passkey",
      traits: { email: "forged@example.org" },
      passkey_register: JSON.stringify(forged),
    });
    refusedWith(refused, 4000043);
    const listed = await getJson<unknown[]>(
      `${ts.adminUrl}/admin/identities?credentials_identifier=forged@example.org`,
    );
    expect(listed).toEqual([]);
    // The genuine answer to the spent challenge is refused too; the form has new options.
    refusedWith(
      await submit("registration", flow, {
        method: "passkey",
        traits: { email: "forged@example.org" },
        passkey_register: JSON.stringify(attestation),
      }),
      4000043,
    );
    expect(nodeValue(refused.body as Flow, "passkey_create_data")).not.toBe(
      nodeValue(flow, "passkey_create_data"),
    );

    const { token, id } = await signUp(authenticator, "ada-passkey@example.org");
    const whoami = await getJson<{ authentication_methods: { method: string; aal: string }[] }>(
      `${ts.publicUrl}/sessions/whoami`,
    ).catch(() => undefined);
    expect(whoami).toBeUndefined();
    const session = await call(`${ts.publicUrl}/sessions/whoami`, {
      headers: { accept: "application/json", "x-session-token": token },
    });
    expect(
      (
        session.body as { authentication_methods: { method: string; aal: string }[] }
      ).authentication_methods.map((m) => [m.method, m.aal]),
    ).toEqual([["passkey", "aal1"]]);

    const stored = await adminIdentity(id);
    const passkey = stored.credentials.passkey;
    const config = passkey?.config as {
      credentials: Record<string, unknown>[];
      user_handle: string;
    };
    expect(passkey?.identifiers).toEqual([Buffer.from(config.user_handle, "base64").toString()]);
    expect(passkey?.identifiers[0]).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(config.credentials).toEqual([
      {
        id: Buffer.from(authenticator.credentials.at(-1)?.id ?? []).toString("base64"),
        public_key: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) as unknown,
        attestation_type: "none",
        authenticator: { aaguid: "AAAAAAAAAAAAAAAAAAAAAA==", sign_count: 0, clone_warning: false },
        display_name: "",
        added_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) as unknown,
        is_passwordless: true,
        flags: {
          user_present: true,
          user_verified: true,
          backup_eligible: false,
          backup_state: false,
        },
        transport: ["internal"],
      },
    ]);
  });

  it("takes a browser's form post and redirects it signed in", async () => {
    const jar = new CookieJar();
    const created = await call(`${ts.publicUrl}/self-service/registration/browser`, { jar });
    const flowId = new URL(created.headers.get("location") ?? "").searchParams.get("flow");
    const flow = await getJson<Flow>(
      `${ts.publicUrl}/self-service/registration/flows?id=${flowId}`,
      jar,
    );
    expect(inputAttributes(flow as never, "passkey_register_trigger")).toMatchObject({
      onclick: "window.oryPasskeyRegistration()",
      onclickTrigger: "oryPasskeyRegistration",
    });
    const createData = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
      credentialOptions: never;
    };
    const authenticator = new SoftwareAuthenticator(origin);
    const answer = await call(`${ts.publicUrl}/self-service/registration?flow=${flow.id}`, {
      method: "POST",
      jar,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        csrf_token: csrfTokenOf(flow),
        "traits.email": "browser-passkey@example.org",
        passkey_register: JSON.stringify(authenticator.register(createData.credentialOptions)),
      }).toString(),
    });
    // Signed in, then on to verify the address (the default after-registration hook).
    expect(answer.status, answer.text).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/verification\?flow=/);
    const session = await call(`${ts.publicUrl}/sessions/whoami`, {
      jar,
      headers: { accept: "application/json" },
    });
    expect(session.status).toBe(200);
  });
});

describe("passkey sign-in", () => {
  let authenticator: SoftwareAuthenticator;
  let identityId: string;
  beforeAll(async () => {
    authenticator = new SoftwareAuthenticator(origin);
    identityId = (await signUp(authenticator, "grace-passkey@example.org")).id;
  });

  it("offers autofill and the button, and signs in with a discoverable credential", async () => {
    const flow = await loginFlow();
    expect(inputAttributes(flow as never, "identifier")).toMatchObject({
      autocomplete: "username webauthn",
    });
    expect(passkeyNodes(flow)).toEqual([
      {
        name: "passkey_challenge",
        type: "hidden",
        value: "…",
        disabled: false,
        node_type: "input",
      },
      {
        name: "passkey_login",
        type: "hidden",
        disabled: false,
        onloadTrigger: "oryPasskeyLoginAutocompleteInit",
        node_type: "input",
      },
      {
        name: "passkey_login_trigger",
        type: "button",
        value: "",
        disabled: false,
        onclickTrigger: "oryPasskeyLogin",
        node_type: "input",
      },
    ]);
    const options = JSON.parse(nodeValue(flow, "passkey_challenge")) as {
      publicKey: Record<string, unknown>;
    };
    expect(options.publicKey).toMatchObject({ rpId: "localhost", allowCredentials: [] });

    const { answer } = await signIn(authenticator);
    expect(answer.status, answer.text).toBe(200);
    const body = answer.body as {
      session: {
        identity: { id: string };
        authentication_methods: { method: string; aal: string }[];
      };
    };
    expect(body.session.identity.id).toBe(identityId);
    expect(body.session.authentication_methods.map((m) => [m.method, m.aal])).toEqual([
      ["passkey", "aal1"],
    ]);
    const stored = await adminIdentity(identityId);
    const config = stored.credentials.passkey?.config as {
      credentials: { authenticator: { sign_count: number } }[];
    };
    expect(config.credentials[0]?.authenticator.sign_count).toBe(
      authenticator.credentials[0]?.counter,
    );
  });

  it("refuses a replayed answer, a wrong origin and a counter that goes back", async () => {
    const { answer: first, assertion } = await signIn(authenticator);
    expect(first.status).toBe(200);
    // The same answer for a new flow: its challenge is not the new flow's.
    const flow = await loginFlow();
    refusedWith(
      await submit("login", flow, { method: "passkey", passkey_login: JSON.stringify(assertion) }),
      4000043,
    );

    const { answer: wrongOrigin } = await signIn(authenticator, { origin: "https://evil.example" });
    refusedWith(wrongOrigin, 4000043);

    expect((await signIn(authenticator, { counter: 10 })).answer.status).toBe(200);
    // The counter the server stored (10) again, or lower: a possible clone, refused.
    refusedWith((await signIn(authenticator, { counter: 10 })).answer, 4000043);
    refusedWith((await signIn(authenticator, { counter: 9 })).answer, 4000043);
    const { answer: recovered } = await signIn(authenticator, { counter: 11 });
    expect(recovered.status, recovered.text).toBe(200);
  });

  it("spends the challenge on a refusal: the genuine answer to it is refused afterwards", async () => {
    const flow = await loginFlow();
    const options = JSON.parse(nodeValue(flow, "passkey_challenge")) as { publicKey: never };
    const forged = authenticator.authenticate(options, { origin: "https://evil.example" });
    const refused = await submit("login", flow, {
      method: "passkey",
      passkey_login: JSON.stringify(forged),
    });
    refusedWith(refused, 4000043);
    const genuine = authenticator.authenticate(options);
    const late = await submit("login", flow, {
      method: "passkey",
      passkey_login: JSON.stringify(genuine),
    });
    refusedWith(late, 4000043);
    // Each refusal shows new options; the newest work.
    expect(nodeValue(refused.body as Flow, "passkey_challenge")).not.toBe(
      nodeValue(flow, "passkey_challenge"),
    );
    const renewed = JSON.parse(nodeValue(late.body as Flow, "passkey_challenge")) as {
      publicKey: never;
    };
    const answer = await submit("login", flow, {
      method: "passkey",
      passkey_login: JSON.stringify(authenticator.authenticate(renewed)),
    });
    expect(answer.status, answer.text).toBe(200);
  });

  it("refuses an unknown user handle (4000015) and malformed answers (4000043)", async () => {
    const { answer } = await signIn(authenticator, {
      userHandle: Buffer.from("nobody").toString("base64url"),
    });
    refusedWith(answer, 4000015);
    const flow = await loginFlow();
    refusedWith(
      await submit("login", flow, { method: "passkey", passkey_login: "{not json" }),
      4000043,
    );
  });

  it("signs a browser in with a form post and redirects it", async () => {
    const jar = new CookieJar();
    const created = await call(`${ts.publicUrl}/self-service/login/browser`, { jar });
    const flowId = new URL(created.headers.get("location") ?? "").searchParams.get("flow");
    const flow = await getJson<Flow>(`${ts.publicUrl}/self-service/login/flows?id=${flowId}`, jar);
    expect(inputAttributes(flow as never, "passkey_login")).toMatchObject({
      onload: "window.oryPasskeyLoginAutocompleteInit()",
      onloadTrigger: "oryPasskeyLoginAutocompleteInit",
    });
    const options = JSON.parse(nodeValue(flow, "passkey_challenge")) as { publicKey: never };
    const form = (passkeyLogin: string) =>
      call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
        method: "POST",
        jar,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          csrf_token: csrfTokenOf(flow),
          method: "passkey",
          passkey_login: passkeyLogin,
        }).toString(),
      });
    const refused = await form(
      JSON.stringify(authenticator.authenticate(options, { origin: "https://evil.example" })),
    );
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`http://localhost:3000/login?flow=${flow.id}`);
    const shown = await getJson<Flow>(
      `${ts.publicUrl}/self-service/login/flows?id=${flow.id}`,
      jar,
    );
    expect(messageIds(shown, "")).toEqual([4000043]);
    const renewed = JSON.parse(nodeValue(shown, "passkey_challenge")) as { publicKey: never };
    const answer = await form(JSON.stringify(authenticator.authenticate(renewed)));
    expect(answer.status, answer.text).toBe(303);
    expect(answer.headers.get("location")).toBe("http://localhost:3000/");
  });
});

describe("passkey sign-in limits and metrics", () => {
  it("counts wrong answers against the password budgets (9010007) and labels the metric passkey", async () => {
    const limited = await startTestServer({ IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: "2" });
    try {
      const authenticator = new SoftwareAuthenticator(origin);
      const flowOf = () =>
        call(`${limited.publicUrl}/self-service/registration/api`, { headers: json });
      const registration = (await flowOf()).body as Flow;
      const createData = JSON.parse(nodeValue(registration, "passkey_create_data")) as {
        credentialOptions: never;
      };
      const registered = await call(
        `${limited.publicUrl}/self-service/registration?flow=${registration.id}`,
        {
          method: "POST",
          headers: json,
          body: JSON.stringify({
            method: "passkey",
            traits: { email: "limited-passkey@example.org" },
            passkey_register: JSON.stringify(authenticator.register(createData.credentialOptions)),
          }),
        },
      );
      expect(registered.status, registered.text).toBe(200);
      const attempt = async (forced: { origin?: string }) => {
        const flow = (await call(`${limited.publicUrl}/self-service/login/api`, { headers: json }))
          .body as Flow;
        const options = JSON.parse(nodeValue(flow, "passkey_challenge")) as never;
        return call(`${limited.publicUrl}/self-service/login?flow=${flow.id}`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({
            method: "passkey",
            passkey_login: JSON.stringify(authenticator.authenticate(options, forced)),
          }),
        });
      };
      const wrong = { origin: "https://evil.example" };
      refusedWith(await attempt(wrong), 4000043);
      refusedWith(await attempt(wrong), 4000043);
      // The budget of this passkey's user handle is used up: even the right answer waits.
      refusedWith(await attempt({}), 9010007);

      const metrics = await (await fetch(`${limited.adminUrl}/metrics/prometheus`)).text();
      expect(metrics).toMatch(
        /identity_login_attempts_total\{method="passkey",result="failure"\} 3/,
      );
    } finally {
      await limited.stop();
    }
  });
});

describe("passkeys in settings and the admin API", () => {
  it("adds a passkey, refuses removing the last first factor, removes one of two", async () => {
    const first = new SoftwareAuthenticator(origin);
    const { token, id } = await signUp(first, "settings-passkey@example.org");
    const headers = { ...json, "x-session-token": token };
    const settingsFlow = async () => {
      const answer = await call(`${ts.publicUrl}/self-service/settings/api`, { headers });
      expect(answer.status, answer.text).toBe(200);
      return answer.body as Flow;
    };
    const settingsSubmit = (flow: Flow, body: Record<string, unknown>) =>
      call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });

    let flow = await settingsFlow();
    const removeButton = () =>
      flow.ui.nodes.filter((n) => (n.attributes as { name?: string }).name === "passkey_remove");
    expect(removeButton()).toHaveLength(1);
    expect(removeButton()[0]).toMatchObject({
      group: "passkey",
      attributes: { type: "submit", disabled: true },
      meta: { label: { id: 1050020, context: { display_name: "unnamed" } } },
    });
    expect(inputAttributes(flow as never, "passkey_register_trigger")).toMatchObject({
      onclickTrigger: "oryPasskeySettingsRegistration",
    });
    const lastId = (removeButton()[0]?.attributes as { value: string }).value;
    expect(lastId).toMatch(/^[0-9a-f]{64}$/);
    const refused = await settingsSubmit(flow, { method: "passkey", passkey_remove: lastId });
    expect(refused.status, refused.text).toBe(400);
    expect((refused.body as Flow).ui.messages).toEqual([
      expect.objectContaining({
        id: 4000001,
        text: "unable to remove this security key because it would lock you out of your account",
      }),
    ]);
    // The administrator cannot remove it either.
    const adminRefused = await call(`${ts.adminUrl}/admin/identities/${id}/credentials/passkey`, {
      method: "DELETE",
    });
    expect(adminRefused.status).toBe(400);
    expect(adminRefused.body).toMatchObject({
      error: { reason: "You cannot remove the last first factor credential." },
    });

    const second = new SoftwareAuthenticator(origin);
    flow = await settingsFlow();
    const options = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
      publicKey: { excludeCredentials: { id: string }[]; user: { name: string } };
    };
    expect(options.publicKey.user.name).toBe("settings-passkey@example.org");
    expect(options.publicKey.excludeCredentials.map((c) => c.id)).toEqual([
      Buffer.from(first.credentials[0]?.id ?? []).toString("base64url"),
    ]);
    const added = await settingsSubmit(flow, {
      method: "passkey",
      passkey_settings_register: JSON.stringify(second.register(options as never)),
    });
    expect(added.status, added.text).toBe(200);
    flow = added.body as Flow;
    expect(removeButton().map((n) => (n.attributes as { disabled: boolean }).disabled)).toEqual([
      false,
      false,
    ]);
    // Both passkeys sign in.
    expect((await signIn(first)).answer.status).toBe(200);
    expect((await signIn(second)).answer.status).toBe(200);

    const removed = await settingsSubmit(flow, { method: "passkey", passkey_remove: lastId });
    expect(removed.status, removed.text).toBe(200);
    const { answer } = await signIn(first);
    refusedWith(answer, 4000043);
    const stored = await adminIdentity(id);
    expect(
      (stored.credentials.passkey?.config as { credentials: unknown[] }).credentials,
    ).toHaveLength(1);
  });

  it("asks for a fresh sign-in before adding or removing a passkey on an old session (403)", async () => {
    const authenticator = new SoftwareAuthenticator(origin);
    const { token } = await signUp(authenticator, "stale-passkey@example.org");
    const headers = { ...json, "x-session-token": token };
    ts.advanceClock(61 * 60_000);
    const flow = (await call(`${ts.publicUrl}/self-service/settings/api`, { headers }))
      .body as Flow;
    const options = JSON.parse(nodeValue(flow, "passkey_create_data")) as never;
    const refused = await call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        method: "passkey",
        passkey_settings_register: JSON.stringify(
          new SoftwareAuthenticator(origin).register(options),
        ),
      }),
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({ error: { id: "session_refresh_required" } });
    // A fresh passkey sign-in makes it privileged again.
    expect((await signIn(authenticator)).answer.status).toBe(200);
  });

  it("lets an administrator delete passkeys when a password remains", async () => {
    const created = await call(`${ts.adminUrl}/admin/identities`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        schema_id: "default",
        traits: { email: "admin-passkey@example.org" },
        credentials: { password: { config: { password: "correct-Horse-battery-2-staple" } } },
      }),
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    // A password user adds a passkey in settings.
    const jar = new CookieJar();
    const loginAnswer = await call(`${ts.publicUrl}/self-service/login/api`, { headers: json });
    const login = loginAnswer.body as Flow;
    const signedIn = await submit(
      "login",
      login,
      {
        method: "password",
        identifier: "admin-passkey@example.org",
        password: "correct-Horse-battery-2-staple",
      },
      jar,
    );
    expect(signedIn.status, signedIn.text).toBe(200);
    const headers = {
      ...json,
      "x-session-token": (signedIn.body as { session_token: string }).session_token,
    };
    const flow = (await call(`${ts.publicUrl}/self-service/settings/api`, { headers }))
      .body as Flow;
    const authenticator = new SoftwareAuthenticator(origin);
    const options = JSON.parse(nodeValue(flow, "passkey_create_data")) as never;
    const added = await call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        method: "passkey",
        passkey_settings_register: JSON.stringify(authenticator.register(options)),
      }),
    });
    expect(added.status, added.text).toBe(200);
    // With a passkey, the password is no longer the last first factor.
    const listed = await getJson<{ credentials: Record<string, unknown> }[]>(
      `${ts.adminUrl}/admin/identities?ids=${id}&include_credential=passkey`,
    );
    expect(listed[0]?.credentials.passkey).toMatchObject({
      config: { credentials: [expect.anything()] },
    });

    const deleted = await call(`${ts.adminUrl}/admin/identities/${id}/credentials/passkey`, {
      method: "DELETE",
    });
    expect(deleted.status, deleted.text).toBe(204);
    expect((await adminIdentity(id)).credentials.passkey).toBeUndefined();
    refusedWith((await signIn(authenticator)).answer, 4000015);
  });

  it("answers as Kratos in strict mode: passkeys cannot be deleted by an administrator", async () => {
    const strict = await startTestServer({ IDENTITY_ORY_EXTENSIONS: "false" });
    try {
      const flow = (
        await call(`${strict.publicUrl}/self-service/registration/api`, { headers: json })
      ).body as Flow;
      const createData = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
        credentialOptions: never;
      };
      const registered = await call(
        `${strict.publicUrl}/self-service/registration?flow=${flow.id}`,
        {
          method: "POST",
          headers: json,
          body: JSON.stringify({
            method: "passkey",
            traits: { email: "strict-passkey@example.org" },
            passkey_register: JSON.stringify(
              new SoftwareAuthenticator(origin).register(createData.credentialOptions),
            ),
          }),
        },
      );
      expect(registered.status, registered.text).toBe(200);
      const id = (registered.body as { identity: { id: string } }).identity.id;
      const refused = await call(`${strict.adminUrl}/admin/identities/${id}/credentials/passkey`, {
        method: "DELETE",
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: { reason: "Credentials type passkey cannot be deleted." },
      });
    } finally {
      await strict.stop();
    }
  });
});

describe("passkey re-authentication and browser settings", () => {
  it("re-authenticates a browser session with its own passkey only (refresh), then adds one by form post", async () => {
    const mine = new SoftwareAuthenticator(origin);
    const jar = new CookieJar();
    // Sign up in the browser, so the jar holds the session.
    const created = await call(`${ts.publicUrl}/self-service/registration/browser`, { jar });
    const regId = new URL(created.headers.get("location") ?? "").searchParams.get("flow");
    const registration = await getJson<Flow>(
      `${ts.publicUrl}/self-service/registration/flows?id=${regId}`,
      jar,
    );
    const createData = JSON.parse(nodeValue(registration, "passkey_create_data")) as {
      credentialOptions: never;
    };
    const signedUp = await call(
      `${ts.publicUrl}/self-service/registration?flow=${registration.id}`,
      {
        method: "POST",
        jar,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          csrf_token: csrfTokenOf(registration),
          "traits.email": "refresh-passkey@example.org",
          passkey_register: JSON.stringify(mine.register(createData.credentialOptions)),
        }).toString(),
      },
    );
    expect(signedUp.status, signedUp.text).toBe(303);

    const refreshFlow = async () => {
      const started = await call(`${ts.publicUrl}/self-service/login/browser?refresh=true`, {
        jar,
      });
      const flowId = new URL(started.headers.get("location") ?? "").searchParams.get("flow");
      return getJson<Flow>(`${ts.publicUrl}/self-service/login/flows?id=${flowId}`, jar);
    };
    let flow = await refreshFlow();
    const options = JSON.parse(nodeValue(flow, "passkey_challenge")) as {
      publicKey: { allowCredentials: { id: string }[] };
    };
    // Only this identity's passkey is asked for, and no autofill is started.
    expect(options.publicKey.allowCredentials.map((c) => c.id)).toEqual([
      Buffer.from(mine.credentials[0]?.id ?? []).toString("base64url"),
    ]);
    expect(inputAttributes(flow, "passkey_login")?.onloadTrigger).toBeUndefined();
    const post = (target: Flow, assertion: unknown) =>
      call(`${ts.publicUrl}/self-service/login?flow=${target.id}`, {
        method: "POST",
        jar,
        headers: json,
        body: JSON.stringify({
          csrf_token: csrfTokenOf(target),
          method: "passkey",
          passkey_login: JSON.stringify(assertion),
        }),
      });
    // Someone else's passkey cannot refresh this session.
    const other = new SoftwareAuthenticator(origin);
    await signUp(other, "refresh-other@example.org");
    refusedWith(
      await post(
        flow,
        other.authenticate({ publicKey: { ...options.publicKey, allowCredentials: [] } } as never),
      ),
      4000015,
    );
    flow = await refreshFlow();
    const renewed = JSON.parse(nodeValue(flow, "passkey_challenge")) as never;
    const refreshed = await post(flow, mine.authenticate(renewed));
    expect(refreshed.status, refreshed.text).toBe(200);

    // Settings by form post: a second passkey, then the browser is sent back to the form.
    const startedSettings = await call(`${ts.publicUrl}/self-service/settings/browser`, { jar });
    const settingsId = new URL(startedSettings.headers.get("location") ?? "").searchParams.get(
      "flow",
    );
    const settings = await getJson<Flow>(
      `${ts.publicUrl}/self-service/settings/flows?id=${settingsId}`,
      jar,
    );
    expect(inputAttributes(settings, "passkey_register_trigger")?.onclick).toBe(
      "window.oryPasskeySettingsRegistration()",
    );
    const settingsOptions = JSON.parse(nodeValue(settings, "passkey_create_data")) as never;
    const added = await call(`${ts.publicUrl}/self-service/settings?flow=${settings.id}`, {
      method: "POST",
      jar,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        csrf_token: csrfTokenOf(settings),
        method: "passkey",
        passkey_settings_register: JSON.stringify(
          new SoftwareAuthenticator(origin).register(settingsOptions),
        ),
      }).toString(),
    });
    expect(added.status, added.text).toBe(303);
    expect(added.headers.get("location")).toBe(
      `http://localhost:3000/settings?flow=${settings.id}`,
    );
    const shown = await getJson<Flow & { state: string }>(
      `${ts.publicUrl}/self-service/settings/flows?id=${settings.id}`,
      jar,
    );
    expect(shown.state).toBe("success");
    expect(
      shown.ui.nodes.filter((n) => (n.attributes as { name?: string }).name === "passkey_remove"),
    ).toHaveLength(2);
  });
});

describe("passkey credential ids and user handles", () => {
  async function settingsOf(token: string) {
    const headers = { ...json, "x-session-token": token };
    const shown = await call(`${ts.publicUrl}/self-service/settings/api`, { headers });
    expect(shown.status, shown.text).toBe(200);
    const flow = shown.body as Flow;
    const post = (body: Record<string, unknown>) =>
      call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
    return { flow, post };
  }

  async function addWith(
    token: string,
    authenticator: SoftwareAuthenticator,
    credentialId?: Buffer,
  ) {
    const { flow, post } = await settingsOf(token);
    const options = JSON.parse(nodeValue(flow, "passkey_create_data")) as never;
    return post({
      method: "passkey",
      passkey_settings_register: JSON.stringify(
        authenticator.register(options, credentialId ? { credentialId } : {}),
      ),
    });
  }

  it("refuses a credential id another identity registered (WebAuthn §7.1 step 26): 4000007", async () => {
    const victim = new SoftwareAuthenticator(origin);
    await signUp(victim, "dup-id-victim@example.org");
    const victimId = victim.credentials[0]?.id;
    if (!victimId) throw new Error("no credential");

    const flow = await registrationFlow();
    const createData = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
      credentialOptions: never;
    };
    const attacker = new SoftwareAuthenticator(origin);
    const signUpAnswer = await submit("registration", flow, {
      method: "passkey",
      traits: { email: "dup-id-attacker@example.org" },
      passkey_register: JSON.stringify(
        attacker.register(createData.credentialOptions, { credentialId: victimId }),
      ),
    });
    refusedWith(signUpAnswer, 4000007);

    const other = new SoftwareAuthenticator(origin);
    const { token } = await signUp(other, "dup-id-other@example.org");
    const added = await addWith(token, attacker, victimId);
    refusedWith(added, 4000007);
    expect((await signIn(victim)).answer.status).toBe(200);
  });

  it("gives all of an identity's passkeys one user handle, the credential's one identifier", async () => {
    const first = new SoftwareAuthenticator(origin);
    const second = new SoftwareAuthenticator(origin);
    const third = new SoftwareAuthenticator(origin);
    const { token, id } = await signUp(first, "one-handle@example.org");
    expect((await addWith(token, second)).status).toBe(200);
    expect((await addWith(token, third)).status).toBe(200);
    const handles = [first, second, third].map((a) => a.credentials[0]?.userHandle);
    expect(new Set(handles).size).toBe(1);

    const { post } = await settingsOf(token);
    const hex = Buffer.from(second.credentials[0]?.id ?? []).toString("hex");
    expect((await post({ method: "passkey", passkey_remove: hex })).status).toBe(200);
    const stored = await adminIdentity(id);
    const handle = Buffer.from(handles[0] ?? "", "base64url").toString("utf8");
    expect(stored.credentials.passkey?.identifiers).toEqual([handle]);
    expect(
      (stored.credentials.passkey?.config as { credentials: unknown[] }).credentials,
    ).toHaveLength(2);
    expect((await signIn(first)).answer.status).toBe(200);
    refusedWith((await signIn(second)).answer, 4000043);
    expect((await signIn(third)).answer.status).toBe(200);
  });

  it("refuses a key whose algorithm does not fit its type (an EC2 key labelled RS256)", async () => {
    const flow = await registrationFlow();
    const createData = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
      credentialOptions: never;
    };
    const mislabelled = new SoftwareAuthenticator(origin);
    const answer = await submit("registration", flow, {
      method: "passkey",
      traits: { email: "mislabelled-key@example.org" },
      passkey_register: JSON.stringify(
        mislabelled.register(createData.credentialOptions, { alg: -257 }),
      ),
    });
    refusedWith(answer, 4000043);
  });
});
