import { ResponseError, type RegistrationFlow } from "@ory/client-fetch";
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
});
afterAll(async () => {
  await ts.stop();
});

async function failedRegistration(
  body: Record<string, unknown>,
): Promise<{ status: number; flow: RegistrationFlow }> {
  const { api } = ts.browser();
  const flow = await api.createBrowserRegistrationFlow();
  try {
    await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: "password",
        csrf_token: csrfTokenOf(flow),
        ...body,
      } as never,
    });
  } catch (error) {
    if (error instanceof ResponseError) {
      return {
        status: error.response.status,
        flow: (await error.response.json()) as RegistrationFlow,
      };
    }
    throw error;
  }
  throw new Error("registration unexpectedly succeeded");
}

describe("registration flow", () => {
  it("offers the one-step form: csrf, email, password, phone, sign-up submit", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserRegistrationFlow();
    expect(flow.type).toBe("browser");
    expect(flow.state).toBe("choose_method");
    expect(flow.ui.action).toBe(
      `http://localhost:3000/api/kratos/self-service/registration?flow=${flow.id}`,
    );
    expect(flow.ui.nodes.map((n) => [n.group, (n.attributes as { name: string }).name])).toEqual([
      ["default", "csrf_token"],
      ["default", "traits.email"],
      ["default", "traits.phone"],
      ["passkey", "passkey_register_trigger"],
      ["passkey", "passkey_register"],
      ["passkey", "passkey_create_data"],
      ["password", "password"],
      ["password", "method"],
    ]);
    expect(inputAttributes(flow, "traits.email")).toMatchObject({
      type: "email",
      required: true,
      autocomplete: "email",
    });
    expect(inputAttributes(flow, "traits.phone")).toMatchObject({ type: "tel" });
    expect(inputAttributes(flow, "password")).toMatchObject({ autocomplete: "new-password" });
    expect(flow.ui.nodes[1]?.meta.label).toEqual({
      id: 1070002,
      text: "E-Mail",
      type: "info",
      context: { name: "traits.email", title: "E-Mail" },
    });
    expect(flow.ui.nodes[7]?.meta.label?.id).toBe(1040001);
  });

  it("registers, signs the browser in and answers like Kratos' SPA response", async () => {
    const { api, jar } = ts.browser();
    const flow = await api.createBrowserRegistrationFlow({
      returnTo: "http://localhost:4000/apps",
    });
    const result = await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: "password",
        csrf_token: csrfTokenOf(flow),
        password: strongPassword,
        traits: { email: "Ada@Example.com", phone: "+49 176 1234567" },
      },
    });
    expect(result.session_token).toBeUndefined();
    expect(result.identity.traits).toEqual({ email: "Ada@Example.com", phone: "+49 176 1234567" });
    // The auto verification hook sent a code to the first address only.
    expect(result.identity.verifiable_addresses?.map((a) => [a.value, a.via, a.status])).toEqual([
      ["ada@example.com", "email", "sent"],
      ["+491761234567", "sms", "pending"],
    ]);
    const verificationId = (result.continue_with?.[1] as { flow: { id: string } }).flow.id;
    expect(result.continue_with).toEqual([
      { action: "redirect_browser_to", redirect_browser_to: "http://localhost:4000/apps" },
      {
        action: "show_verification_ui",
        flow: {
          id: verificationId,
          verifiable_address: "ada@example.com",
          url: `http://localhost:3000/verification?flow=${verificationId}`,
        },
      },
    ]);
    const verification = await api.getVerificationFlow({ id: verificationId });
    expect(verification.state).toBe("sent_email");
    expect(verification.return_to).toBe("http://localhost:4000/apps");
    expect(await ts.latestCode("ada@example.com")).toMatch(/^\d{6}$/);
    expect(jar.get("ory_kratos_session")).toBeDefined();
    const session = await api.toSession();
    expect(session.identity?.id).toBe(result.identity.id);
    expect(session.authentication_methods?.[0]?.method).toBe("password");
  });

  it("gives native apps a session token and set_ory_session_token", async () => {
    const api = ts.native();
    const flow = await api.createNativeRegistrationFlow();
    expect(inputAttributes(flow, "csrf_token")).toBeUndefined();
    const result = await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: "password",
        password: strongPassword,
        traits: { email: "native@example.com" },
      },
    });
    expect(result.session_token).toMatch(/^ory_st_[A-Za-z0-9]{32}$/);
    const verificationId = (result.continue_with?.[0] as { flow: { id: string } }).flow.id;
    expect(result.continue_with).toEqual([
      {
        action: "show_verification_ui",
        flow: { id: verificationId, verifiable_address: "native@example.com" },
      },
      { action: "set_ory_session_token", ory_session_token: result.session_token },
    ]);
    const session = await api.toSession({ xSessionToken: result.session_token });
    expect(session.identity?.traits).toEqual({ email: "native@example.com" });
  });

  it("refuses a second account for the same email (4000007) and keeps the typed traits", async () => {
    await registerNative(ts, "taken@example.com");
    const { status, flow } = await failedRegistration({
      password: strongPassword,
      traits: { email: "TAKEN@example.com" },
    });
    expect(status).toBe(400);
    expect(messageIds(flow, "")).toEqual([4000007]);
    expect(inputAttributes(flow, "traits.email")?.value).toBe("TAKEN@example.com");
    expect(inputAttributes(flow, "password")?.value).toBeUndefined();
  });

  it("puts password-policy violations on the password node", async () => {
    const short = await failedRegistration({
      password: "short",
      traits: { email: "p1@example.com" },
    });
    expect(messageIds(short.flow, "password")).toEqual([4000032]);
    expect(short.flow.ui.nodes.find((n) => n.messages.length > 0)?.messages[0]?.context).toEqual({
      actual_length: 5,
      min_length: 12,
    });

    const similar = await failedRegistration({
      password: "similar.person@example.com",
      traits: { email: "similar.person@example.com" },
    });
    expect(messageIds(similar.flow, "password")).toEqual([4000031]);

    const common = await failedRegistration({
      password: "qwerty123456",
      traits: { email: "p3@example.com" },
    });
    expect(messageIds(common.flow, "password")).toEqual([4000034]);
  });

  it("reports missing fields and a malformed email on their nodes", async () => {
    const missing = await failedRegistration({});
    expect(missing.status).toBe(400);
    expect(messageIds(missing.flow, "traits.email")).toEqual([4000002]);
    expect(messageIds(missing.flow, "password")).toEqual([4000002]);

    const malformed = await failedRegistration({
      password: strongPassword,
      traits: { email: "not-an-email" },
    });
    expect(messageIds(malformed.flow, "traits.email")).toEqual([4000040]);
    expect(inputAttributes(malformed.flow, "traits.email")?.value).toBe("not-an-email");
  });

  it("accepts dotted JSON keys like a form post", async () => {
    // The SDK drops unknown keys, so this is sent as raw JSON the way a hand-written SPA might.
    const jar = new CookieJar();
    const flow = (
      await call(`${ts.publicUrl}/self-service/registration/browser`, {
        jar,
        headers: { accept: "application/json" },
      })
    ).body as RegistrationFlow;
    const result = await call(`${ts.publicUrl}/self-service/registration?flow=${flow.id}`, {
      jar,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        method: "password",
        csrf_token: csrfTokenOf(flow),
        password: strongPassword,
        "traits.email": "dotted@example.com",
      }),
    });
    expect(result.status).toBe(200);
    expect((result.body as { identity: { traits: unknown } }).identity.traits).toEqual({
      email: "dotted@example.com",
    });
  });

  it("redirects HTML form posts: 302 back to the UI on errors, 303 to verification on success", async () => {
    const jar = new CookieJar();
    const init = await call(`${ts.publicUrl}/self-service/registration/browser`, { jar });
    expect(init.status).toBe(303);
    const location = new URL(init.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("http://localhost:3000/registration");
    const flowId = location.searchParams.get("flow") ?? "";
    const flow = (
      await call(`${ts.publicUrl}/self-service/registration/flows?id=${flowId}`, { jar })
    ).body as RegistrationFlow;
    const post = (fields: Record<string, string>) =>
      call(`${ts.publicUrl}/self-service/registration?flow=${flowId}`, {
        jar,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ method: "password", csrf_token: csrfTokenOf(flow), ...fields }),
      });

    const invalid = await post({ "traits.email": "form@example.com", password: "short" });
    expect(invalid.status).toBe(302);
    expect(invalid.headers.get("location")).toBe(
      `http://localhost:3000/registration?flow=${flowId}`,
    );

    const valid = await post({ "traits.email": "form@example.com", password: strongPassword });
    expect(valid.status).toBe(303);
    const verificationUi = new URL(valid.headers.get("location") ?? "");
    expect(verificationUi.origin + verificationUi.pathname).toBe(
      "http://localhost:3000/verification",
    );
    expect(jar.get("ory_kratos_session")).toBeDefined();
    // The verification flow carries a token for the anti-CSRF cookie this very answer set.
    const verification = await call(
      `${ts.publicUrl}/self-service/verification/flows?id=${verificationUi.searchParams.get("flow") ?? ""}`,
      { jar },
    );
    expect(verification.status).toBe(200);
  });
});
