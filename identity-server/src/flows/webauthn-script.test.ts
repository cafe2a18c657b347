import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { SoftwareAuthenticator } from "../test-support/software-authenticator.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// The script runs in a bare VM context with a stand-in page (named inputs in one form) and a
// stand-in navigator.credentials backed by the software authenticator: what it submits is then
// posted to the server like the browser's form post, so script and server are tested together.

let ts: TestServer;
let script: string;
beforeAll(async () => {
  ts = await startTestServer();
  const response = await ts.native().getWebAuthnJavaScriptRaw();
  expect(response.raw.status).toBe(200);
  expect(response.raw.headers.get("content-type")).toBe("text/javascript; charset=UTF-8");
  script = await response.value();
});
afterAll(async () => {
  await ts.stop();
});

const origin = "http://localhost:3000";

interface FakeInput {
  name: string;
  type: string;
  value: string;
  form: FakeForm;
}

class FakeForm {
  readonly inputs: FakeInput[] = [];
  submitted: Record<string, string> | undefined;
  add(name: string, value = "", type = "hidden"): FakeInput {
    const input = { name, type, value, form: this };
    this.inputs.push(input);
    return input;
  }
  appendChild(input: FakeInput): void {
    input.form = this;
    this.inputs.push(input);
  }
  querySelector(selector: string): FakeInput | null {
    const name = /name="([^"]+)"/.exec(selector)?.[1];
    return this.inputs.find((i) => i.name === name && i.type === "hidden") ?? null;
  }
  submit(): void {
    this.submitted = Object.fromEntries(this.inputs.map((i) => [i.name, i.value]));
  }
}

const bytes = (base64url: string) => new Uint8Array(Buffer.from(base64url, "base64url")).buffer;
const b64url = (value: unknown) => Buffer.from(value as Uint8Array).toString("base64url");

/** navigator.credentials answering with the software authenticator, as a browser would. */
function fakeCredentials(authenticator: SoftwareAuthenticator, calls: unknown[]) {
  const publicKeyJson = (options: { publicKey: Record<string, unknown> }) => {
    const pk = options.publicKey;
    const ids = (list: unknown) =>
      ((list as { id: Uint8Array; type: string }[] | undefined) ?? []).map((c) => ({
        ...c,
        id: b64url(c.id),
      }));
    return {
      ...pk,
      challenge: b64url(pk.challenge),
      ...(pk.user ? { user: { ...pk.user, id: b64url((pk.user as { id: unknown }).id) } } : {}),
      allowCredentials: ids(pk.allowCredentials),
      excludeCredentials: ids(pk.excludeCredentials),
    };
  };
  return {
    create(options: { publicKey: Record<string, unknown> }) {
      calls.push({ create: options });
      const json = authenticator.register(publicKeyJson(options) as never);
      return Promise.resolve({
        id: json.id,
        rawId: bytes(json.rawId),
        type: json.type,
        authenticatorAttachment: "platform",
        getClientExtensionResults: () => ({}),
        response: {
          clientDataJSON: bytes(json.response.clientDataJSON),
          attestationObject: bytes(json.response.attestationObject),
          getTransports: () => ["internal"],
        },
      });
    },
    get(options: { publicKey: Record<string, unknown>; mediation?: string }) {
      calls.push({ get: options });
      const json = authenticator.authenticate(publicKeyJson(options));
      return Promise.resolve({
        id: json.id,
        rawId: bytes(json.rawId),
        type: json.type,
        response: {
          clientDataJSON: bytes(json.response.clientDataJSON),
          authenticatorData: bytes(json.response.authenticatorData),
          signature: bytes(json.response.signature),
          userHandle: bytes(json.response.userHandle ?? ""),
        },
      });
    },
  };
}

/** Loads the script into a page holding one form; returns its window. */
function page(form: FakeForm, authenticator: SoftwareAuthenticator, calls: unknown[]) {
  const window: Record<string, unknown> = {
    PublicKeyCredential: { isConditionalMediationAvailable: () => Promise.resolve(true) },
  };
  runInNewContext(script, {
    window,
    atob,
    btoa,
    AbortController,
    console,
    navigator: { credentials: fakeCredentials(authenticator, calls) },
    document: {
      getElementsByName: (name: string) => form.inputs.filter((i) => i.name === name),
      createElement: () => ({ type: "", name: "", value: "" }),
    },
  });
  return window as Record<string, (...args: unknown[]) => Promise<void>>;
}

async function flowJson(kind: string) {
  const response = await call(`${ts.publicUrl}/self-service/${kind}/api`, {
    headers: { accept: "application/json" },
  });
  return response.body as {
    id: string;
    ui: { nodes: { attributes: { name?: string; value?: unknown } }[] };
  };
}

