import type { LoginFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../test-support/http-client.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

describe("the error UI", () => {
  it("stores a form post's CSRF failure and sends the browser to <ui>/error?id=", async () => {
    const jar = new CookieJar();
    const flow = (
      await call(`${ts.publicUrl}/self-service/login/browser`, {
        jar,
        headers: { accept: "application/json" },
      })
    ).body as LoginFlow;
    const post = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      jar,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        method: "password",
        identifier: "a@example.com",
        password: "x",
        csrf_token: "bad",
      }),
    });
    expect(post.status).toBe(303);
    const location = new URL(post.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("http://localhost:3000/error");

    const id = location.searchParams.get("id") ?? "";
    const stored = await ts.browser().api.getFlowError({ id });
    expect(stored.id).toBe(id);
    expect(stored.error).toMatchObject({ id: "security_csrf_violation", code: 403 });
  });

  it("redirects a browser with a forbidden return_to to the error UI", async () => {
    const response = await call(
      `${ts.publicUrl}/self-service/registration/browser?return_to=https://evil.example/`,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/error\?id=/);
  });

  it("answers 404 for an unknown error id and a canned 500 for stub:500", async () => {
    const missing = await call(
      `${ts.publicUrl}/self-service/errors?id=9a1b2c3d-0000-4000-8000-000000000000`,
    );
    expect(missing.status).toBe(404);
    const stub = await call(`${ts.publicUrl}/self-service/errors?id=stub:500`);
    expect(stub.status).toBe(200);
  });
});
