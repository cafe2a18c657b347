import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CodeFlowStrategy } from "../code-flow.ts";
import { inputNode, upsertNode } from "../../ui/nodes.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// A verification (or recovery) method is one more entry in its flow kind's strategies: the flow
// offers its form and hands it the submissions it is responsible for. A stand-in "link" strategy
// (no real link sending) is added here; the code strategy keeps its own submissions.

const linkStrategy: CodeFlowStrategy = {
  id: "link",
  group: "link",
  responsible: (body) => body.string("method") === "link",
  populate(_ctx, _request, _reply, flow) {
    upsertNode(flow.ui, inputNode({ name: "link_email", type: "email", group: "link", value: "" }));
  },
  // A reply is thenable, so a strategy answers from an async function, as the real ones do.
  async submit({ reply, flow, body }) {
    return reply.send({ handled_by: "link", flow: flow.id, email: body.string("email") });
  },
};

vi.mock("./strategies.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("./strategies.ts")>();
  return {
    verificationStrategies: () => [...original.verificationStrategies(), linkStrategy],
  };
});

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

async function submit(flowId: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${ts.publicUrl}/self-service/verification?flow=${flowId}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
}

describe("a verification method added to the flow kind's strategies", () => {
  it("adds its form to a new flow and takes only the submissions it is responsible for", async () => {
    const flow = await ts.native().createNativeVerificationFlow();
    const names = flow.ui.nodes.map((n) => [n.group, (n.attributes as { name: string }).name]);
    expect(names).toContainEqual(["link", "link_email"]);
    expect(names).toContainEqual(["code", "email"]);

    const link = await submit(flow.id, { method: "link", email: "someone@example.org" });
    expect(link.status).toBe(200);
    expect(await link.json()).toEqual({
      handled_by: "link",
      flow: flow.id,
      email: "someone@example.org",
    });

    const code = await submit(flow.id, { method: "code", email: "someone@example.org" });
    expect(code.status).toBe(200);
    expect(((await code.json()) as { state: string }).state).toBe("sent_email");

    const none = await submit(flow.id, { method: "webauthn" });
    expect(none.status).toBe(400);
    expect(JSON.stringify(await none.json())).toContain("4010006");
  });
});
