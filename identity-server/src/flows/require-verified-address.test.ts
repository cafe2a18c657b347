import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../test-support/http-client.ts";
import type { LoginFlow } from "@ory/client-fetch";
import {
  csrfTokenOf,
  failureOf,
  messageIds,
  registerNative,
  strongPassword,
} from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_REQUIRE_VERIFIED_ADDRESS: "true" });
});
afterAll(async () => {
  await ts.stop();
});

describe("IDENTITY_REQUIRE_VERIFIED_ADDRESS", () => {
  it("refuses JSON sign-in with 403 session_verified_address_required and where to verify", async () => {
    const { identityId } = await registerNative(ts, "unverified@example.com");
    const { api, jar } = ts.browser();
    const flow = await api.createBrowserLoginFlow();
    const refused = await failureOf(
      api.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: "password",
          identifier: "unverified@example.com",
          password: strongPassword,
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(refused.status).toBe(403);
    const body = refused.body as {
      error: { details: { continue_with: { flow: { id: string } }[] } };
    };
    const verificationId = body.error.details.continue_with[0]?.flow.id ?? "";
    expect(refused.body).toEqual({
      error: {
        id: "session_verified_address_required",
        code: 400,
        status: "Bad Request",
        reason:
          "Your account's email or phone address are not verified yet. Please check your email or phone inbox or re-request verification.",
        details: {
          continue_with: [
            {
              action: "show_verification_ui",
              flow: {
                id: verificationId,
                verifiable_address: "unverified@example.com",
                url: `http://localhost:3000/verification?flow=${verificationId}`,
              },
            },
          ],
        },
        message: "your email or phone address is not yet verified",
      },
    });
    expect(jar.get("ory_kratos_session")).toBeUndefined();
    // Nothing was issued behind the refusal either: only the registration's session exists.
    expect(await ts.admin().listIdentitySessions({ id: identityId })).toHaveLength(1);

    // The code sent with that flow verifies the address, after which sign-in works.
    const verification = await api.getVerificationFlow({ id: verificationId });
    expect(verification.state).toBe("sent_email");
    await api.updateVerificationFlow({
      flow: verificationId,
      updateVerificationFlowBody: {
        method: "code",
        code: await ts.latestCode("unverified@example.com"),
      },
    });
    const again = await api.createBrowserLoginFlow();
    const session = await api.updateLoginFlow({
      flow: again.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: "unverified@example.com",
        password: strongPassword,
        csrf_token: csrfTokenOf(again),
      },
    });
    expect(session.session.identity?.verifiable_addresses?.[0]?.verified).toBe(true);
  });

  it("sends an HTML form post to the verification UI instead of signing in", async () => {
    await registerNative(ts, "html-unverified@example.com");
    const jar = new CookieJar();
    const init = await call(`${ts.publicUrl}/self-service/login/browser`, { jar });
    const flowId = new URL(init.headers.get("location") ?? "").searchParams.get("flow") ?? "";
    const flow = await call(`${ts.publicUrl}/self-service/login/flows?id=${flowId}`, { jar });
    const post = await call(`${ts.publicUrl}/self-service/login?flow=${flowId}`, {
      jar,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        method: "password",
        identifier: "html-unverified@example.com",
        password: strongPassword,
        csrf_token: csrfTokenOf(flow.body as { ui: { nodes: never[] } }),
      }),
    });
    expect(post.status).toBe(303);
    expect(post.headers.get("location")).toMatch(
      /^http:\/\/localhost:3000\/verification\?flow=[0-9a-f-]{36}$/,
    );
    expect(jar.get("ory_kratos_session")).toBeUndefined();
  });
});

describe("IDENTITY_LEGACY_REQUIRE_VERIFIED_LOGIN_ERROR", () => {
  it("re-renders the login flow with 4000010 and sends no code", async () => {
    const legacy = await startTestServer({
      IDENTITY_REQUIRE_VERIFIED_ADDRESS: "true",
      IDENTITY_LEGACY_REQUIRE_VERIFIED_LOGIN_ERROR: "true",
    });
    try {
      await registerNative(legacy, "legacy@example.com");
      const sentBefore = (await legacy.messagesTo("legacy@example.com")).length;
      const { api, jar } = legacy.browser();
      const flow = await api.createBrowserLoginFlow();
      const refused = await failureOf(
        api.updateLoginFlow({
          flow: flow.id,
          updateLoginFlowBody: {
            method: "password",
            identifier: "legacy@example.com",
            password: strongPassword,
            csrf_token: csrfTokenOf(flow),
          },
        }),
      );
      expect(refused.status).toBe(400);
      expect(messageIds(refused.body as LoginFlow, "")).toEqual([4000010]);
      expect(jar.get("ory_kratos_session")).toBeUndefined();
      expect(await legacy.messagesTo("legacy@example.com")).toHaveLength(sentBefore);
    } finally {
      await legacy.stop();
    }
  });
});
