import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiNode } from "@ory/client-fetch";
import { call, type TestResponse } from "../../test-support/http-client.ts";
import { inputAttributes, messageIds } from "../../test-support/flow-helpers.ts";
import { SoftwareAuthenticator } from "../../test-support/software-authenticator.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// A passkey sign-in racing settings: the sign-in is held right after its signature verified (the
// moment the old code had the identity's passkey list in hand), settings change the list, then the
// sign-in goes on. The sign-in may only write its own passkey's counter.

interface Gate {
  reached: () => void;
  release: Promise<void>;
}
const gates: Gate[] = [];
const registrationGates: Gate[] = [];

vi.mock("../webauthn-base/ceremonies.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../webauthn-base/ceremonies.ts")>();
  return {
    ...actual,
    async verifyAuthentication(...args: Parameters<typeof actual.verifyAuthentication>) {
      const verified = await actual.verifyAuthentication(...args);
      const gate = gates.shift();
      if (gate) {
        gate.reached();
        await gate.release;
      }
      return verified;
    },
    async verifyRegistration(...args: Parameters<typeof actual.verifyRegistration>) {
      const verified = await actual.verifyRegistration(...args);
      const gate = registrationGates.shift();
      if (gate) {
        gate.reached();
        await gate.release;
      }
      return verified;
    },
  };
});

/** Holds the next verified assertion (or attestation); `held` settles once it is held. */
function holdNextAssertion(queue = gates) {
  let reached!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  queue.push({ reached, release: new Promise<void>((resolve) => (release = resolve)) });
  return { held, release };
}

const origin = "http://localhost:3000";
const json = { "content-type": "application/json", accept: "application/json" };
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

interface Flow {
  id: string;
  ui: { nodes: UiNode[]; messages?: { id: number }[] };
}

function nodeValue(flow: Flow, name: string): string {
  const value: unknown = inputAttributes(flow, name)?.value;
  if (typeof value !== "string") throw new Error(`the flow has no ${name} value`);
  return value;
}

async function getJson<T>(url: string, headers: Record<string, string> = json): Promise<T> {
  const response = await call(url, { headers });
  expect(response.status, response.text).toBe(200);
  return response.body as T;
}

const post = (url: string, body: unknown, headers: Record<string, string> = json) =>
  call(url, { method: "POST", headers, body: JSON.stringify(body) });

async function signUp(authenticator: SoftwareAuthenticator, email: string) {
  const flow = await getJson<Flow>(`${ts.publicUrl}/self-service/registration/api`);
  const createData = JSON.parse(nodeValue(flow, "passkey_create_data")) as {
    credentialOptions: { publicKey: never };
  };
  const answer = await post(`${ts.publicUrl}/self-service/registration?flow=${flow.id}`, {
    method: "passkey",
    traits: { email },
    passkey_register: JSON.stringify(authenticator.register(createData.credentialOptions)),
  });
  expect(answer.status, answer.text).toBe(200);
  const body = answer.body as { session_token: string; identity: { id: string } };
  return { headers: { ...json, "x-session-token": body.session_token }, id: body.identity.id };
}

/** Answers a new login flow with the authenticator's passkey (the counter forced if given). */
async function signIn(authenticator: SoftwareAuthenticator, counter?: number) {
  const flow = await getJson<Flow>(`${ts.publicUrl}/self-service/login/api`);
  const options = JSON.parse(nodeValue(flow, "passkey_challenge")) as { publicKey: never };
  const assertion = authenticator.authenticate(options, counter === undefined ? {} : { counter });
  return post(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "passkey",
    passkey_login: JSON.stringify(assertion),
  });
}

async function settings(headers: Record<string, string>, body: (flow: Flow) => unknown) {
  const flow = await getJson<Flow>(`${ts.publicUrl}/self-service/settings/api`, headers);
  return post(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, body(flow), headers);
}

function addPasskey(headers: Record<string, string>, authenticator: SoftwareAuthenticator) {
  return settings(headers, (flow) => ({
    method: "passkey",
    passkey_settings_register: JSON.stringify(
      authenticator.register(JSON.parse(nodeValue(flow, "passkey_create_data")) as never),
    ),
  }));
}

function hexId(authenticator: SoftwareAuthenticator): string {
  return Buffer.from(authenticator.credentials[0]?.id ?? []).toString("hex");
}

async function storedPasskeys(id: string) {
  const identity = await getJson<{
    credentials: { passkey?: { identifiers: string[]; config: { credentials: { id: string }[] } } };
  }>(`${ts.adminUrl}/admin/identities/${id}?include_credential=passkey`);
  return identity.credentials.passkey;
}

function expectStatus(answer: TestResponse, status: number) {
  expect(answer.status, answer.text).toBe(status);
}

describe("a passkey sign-in racing settings", () => {
  it("does not bring back a passkey removed while it was being verified", async () => {
    const first = new SoftwareAuthenticator(origin);
    const second = new SoftwareAuthenticator(origin);
    const { headers, id } = await signUp(first, "race-remove@example.org");
    expectStatus(await addPasskey(headers, second), 200);

    const { held, release } = holdNextAssertion();
    const signingIn = signIn(first);
    await held;
    const removed = await settings(headers, () => ({
      method: "passkey",
      passkey_remove: hexId(first),
    }));
    expectStatus(removed, 200);
    release();
    const answer = await signingIn;
    expectStatus(answer, 400);
    expect(messageIds(answer.body as never, "")).toEqual([4000043]);

    expect((await storedPasskeys(id))?.config.credentials).toHaveLength(1);
    expectStatus(await signIn(first), 400);
    expectStatus(await signIn(second), 200);
  });

  it("does not lose a passkey added while it was being verified", async () => {
    const first = new SoftwareAuthenticator(origin);
    const second = new SoftwareAuthenticator(origin);
    const { headers, id } = await signUp(first, "race-add@example.org");

    const { held, release } = holdNextAssertion();
    const signingIn = signIn(first);
    await held;
    expectStatus(await addPasskey(headers, second), 200);
    release();
    expectStatus(await signingIn, 200);

    expect((await storedPasskeys(id))?.config.credentials).toHaveLength(2);
    expectStatus(await signIn(second), 200);
  });

  it("lets only one of two answers with the same counter through", async () => {
    const authenticator = new SoftwareAuthenticator(origin);
    await signUp(authenticator, "race-counter@example.org");
    const one = holdNextAssertion();
    const two = holdNextAssertion();
    const answers = [signIn(authenticator, 7), signIn(authenticator, 7)];
    await Promise.all([one.held, two.held]);
    one.release();
    two.release();
    const statuses = (await Promise.all(answers)).map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400]);
  });
});

describe("passkey settings racing each other", () => {
  it("adds a passkey to the list as stored when it is saved, keeping a removal made meanwhile", async () => {
    const first = new SoftwareAuthenticator(origin);
    const second = new SoftwareAuthenticator(origin);
    const third = new SoftwareAuthenticator(origin);
    const { headers, id } = await signUp(first, "race-settings@example.org");
    expectStatus(await addPasskey(headers, second), 200);

    const { held, release } = holdNextAssertion(registrationGates);
    const adding = addPasskey(headers, third);
    await held;
    const removed = await settings(headers, () => ({
      method: "passkey",
      passkey_remove: hexId(first),
    }));
    expectStatus(removed, 200);
    release();
    expectStatus(await adding, 200);

    const stored = await storedPasskeys(id);
    expect(stored?.config.credentials).toHaveLength(2);
    expectStatus(await signIn(first), 400);
    expectStatus(await signIn(second), 200);
    expectStatus(await signIn(third), 200);
  });
});
