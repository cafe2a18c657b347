import { ResponseError, type LoginFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../../test-support/http-client.ts";
import {
  csrfTokenOf,
  inputAttributes,
  messageIds,
  registerNative,
  strongPassword,
} from "../../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await registerNative(ts, "grace@example.com");
});
afterAll(async () => {
  await ts.stop();
});

async function rejected(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ResponseError) {
      const text = await error.response.text();
      return {
        status: error.response.status,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
    }
    throw error;
  }
  throw new Error("the call unexpectedly succeeded");
}

describe("login flow", () => {
  it("offers identifier, password and the password submit, as Kratos' unified style", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserLoginFlow();
    expect(flow.refresh).toBe(false);
    expect(flow.requested_aal).toBe("aal1");
    expect(flow.ui.nodes.map((n) => (n.attributes as { name: string }).name)).toEqual([
      "csrf_token",
      "identifier",
      "passkey_login_trigger",
      "passkey_login",
      "passkey_challenge",
      "password",
      "method",
    ]);
    expect(inputAttributes(flow, "identifier")).toMatchObject({
      type: "text",
      value: "",
      required: true,
    });
    expect(flow.ui.nodes[1]?.meta.label).toEqual({
      id: 1070002,
      text: "E-Mail",
      type: "info",
      context: { name: "traits.email", title: "E-Mail" },
    });
    expect(inputAttributes(flow, "password")?.autocomplete).toBe("current-password");
    expect(flow.ui.nodes[6]?.meta.label?.id).toBe(1010022);
  });

  it("signs a browser in (identifier is case-insensitive) and points it at return_to", async () => {
    const { api, jar } = ts.browser();
    const flow = await api.createBrowserLoginFlow({ returnTo: "http://localhost:4000/" });
    expect(flow.return_to).toBe("http://localhost:4000/");
    const result = await api.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: {
        method: "password",
        csrf_token: csrfTokenOf(flow),
        identifier: "GRACE@example.com",
        password: strongPassword,
      },
    });
    expect(result.session_token).toBeUndefined();
    expect(result.session.identity?.traits).toEqual({ email: "grace@example.com" });
    expect(result.continue_with).toEqual([
      { action: "redirect_browser_to", redirect_browser_to: "http://localhost:4000/" },
    ]);
    expect(jar.get("ory_kratos_session")).toBeDefined();
  });

  it("gives native apps a session token", async () => {
    const api = ts.native();
    const flow = await api.createNativeLoginFlow();
    const result = await api.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: "grace@example.com",
        password: strongPassword,
      },
    });
    expect(result.session_token).toMatch(/^ory_st_/);
    expect(result.session.authenticator_assurance_level).toBe("aal1");
  });

  it("answers a wrong password and an unknown user identically (4000006), keeping the identifier", async () => {
    for (const identifier of ["grace@example.com", "nobody@example.com"]) {
      const { api } = ts.browser();
      const flow = await api.createBrowserLoginFlow();
      const { status, body } = await rejected(
        api.updateLoginFlow({
          flow: flow.id,
          updateLoginFlowBody: {
            method: "password",
            csrf_token: csrfTokenOf(flow),
            identifier,
            password: "not-the-password-1",
          },
        }),
      );
      const failed = body as LoginFlow;
      expect(status).toBe(400);
      expect(messageIds(failed, "")).toEqual([4000006]);
      expect(inputAttributes(failed, "identifier")?.value).toBe(identifier);
      expect(inputAttributes(failed, "password")?.value).toBeUndefined();
      expect(csrfTokenOf(failed)).not.toBe(csrfTokenOf(flow));
    }
  });

  it("marks missing identifier and password with 4000002", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserLoginFlow();
    const { body } = await rejected(
      api.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { method: "password", csrf_token: csrfTokenOf(flow) } as never,
      }),
    );
    expect(messageIds(body as LoginFlow, "identifier")).toEqual([4000002]);
    expect(messageIds(body as LoginFlow, "password")).toEqual([4000002]);
  });

  it("refuses a browser submission without the anti-CSRF cookie or with a wrong token", async () => {
    const { api, jar } = ts.browser();
    const flow = await api.createBrowserLoginFlow();
    const body = {
      method: "password",
      identifier: "grace@example.com",
      password: strongPassword,
    } as const;

    const wrong = await rejected(
      api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { ...body, csrf_token: "AAAA" } }),
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ error: { id: "security_csrf_violation", code: 403 } });

    jar.cookies.clear();
    const noCookie = await rejected(
      api.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: { ...body, csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(noCookie.body).toMatchObject({
      error: {
        id: "security_csrf_violation",
        details: { reject_reason: "The HTTP Cookie Header is empty or not set." },
      },
    });
  });

  it("refuses an API flow submission that carries cookies or an Origin (400, rendered in the flow)", async () => {
    const api = ts.native();
    const flow = await api.createNativeLoginFlow();
    const response = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "foo=bar" },
      body: JSON.stringify({
        method: "password",
        identifier: "grace@example.com",
        password: strongPassword,
      }),
    });
    expect(response.status).toBe(400);
    expect(messageIds(response.body as LoginFlow, "")).toEqual([4000001]);

    const withOrigin = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: JSON.stringify({
        method: "password",
        identifier: "grace@example.com",
        password: strongPassword,
      }),
    });
    expect(withOrigin.status).toBe(400);
  });

  it("checks the anti-CSRF cookie when a browser flow is fetched", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserLoginFlow();
    expect((await api.getLoginFlow({ id: flow.id })).id).toBe(flow.id);
    const stranger = await call(`${ts.publicUrl}/self-service/login/flows?id=${flow.id}`);
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({ error: { id: "security_csrf_violation" } });
    // Like Kratos' middleware, a browser without the anti-CSRF cookie is handed one.
    expect(stranger.headers.getSetCookie().join()).toMatch(/^csrf_token_[0-9a-f]{64}=/);
  });

  it("redirects HTML form posts: 303 to the UI on errors and to return_to on success", async () => {
    const jar = new CookieJar();
    const init = await call(
      `${ts.publicUrl}/self-service/login/browser?return_to=http://localhost:4000/x`,
      {
        jar,
      },
    );
    expect(init.status).toBe(303);
    const flowId = new URL(init.headers.get("location") ?? "").searchParams.get("flow") ?? "";
    const flow = (await call(`${ts.publicUrl}/self-service/login/flows?id=${flowId}`, { jar }))
      .body as LoginFlow;
    const post = (password: string) =>
      call(`${ts.publicUrl}/self-service/login?flow=${flowId}`, {
        jar,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          method: "password",
          csrf_token: csrfTokenOf(flow),
          identifier: "grace@example.com",
          password,
        }),
      });
    const wrong = await post("wrong-password-123");
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get("location")).toBe(`http://localhost:3000/login?flow=${flowId}`);
    const right = await post(strongPassword);
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("http://localhost:4000/x");
  });

  it("refuses return_to outside the allow-list", async () => {
    const { api } = ts.browser();
    const { status, body } = await rejected(
      api.createBrowserLoginFlow({ returnTo: "https://evil.example/" }),
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { id: "self_service_flow_return_to_forbidden" } });
  });

  it("with a session: init says session_already_available, refresh=true asks for the password again", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserLoginFlow();
    const first = await api.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: {
        method: "password",
        csrf_token: csrfTokenOf(flow),
        identifier: "grace@example.com",
        password: strongPassword,
      },
    });
    const already = await rejected(api.createBrowserLoginFlow());
    expect(already.status).toBe(400);
    expect(already.body).toMatchObject({ error: { id: "session_already_available" } });

    const refresh = await api.createBrowserLoginFlow({ refresh: true });
    expect(refresh.refresh).toBe(true);
    expect(messageIds(refresh, "")).toEqual([1010003]);
    expect(inputAttributes(refresh, "identifier")).toMatchObject({
      type: "hidden",
      value: "grace@example.com",
    });
    expect(refresh.ui.nodes.at(-1)?.meta.label?.id).toBe(1010001);
    const again = await api.updateLoginFlow({
      flow: refresh.id,
      updateLoginFlowBody: {
        method: "password",
        csrf_token: csrfTokenOf(refresh),
        identifier: "grace@example.com",
        password: strongPassword,
      },
    });
    expect(again.session.id).toBe(first.session.id);
    expect(again.session.authentication_methods).toHaveLength(2);
  });

  it("replaces an expired flow: 410 with use_flow_id for JSON, 303 to the new flow for forms", async () => {
    const { api, jar } = ts.browser();
    const flow = await api.createBrowserLoginFlow();
    ts.advanceClock(2 * 3_600_000);
    try {
      const expired = await rejected(
        api.updateLoginFlow({
          flow: flow.id,
          updateLoginFlowBody: {
            method: "password",
            csrf_token: csrfTokenOf(flow),
            identifier: "grace@example.com",
            password: strongPassword,
          },
        }),
      );
      expect(expired.status).toBe(410);
      const error = expired.body as { error: { id: string }; use_flow_id: string };
      expect(error.error.id).toBe("self_service_flow_expired");
      const replacement = await api.getLoginFlow({ id: error.use_flow_id });
      expect(messageIds(replacement, "")).toEqual([4010001]);

      const fetched = await call(`${ts.publicUrl}/self-service/login/flows?id=${flow.id}`, { jar });
      expect(fetched.status).toBe(410);

      const form = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
        jar,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ method: "password", csrf_token: csrfTokenOf(flow) }),
      });
      expect(form.status).toBe(303);
      expect(form.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/login\?flow=/);
      expect(form.headers.get("location")).not.toContain(flow.id);
    } finally {
      ts.advanceClock(-2 * 3_600_000);
    }
  });
});
