import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

describe("x-correlation-id", () => {
  it("keeps the caller's correlation id (it is the request id in the logs) and echoes it", async () => {
    const response = await fetch(`${ts.publicUrl}/health/alive`, {
      headers: { "x-correlation-id": "portal-req-42" },
    });
    expect(response.headers.get("x-correlation-id")).toBe("portal-req-42");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("makes one up when the caller sends none", async () => {
    const response = await fetch(`${ts.adminUrl}/health/ready`);
    expect(response.headers.get("x-correlation-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
