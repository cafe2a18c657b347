import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { randomUUID } from "node:crypto";
import type { RegistrationStrategy } from "../../methods/registration-strategy.ts";
import { runMethodStep } from "../../methods/method-step.ts";
import { buildIdentity } from "../../methods/profile/build-identity.ts";
import { inputNode, upsertNode } from "../../ui/nodes.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// Adding a registration method is its strategy plus one registry line: the flow offers its form
// and hands it the submissions it is responsible for, then signs the new identity in with it.
// A stand-in "passkey" strategy (no real WebAuthn) is added to the registry here.

const passkeyStrategy: RegistrationStrategy = {
  id: "passkey",
  group: "passkey",
  responsible: (body) => body.string("method") === "passkey",
  populate(_ctx, flow) {
    upsertNode(
      flow.ui,
      inputNode({ name: "passkey_register", type: "hidden", group: "passkey", value: "" }),
    );
  },
  submit: (step) =>
    runMethodStep(
      step,
      {
        fields: [
          { name: "csrf_token", type: "string" },
          { name: "method", type: "string" },
          { name: "traits", type: "object" },
        ],
      },
      (values) => {
        const now = step.ctx.now();
        const identity = buildIdentity(step.ctx, values.traits as Record<string, unknown>, now);
        identity.credentials.push({
          id: randomUUID(),
          type: "passkey",
          identifiers: [randomUUID()],
          config: {},
          version: 0,
          createdAt: now,
          updatedAt: now,
        });
        return Promise.resolve(identity);
      },
    ),
};

vi.mock("../../methods/registration-strategies.ts", async (importOriginal) => {
  const original =
    await importOriginal<typeof import("../../methods/registration-strategies.ts")>();
  return { registrationStrategies: () => [...original.registrationStrategies(), passkeyStrategy] };
});

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

describe("a registration method added to the registry", () => {
  it("adds its form to a new flow, takes its submissions and signs the identity in with it", async () => {
    const api = ts.native();
    const flow = await api.createNativeRegistrationFlow();
    const names = flow.ui.nodes.map((n) => [n.group, (n.attributes as { name: string }).name]);
    expect(names).toContainEqual(["passkey", "passkey_register"]);
    expect(names).toContainEqual(["password", "password"]);

    const result = await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: "passkey",
        traits: { email: "passkey-user@example.org" },
      } as never,
    });
    expect(result.session_token).toEqual(expect.any(String));
    expect(result.identity.traits).toEqual({ email: "passkey-user@example.org" });
    expect(result.session?.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["passkey", "aal1"],
    ]);
    const stored = await ts.admin().getIdentity({ id: result.identity.id });
    expect(stored.traits).toEqual({ email: "passkey-user@example.org" });
  });
});
