import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Regression found by the fuzzer: a repeated query parameter (`?recipient=a&recipient=b`) reached
// handlers as an array and ended in a 500. Like Go's `Query().Get`, the first value counts; the
// parameters Kratos reads as lists (expand, ids, include_credential) keep every value.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

describe("repeated query parameters", () => {
  it("filters courier messages by the first recipient instead of failing", async () => {
    const response = await fetch(
      `${ts.adminUrl}/admin/courier/messages?recipient=a@example.org&recipient=b@example.org&status=sent&status=x`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it("reads a repeated flow id as its first value", async () => {
    const flow = await ts.native().createNativeLoginFlow();
    const response = await fetch(
      `${ts.publicUrl}/self-service/login/flows?id=${flow.id}&id=not-a-uuid`,
      { headers: { accept: "application/json" } },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(flow.id);
  });

  it("keeps every value of a list parameter", async () => {
    const a = await ts.admin().createIdentity({
      createIdentityBody: { schema_id: "default", traits: { email: "list-a@example.org" } },
    });
    const b = await ts.admin().createIdentity({
      createIdentityBody: { schema_id: "default", traits: { email: "list-b@example.org" } },
    });
    const response = await fetch(`${ts.adminUrl}/admin/identities?ids=${a.id}&ids=${b.id}`);
    expect(response.status).toBe(200);
    const ids = ((await response.json()) as { id: string }[]).map((identity) => identity.id);
    expect(ids.sort()).toEqual([a.id, b.id].sort());
  });
});