function value(flow: Awaited<ReturnType<typeof flowJson>>, name: string): string {
  const found = flow.ui.nodes.find((n) => n.attributes.name === name)?.attributes.value;
  if (typeof found !== "string") throw new Error(`the flow has no ${name} value`);
  return found;
}

async function post(kind: string, flowId: string, body: Record<string, string>) {
  return call(`${ts.publicUrl}/self-service/${kind}?flow=${flowId}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      ...body,
      ...(body["traits.email"] ? { traits: { email: body["traits.email"] } } : {}),
    }),
  });
}

describe("GET /.well-known/ory/webauthn.js", () => {
  it("defines Kratos' functions once", () => {
    const window = page(new FakeForm(), new SoftwareAuthenticator(origin), []);
    for (const name of [
      "oryWebAuthnLogin",
      "oryWebAuthnRegistration",
      "oryPasskeySettingsRegistration",
      "oryPasskeyLogin",
      "oryPasskeyRegistration",
      "oryPasskeyLoginAutocompleteInit",
    ]) {
      expect(typeof window[name]).toBe("function");
      expect(window[`__${name}`]).toBe(window[name]);
    }
    expect(window.__oryWebAuthnInitialized).toBe(true);
    const before = window.oryPasskeyLogin;
    runInNewContext(script, { window });
    expect(window.oryPasskeyLogin).toBe(before);
  });

  it("signs up with a passkey named after the typed e-mail, then signs in with autofill and the button", async () => {
    const authenticator = new SoftwareAuthenticator(origin);
    const calls: unknown[] = [];

    const registration = await flowJson("registration");
    const signUp = new FakeForm();
    signUp.add("traits.email", "script-passkey@example.org", "email");
    signUp.add("passkey_create_data", value(registration, "passkey_create_data"));
    signUp.add("passkey_register");
    await page(signUp, authenticator, calls).oryPasskeyRegistration?.();
    expect(calls[0]).toMatchObject({
      create: { publicKey: { user: { name: "script-passkey@example.org" } } },
    });
    expect(signUp.submitted?.method).toBe("passkey");
    const registered = await post("registration", registration.id, signUp.submitted ?? {});
    expect(registered.status, registered.text).toBe(200);

    for (const start of ["oryPasskeyLoginAutocompleteInit", "oryPasskeyLogin"]) {
      const login = await flowJson("login");
      const signIn = new FakeForm();
      signIn.add("identifier", "", "text");
      signIn.add("passkey_challenge", value(login, "passkey_challenge"));
      signIn.add("passkey_login");
      await page(signIn, authenticator, calls)[start]?.();
      expect(signIn.submitted?.method).toBe("passkey");
      const answer = await post("login", login.id, signIn.submitted ?? {});
      expect(answer.status, answer.text).toBe(200);
    }
    expect(calls[1]).toMatchObject({ get: { mediation: "conditional" } });
  });

  it("answers the security-key nodes: webauthn_register, then webauthn_login with method=webauthn", async () => {
    const authenticator = new SoftwareAuthenticator(origin);
    const calls: unknown[] = [];
    const form = new FakeForm();
    form.add("webauthn_register");
    form.add("webauthn_login");
    const window = page(form, authenticator, calls);
    const challenge = Buffer.from("c".repeat(32)).toString("base64url");
    await window.oryWebAuthnRegistration?.({
      publicKey: {
        challenge,
        rp: { id: "localhost", name: "localhost" },
        user: { id: "AQID", name: "ada", displayName: "ada" },
        pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      },
    });
    const registered = JSON.parse(form.submitted?.webauthn_register ?? "{}") as {
      id: string;
      response: { attestationObject: string; clientDataJSON: string };
    };
    expect(registered.response.attestationObject).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(form.submitted?.method).toBe("webauthn");
    await window.oryWebAuthnLogin?.({
      publicKey: {
        challenge,
        rpId: "localhost",
        allowCredentials: [{ type: "public-key", id: registered.id }],
      },
    });
    const assertion = JSON.parse(form.submitted?.webauthn_login ?? "{}") as {
      id: string;
      response: { clientDataJSON: string };
    };
    expect(assertion.id).toBe(registered.id);
    const clientData = JSON.parse(
      Buffer.from(assertion.response.clientDataJSON, "base64url").toString(),
    ) as {
      type: string;
      challenge: string;
    };
    expect(clientData).toMatchObject({ type: "webauthn.get", challenge });
    expect(form.submitted?.method).toBe("webauthn");
  });
});
