import type { LoginFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { messageIds } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
let apiFlowId: string;
beforeAll(async () => {
  ts = await startTestServer();
  apiFlowId = (await ts.native().createNativeLoginFlow()).id;
});
afterAll(async () => {
  await ts.stop();
});

const json = { "content-type": "application/json", accept: "application/json" };

describe("bad input gets Kratos' answers, never a 500", () => {
  it("renders an undecodable body into the flow as 4000001 (what Kratos does)", async () => {
    const malformed = await call(`${ts.publicUrl}/self-service/login?flow=${apiFlowId}`, {
      method: "POST",
      headers: json,
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect((malformed.body as LoginFlow).ui.messages?.[0]).toMatchObject({
      id: 4000001,
      text: "Unable to decode form as JSON.",
    });

    const wrongType = await call(`${ts.publicUrl}/self-service/login?flow=${apiFlowId}`, {
      method: "POST",
      headers: { "content-type": "text/plain", accept: "application/json" },
      body: "method=password",
    });
    expect(wrongType.status).toBe(400);
    expect(messageIds(wrongType.body as LoginFlow, "")).toEqual([4000001]);

    const empty = await call(`${ts.publicUrl}/self-service/login?flow=${apiFlowId}`, {
      method: "POST",
      headers: json,
    });
    expect(empty.status).toBe(400);
  });

  it("answers 400 for a missing or garbled flow id and 404 for an unknown one", async () => {
    for (const query of ["", "?flow=", "?flow=not-a-uuid"]) {
      const response = await call(`${ts.publicUrl}/self-service/login${query}`, {
        method: "POST",
        headers: json,
        body: "{}",
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        error: { code: 400, reason: "The flow query parameter is missing or malformed." },
      });
    }
    const unknown = await call(
      `${ts.publicUrl}/self-service/registration?flow=7b1e5c3a-1111-4222-8333-444455556666`,
      { method: "POST", headers: json, body: "{}" },
    );
    expect(unknown.status).toBe(404);
    const garbledGet = await call(`${ts.publicUrl}/self-service/login/flows?id=garbled`);
    expect(garbledGet.status).toBe(404);
  });

  it("answers 413 for a body over 64 KiB", async () => {
    const response = await call(`${ts.publicUrl}/self-service/login?flow=${apiFlowId}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ method: "password", identifier: "x".repeat(70 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ error: { code: 413, status: "Payload Too Large" } });
  });

  it("answers 405 for a known path with the wrong method and 404 for an unknown path", async () => {
    const wrongMethod = await fetch(`${ts.publicUrl}/self-service/login/browser`, {
      method: "DELETE",
    });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toMatchObject({ error: { code: 405 } });
    const unknown = await fetch(`${ts.publicUrl}/no/such/route`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 404, status: "Not Found" } });
  });

  it("answers malformed JSON on the admin API with 400", async () => {
    const response = await call(`${ts.adminUrl}/admin/identities`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 400, status: "Bad Request" } });
  });

  it("refuses an unknown submit method with 4010002", async () => {
    const response = await call(`${ts.publicUrl}/self-service/login?flow=${apiFlowId}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ method: "carrier-pigeon" }),
    });
    expect(response.status).toBe(400);
    expect(messageIds(response.body as LoginFlow, "")).toEqual([4010002]);
  });
});
