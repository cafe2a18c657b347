import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

const token = "admin-token-for-tests-0123456789";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_ADMIN_TOKEN: token });
});
afterAll(async () => {
  await ts.stop();
});

const adminPaths = [
  ["GET", "/admin/identities"],
  ["POST", "/admin/identities"],
  ["GET", "/admin/identities/1b0e5f3c-0000-4000-8000-000000000000"],
  ["GET", "/admin/sessions"],
  ["GET", "/admin/courier/messages"],
  ["POST", "/admin/recovery/code"],
] as const;

describe("IDENTITY_ADMIN_TOKEN", () => {
  it("refuses admin calls without the bearer token, or with another one, in the herodot shape", async () => {
    for (const [method, path] of adminPaths) {
      for (const authorization of [undefined, `Bearer ${token}x`, `Basic ${token}`, token]) {
        const response = await call(`${ts.adminUrl}${path}`, {
          method,
          headers: authorization ? { authorization } : {},
        });
        expect(response.status, `${method} ${path} ${authorization ?? "-"}`).toBe(401);
        expect(response.headers.get("www-authenticate")).toBe('Bearer realm="identity-admin"');
        expect(response.body).toMatchObject({
          error: {
            code: 401,
            status: "Unauthorized",
            message: "The request could not be authorized",
          },
        });
      }
    }
  });

  it("lets calls with the token through, whatever the scheme's case", async () => {
    const list = await call(`${ts.adminUrl}/admin/identities`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status).toBe(200);
    const lower = await call(`${ts.adminUrl}/admin/sessions`, {
      headers: { authorization: `bearer ${token}` },
    });
    expect(lower.status).toBe(200);
  });

  it("keeps the health probes and the public listener open", async () => {
    expect((await call(`${ts.adminUrl}/health/alive`)).status).toBe(200);
    // The spec only knows /health/*; the /admin prefixed probe is checked without it.
    expect((await fetch(`${ts.adminUrl}/admin/health/ready`)).status).toBe(200);
    const flow = await call(`${ts.publicUrl}/self-service/login/api`);
    expect(flow.status).toBe(200);
  });
});
