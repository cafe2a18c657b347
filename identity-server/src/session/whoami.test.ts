import { ResponseError } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
let token: string;
let identityId: string;
beforeAll(async () => {
  ts = await startTestServer();
  ({ token, identityId } = await registerNative(ts, "whoami@example.com"));
});
afterAll(async () => {
  await ts.stop();
});

describe("GET /sessions/whoami", () => {
  it("answers 401 in Kratos' shape without a session", async () => {
    const response = await call(`${ts.publicUrl}/sessions/whoami`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      error: {
        code: 401,
        status: "Unauthorized",
        reason: "No valid session credentials found in the request.",
        message: "The request could not be authorized",
      },
    });
  });

  it("accepts X-Session-Token and Authorization: Bearer and names the identity in a header", async () => {
    for (const headers of [{ "x-session-token": token }, { authorization: `Bearer ${token}` }]) {
      const response = await call(`${ts.publicUrl}/sessions/whoami`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-kratos-authenticated-identity-id")).toBe(identityId);
      expect(response.body).toMatchObject({
        active: true,
        authenticator_assurance_level: "aal1",
        identity: { id: identityId, traits: { email: "whoami@example.com" } },
      });
      expect(JSON.stringify(response.body)).not.toContain("hashed_password");
    }
  });

  it("records the client IP forwarded by the local proxy and the User-Agent", async () => {
    const api = ts.native();
    const flow = await api.createNativeLoginFlow();
    const login = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": "203.0.113.7",
        "user-agent": "TestBrowser/1.0",
      },
      body: JSON.stringify({
        method: "password",
        identifier: "whoami@example.com",
        password: "correct-Horse-battery-2-staple",
      }),
    });
    expect(login.body).toMatchObject({
      session: {
        devices: [{ ip_address: "203.0.113.7", user_agent: "TestBrowser/1.0", location: "" }],
      },
    });
  });

  it("rejects a forged session cookie and an expired session", async () => {
    const forged = await call(`${ts.publicUrl}/sessions/whoami`, {
      headers: { cookie: `ory_kratos_session=${token}.forged` },
    });
    expect(forged.status).toBe(401);

    ts.advanceClock(25 * 3_600_000);
    try {
      await expect(ts.native().toSession({ xSessionToken: token })).rejects.toBeInstanceOf(
        ResponseError,
      );
    } finally {
      ts.advanceClock(-25 * 3_600_000);
    }
  });
});
