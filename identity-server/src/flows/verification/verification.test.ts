import { readFileSync } from "node:fs";
import type { FrontendApi, VerificationFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../../test-support/http-client.ts";
import {
  csrfTokenOf,
  failureOf,
  inputAttributes,
  messageIds,
  nodeShape,
  strongPassword,
} from "../../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

const vendored = (name: string): VerificationFlow =>
  JSON.parse(
    readFileSync(new URL(`../../../../vendor/ory/flows/${name}`, import.meta.url), "utf8"),
  ) as VerificationFlow;

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

/** Registers through the native API with the given traits; returns the identity id. */
async function register(traits: Record<string, string>): Promise<string> {
  const api = ts.native();
  const flow = await api.createNativeRegistrationFlow();
  const result = await api.updateRegistrationFlow({
    flow: flow.id,
    updateRegistrationFlowBody: { method: "password", password: strongPassword, traits },
  });
  return result.identity.id;
}

async function sendCode(
  api: FrontendApi,
  flow: VerificationFlow,
  address: string,
): Promise<VerificationFlow> {
  return api.updateVerificationFlow({
    flow: flow.id,
    updateVerificationFlowBody: { method: "code", email: address, csrf_token: csrfTokenOf(flow) },
  });
}

/** Codes are submitted without csrf_token: Kratos does not check CSRF on code submission. */
async function submitCode(
  api: FrontendApi,
  flow: VerificationFlow,
  code: string,
): Promise<VerificationFlow> {
  return api.updateVerificationFlow({
    flow: flow.id,
    updateVerificationFlowBody: { method: "code", code },
  });
}

async function addressOf(identityId: string, value: string) {
  const identity = await ts.admin().getIdentity({ id: identityId });
  return identity.verifiable_addresses?.find((a) => a.value === value);
}

describe("verification by code", () => {
  it("asks for an address with the vendored flow's nodes", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserVerificationFlow();
    const reference = vendored("elements.verification.code.initial.json");
    expect(flow.state).toBe("choose_method");
    expect(flow.active).toBe("code");
    expect(nodeShape(flow)).toEqual(nodeShape(reference));
    expect(flow.ui.nodes[0]).toEqual(reference.ui.nodes[0]);
  });

  it("verifies an e-mail address: sent_email, 1080003, then passed_challenge with 1080002", async () => {
    const identityId = await register({ email: "mail@example.com" });
    const { api } = ts.browser();
    const flow = await api.createBrowserVerificationFlow({
      returnTo: "http://localhost:4000/welcome",
    });
    const sent = await sendCode(api, flow, "mail@example.com");
    const reference = vendored("elements.verification.code.sent.json");
    expect(sent.state).toBe("sent_email");
    expect(nodeShape(sent)).toEqual(nodeShape(reference));
    expect(sent.ui.nodes[1]).toEqual(reference.ui.nodes[1]);
    expect(sent.ui.messages).toEqual(reference.ui.messages);
    expect(inputAttributes(sent, "email")?.value).toBe("mail@example.com");

    const [message] = await ts.messagesTo("mail@example.com");
    expect(message).toMatchObject({ channel: "email", template_type: "verification_code_valid" });
    expect(message?.body).toContain(
      `/api/kratos/self-service/verification?code=${message?.code ?? ""}&flow=${flow.id}`,
    );

    const done = await submitCode(api, sent, message?.code ?? "");
    expect(done.state).toBe("passed_challenge");
    expect(done.ui).toEqual({
      action: "http://localhost:4000/welcome",
      method: "GET",
      nodes: [
        {
          type: "a",
          group: "code",
          attributes: {
            href: "http://localhost:4000/welcome",
            title: { id: 1070009, text: "Continue", type: "info" },
            id: "continue",
            node_type: "a",
          },
          messages: [],
          meta: { label: { id: 1070009, text: "Continue", type: "info" } },
        },
      ],
      messages: [
        { id: 1080002, text: "You successfully verified your email address.", type: "success" },
      ],
    });
    const address = await addressOf(identityId, "mail@example.com");
    expect(address).toMatchObject({ verified: true, status: "completed" });
    expect(address?.verified_at).toBeDefined();
  });

  it("verifies a phone number by text message (1080004, then 1080005)", async () => {
    const identityId = await register({ email: "phone@example.com", phone: "+1 415 555 0100" });
    const { api } = ts.browser();
    const sent = await sendCode(api, await api.createBrowserVerificationFlow(), "+14155550100");
    expect(sent.ui.messages?.map((m) => m.id)).toEqual([1080004]);
    const [sms] = await ts.messagesTo("+14155550100");
    expect(sms).toMatchObject({
      channel: "sms",
      subject: "",
      template_type: "verification_code_valid",
    });
    expect(sms?.body).toBe(
      `Your verification code is ${sms?.code ?? ""}. It expires in 60 minutes.`,
    );
    expect((await addressOf(identityId, "+14155550100"))?.status).toBe("sent");

    const done = await submitCode(api, sent, sms?.code ?? "");
    expect(done.ui.messages?.map((m) => m.id)).toEqual([1080005]);
    expect(await addressOf(identityId, "+14155550100")).toMatchObject({
      via: "sms",
      verified: true,
      status: "completed",
    });
  });

  it("keeps the flow with 4070006 for a wrong code (200 to JSON clients)", async () => {
    await register({ email: "typo@example.com" });
    const { api } = ts.browser();
    const sent = await sendCode(api, await api.createBrowserVerificationFlow(), "typo@example.com");
    const code = await ts.latestCode("typo@example.com");
    const wrong = await submitCode(api, sent, code === "000000" ? "111111" : "000000");
    expect(wrong.id).toBe(sent.id);
    expect(wrong.ui.messages).toEqual(
      vendored("elements.verification.code.wrong-code.json").ui.messages,
    );
  });

  it("replaces a finished flow: 410 self_service_flow_replaced with use_flow_id", async () => {
    await register({ email: "twice@example.com" });
    const { api } = ts.browser();
    const sent = await sendCode(
      api,
      await api.createBrowserVerificationFlow(),
      "twice@example.com",
    );
    await submitCode(api, sent, await ts.latestCode("twice@example.com"));
    const again = await failureOf(submitCode(api, sent, "123456"));
    expect(again.status).toBe(410);
    const body = again.body as { error: { id: string; reason: string }; use_flow_id: string };
    expect(body.error).toMatchObject({
      id: "self_service_flow_replaced",
      reason: "An error occured, please use the new flow.",
    });
    const fresh = await api.getVerificationFlow({ id: body.use_flow_id });
    expect(fresh.state).toBe("choose_method");
    expect(fresh.ui.messages?.map((m) => m.id)).toEqual([4070002]);
  });

  it("answers an unknown address like a known one and sends nothing", async () => {
    const { api } = ts.browser();
    const sent = await sendCode(
      api,
      await api.createBrowserVerificationFlow(),
      "ghost@example.com",
    );
    expect(sent.state).toBe("sent_email");
    expect(sent.ui.messages?.map((m) => m.id)).toEqual([1080003]);
    expect(await ts.messagesTo("ghost@example.com")).toEqual([]);
  });

  it("allows five code submissions per flow; the sixth gets a replacement flow", async () => {
    await register({ email: "guess@example.com" });
    const { api } = ts.browser();
    const sent = await sendCode(
      api,
      await api.createBrowserVerificationFlow(),
      "guess@example.com",
    );
    const code = await ts.latestCode("guess@example.com");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      expect(messageIds(await submitCode(api, sent, wrong), "")).toEqual([4070006]);
    }
    const sixth = await failureOf(submitCode(api, sent, code));
    expect(sixth.status).toBe(410);
    const { use_flow_id: replacement } = sixth.body as { use_flow_id: string };
    const fresh = await api.getVerificationFlow({ id: replacement });
    expect(fresh.ui.messages?.[0]).toMatchObject({
      id: 4000001,
      text: "The request was submitted too often. Please request another code.",
    });
  });

  it("continues the flow the registration started (continue_with show_verification_ui)", async () => {
    const { api } = ts.browser();
    const registration = await api.createBrowserRegistrationFlow();
    const registered = await api.updateRegistrationFlow({
      flow: registration.id,
      updateRegistrationFlowBody: {
        method: "password",
        csrf_token: csrfTokenOf(registration),
        password: strongPassword,
        traits: { email: "hooked@example.com" },
      },
    });
    const show = registered.continue_with?.find((c) => c.action === "show_verification_ui");
    const flowId = (show as { flow: { id: string } }).flow.id;
    const flow = await api.getVerificationFlow({ id: flowId });
    expect(flow.state).toBe("sent_email");
    expect(inputAttributes(flow, "email")).toMatchObject({
      type: "submit",
      value: "hooked@example.com",
    });
    const done = await submitCode(api, flow, await ts.latestCode("hooked@example.com"));
    expect(done.state).toBe("passed_challenge");
    expect((await api.toSession()).identity?.verifiable_addresses?.[0]?.verified).toBe(true);
  });

  it("fills the code in from the e-mail link and shows the form (GET ?flow=&code=)", async () => {
    await register({ email: "link@example.com" });
    const { api, jar } = ts.browser();
    const sent = await sendCode(api, await api.createBrowserVerificationFlow(), "link@example.com");
    const code = await ts.latestCode("link@example.com");
    const click = await call(
      `${ts.publicUrl}/self-service/verification?flow=${sent.id}&code=${code}`,
      { jar },
    );
    expect(click.status).toBe(303);
    expect(click.headers.get("location")).toBe(
      `http://localhost:3000/verification?flow=${sent.id}`,
    );
    const prefilled = await api.getVerificationFlow({ id: sent.id });
    expect(inputAttributes(prefilled, "code")?.value).toBe(code);
    expect(prefilled.state).toBe("sent_email");
  });

  it("redirects HTML form posts to the verification UI", async () => {
    await register({ email: "html@example.com" });
    const jar = new CookieJar();
    const init = await call(`${ts.publicUrl}/self-service/verification/browser`, { jar });
    const flowId = new URL(init.headers.get("location") ?? "").searchParams.get("flow") ?? "";
    const flow = (
      await call(`${ts.publicUrl}/self-service/verification/flows?id=${flowId}`, { jar })
    ).body as VerificationFlow;
    const post = (fields: Record<string, string>) =>
      call(`${ts.publicUrl}/self-service/verification?flow=${flowId}`, {
        jar,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ method: "code", ...fields }),
      });
    const sent = await post({ email: "html@example.com", csrf_token: csrfTokenOf(flow) });
    expect(sent.status).toBe(303);
    const done = await post({ code: await ts.latestCode("html@example.com") });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`http://localhost:3000/verification?flow=${flowId}`);
  });

  it("replaces an expired flow: 303 to /self-service/verification/flows?id= with 4070005", async () => {
    const own = await startTestServer();
    try {
      const { api } = own.browser();
      const flow = await api.createBrowserVerificationFlow();
      own.advanceClock(61 * 60_000);
      const expired = await failureOf(sendCode(api, flow, "late@example.com"));
      expect(expired.status).toBe(303);
      const location = new URL(expired.location ?? "");
      expect(location.pathname).toBe("/api/kratos/self-service/verification/flows");
      const fresh = await api.getVerificationFlow({ id: location.searchParams.get("id") ?? "" });
      expect(fresh.ui.messages?.map((m) => m.id)).toEqual([4070005]);
    } finally {
      await own.stop();
    }
  });
});
