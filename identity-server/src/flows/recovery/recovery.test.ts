import { readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { FrontendApi, RecoveryFlow, SettingsFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../../test-support/http-client.ts";
import {
  csrfTokenOf,
  failureOf,
  inputAttributes,
  messageIds,
  nodeShape,
  registerNative,
} from "../../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";
import { databaseFileName } from "../../store/database.ts";

const vendored = (name: string): RecoveryFlow =>
  JSON.parse(
    readFileSync(new URL(`../../../../vendor/ory/flows/${name}`, import.meta.url), "utf8"),
  ) as RecoveryFlow;

let ts: TestServer;
beforeAll(async () => {
  // Many sends from one client; the per-IP send limit has tests of its own (src/rate-limit).
  ts = await startTestServer({ IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP: "0" });
});
afterAll(async () => {
  await ts.stop();
});

async function requestCode(
  api: FrontendApi,
  flow: RecoveryFlow,
  email: string,
): Promise<RecoveryFlow> {
  return api.updateRecoveryFlow({
    flow: flow.id,
    updateRecoveryFlowBody: { method: "code", email, csrf_token: csrfTokenOf(flow) },
  });
}

async function submitCode(
  api: FrontendApi,
  flow: RecoveryFlow,
  code: string,
): Promise<RecoveryFlow> {
  return api.updateRecoveryFlow({
    flow: flow.id,
    updateRecoveryFlowBody: { method: "code", code, csrf_token: csrfTokenOf(flow) },
  });
}

/** Registration also sent a verification e-mail; these are the recovery ones. */
async function recoveryMessagesTo(server: TestServer, address: string) {
  const messages = await server.messagesTo(address);
  return messages.filter((m) => m.template_type === "recovery_code_valid");
}

/** The id of the flow a 303 to `/self-service/recovery/flows?id=` points at. */
function replacementId(location: string | undefined): string {
  const url = new URL(location ?? "");
  expect(url.pathname).toBe("/api/kratos/self-service/recovery/flows");
  return url.searchParams.get("id") ?? "";
}

describe("recovery by code", () => {
  it("asks for the e-mail address exactly as Kratos' code strategy", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserRecoveryFlow();
    const reference = vendored("elements.recovery.code.initial.json");
    expect(flow.state).toBe("choose_method");
    expect(flow.active).toBe("code");
    expect(nodeShape(flow)).toEqual(nodeShape(reference));
    expect(flow.ui.nodes[1]).toEqual(reference.ui.nodes[1]);
    expect(flow.ui.action).toBe(
      `http://localhost:3000/api/kratos/self-service/recovery?flow=${flow.id}`,
    );
  });

  it("sends a six-digit code and shows the code form of the vendored flow", async () => {
    await registerNative(ts, "grace@example.com");
    const { api } = ts.browser();
    const flow = await api.createBrowserRecoveryFlow();
    const sent = await requestCode(api, flow, "Grace@Example.com");
    const reference = vendored("elements.recovery.code.sent.json");
    expect(sent.state).toBe("sent_email");
    expect(nodeShape(sent)).toEqual(nodeShape(reference));
    expect(sent.ui.nodes[1]).toEqual(reference.ui.nodes[1]);
    expect(sent.ui.messages).toEqual(reference.ui.messages);
    expect(inputAttributes(sent, "email")?.value).toBe("Grace@Example.com");
    expect(sent.transient_payload).toEqual({});

    const [message] = await ts.messagesTo("grace@example.com");
    expect(message).toMatchObject({
      channel: "email",
      template_type: "recovery_code_valid",
      subject: "Your account recovery code",
    });
    expect(message?.code).toMatch(/^\d{6}$/);
    expect(message?.body).toContain(message?.code ?? "-");
  });

  it("answers an unknown address exactly like a known one and sends it a notice, no code", async () => {
    await registerNative(ts, "known@example.com");
    const answers = [];
    for (const email of ["known@example.com", "unknown@example.com"]) {
      const { api, jar } = ts.browser();
      const flow = await api.createBrowserRecoveryFlow();
      const response = await call(`${ts.publicUrl}/self-service/recovery?flow=${flow.id}`, {
        jar,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ method: "code", email, csrf_token: csrfTokenOf(flow) }),
      });
      // Strip what differs per flow (ids, tokens, timestamps, the typed address).
      const text = response.text
        .replaceAll(flow.id, "<id>")
        .replaceAll(email, "<email>")
        .replace(/"value":"[A-Za-z0-9+/=]{80,}"/, '"value":"<csrf>"')
        .replace(/"(expires_at|issued_at)":"[^"]+"/g, '"$1":"<time>"');
      answers.push({ status: response.status, text });
    }
    expect(answers[0]?.status).toBe(200);
    expect(answers[1]).toEqual(answers[0]);
    // Kratos' notify_unknown_recipients (on by default here, so both paths do the same work).
    expect(await ts.messagesTo("unknown@example.com")).toMatchObject([
      {
        channel: "email",
        template_type: "recovery_code_invalid",
        subject: "Someone tried to recover an account with this address",
        code: null,
      },
    ]);
    expect(await recoveryMessagesTo(ts, "known@example.com")).toHaveLength(1);
  });

  it("keeps the flow and says 4060006 for a wrong code (200 to JSON clients)", async () => {
    await registerNative(ts, "wrong@example.com");
    const { api } = ts.browser();
    const sent = await requestCode(api, await api.createBrowserRecoveryFlow(), "wrong@example.com");
    const code = await ts.latestCode("wrong@example.com");
    const wrong = await submitCode(api, sent, code === "000000" ? "111111" : "000000");
    const reference = vendored("elements.recovery.code.wrong-code.json");
    expect(wrong.id).toBe(sent.id);
    expect(wrong.state).toBe("sent_email");
    expect(wrong.ui.messages).toEqual(reference.ui.messages);
    expect(nodeShape(wrong)).toEqual(nodeShape(reference));
  });

  it("recovers: verified address, privileged code_recovery session, settings flow with 1060001", async () => {
    const { identityId } = await registerNative(ts, "ada@example.com");
    const { api, jar } = ts.browser();
    const flow = await api.createBrowserRecoveryFlow({ returnTo: "http://localhost:4000/apps" });
    const sent = await requestCode(api, flow, "ada@example.com");
    const done = await submitCode(api, sent, await ts.latestCode("ada@example.com"));

    expect(done.state).toBe("passed_challenge");
    const settingsId = (done.continue_with?.[0] as { flow: { id: string } }).flow.id;
    expect(done.continue_with).toEqual([
      {
        action: "show_settings_ui",
        flow: { id: settingsId, url: `http://localhost:3000/settings?flow=${settingsId}` },
      },
    ]);
    expect(jar.get("ory_kratos_session")).toBeDefined();

    const session = await api.toSession();
    expect(session.identity?.id).toBe(identityId);
    expect(session.authenticator_assurance_level).toBe("aal1");
    expect(session.authentication_methods?.map((m) => m.method)).toEqual(["code_recovery"]);
    expect(session.identity?.verifiable_addresses?.[0]).toMatchObject({
      value: "ada@example.com",
      verified: true,
      status: "completed",
    });

    const settings: SettingsFlow = await api.getSettingsFlow({ id: settingsId });
    expect(settings.ui.messages?.map((m) => m.id)).toEqual([1060001]);
    expect(settings.ui.messages?.[0]?.text).toContain("within the next 60.00 minutes");
    expect(settings.return_to).toBe("http://localhost:4000/apps");
    expect(settings.identity.id).toBe(identityId);
  });

  it("uses a code once: the same code again gives a fresh flow saying it was used", async () => {
    await registerNative(ts, "once@example.com");
    const { api, jar } = ts.browser();
    const sent = await requestCode(api, await api.createBrowserRecoveryFlow(), "once@example.com");
    const code = await ts.latestCode("once@example.com");
    await submitCode(api, sent, code);
    jar.cookies.delete("ory_kratos_session");
    // Success issued a new anti-CSRF secret; any flow rendered now carries a token for it.
    const current = csrfTokenOf(await api.createBrowserRecoveryFlow());

    const again = await failureOf(
      api.updateRecoveryFlow({
        flow: sent.id,
        updateRecoveryFlowBody: { method: "code", code, csrf_token: current },
      }),
    );
    expect(again.status).toBe(303);
    const fresh = await api.getRecoveryFlow({ id: replacementId(again.location) });
    expect(fresh.state).toBe("choose_method");
    expect(fresh.ui.messages).toEqual([
      {
        id: 4000001,
        text: "The code was already used. Please request another code.",
        type: "error",
        context: { reason: "The code was already used. Please request another code." },
      },
    ]);
  });

  it("allows five code submissions per flow, resends included; the sixth gets a fresh flow", async () => {
    await registerNative(ts, "brute@example.com");
    const { api } = ts.browser();
    let sent = await requestCode(api, await api.createBrowserRecoveryFlow(), "brute@example.com");
    const wrongFor = (code: string) => (code === "123456" ? "654321" : "123456");
    for (let i = 0; i < 3; i++) {
      const answer = await submitCode(
        api,
        sent,
        wrongFor(await ts.latestCode("brute@example.com")),
      );
      expect(messageIds(answer, "")).toEqual([4060006]);
    }
    // A resend deletes the old codes but does not reset the counter.
    sent = await requestCode(api, sent, "brute@example.com");
    for (let i = 0; i < 2; i++) {
      const answer = await submitCode(
        api,
        sent,
        wrongFor(await ts.latestCode("brute@example.com")),
      );
      expect(messageIds(answer, "")).toEqual([4060006]);
    }
    const sixth = await failureOf(submitCode(api, sent, await ts.latestCode("brute@example.com")));
    expect(sixth.status).toBe(303);
    const fresh = await api.getRecoveryFlow({ id: replacementId(sixth.location) });
    expect(fresh.id).not.toBe(sent.id);
    expect(fresh.ui.messages?.[0]).toMatchObject({
      id: 4000001,
      text: "The request was submitted too often. Please request another code.",
    });
  });

  it("invalidates earlier codes when the code is resent", async () => {
    await registerNative(ts, "resend@example.com");
    const { api } = ts.browser();
    const sent = await requestCode(
      api,
      await api.createBrowserRecoveryFlow(),
      "resend@example.com",
    );
    const first = await ts.latestCode("resend@example.com");
    const resent = await requestCode(api, sent, "resend@example.com");
    const second = await ts.latestCode("resend@example.com");
    expect(await recoveryMessagesTo(ts, "resend@example.com")).toHaveLength(2);
    // Only the newest code is stored for the flow.
    const db = new DatabaseSync(path.join(ts.dataDir, databaseFileName), { readOnly: true });
    try {
      const rows = db
        .prepare("SELECT code_hmac FROM one_time_codes WHERE flow_id = ?")
        .all(sent.id) as { code_hmac: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]?.code_hmac).not.toContain(second);
    } finally {
      db.close();
    }

    // Two random codes coincide once in a million runs; then the first one is still the valid one.
    if (first !== second) {
      expect(messageIds(await submitCode(api, resent, first), "")).toEqual([4060006]);
    }
    expect((await submitCode(api, resent, second)).state).toBe("passed_challenge");
  });

  it("refuses a signed-in browser: 400 session_already_available to JSON, 302 for HTML", async () => {
    const { token } = await registerNative(ts, "signedin@example.com");
    const json = await call(`${ts.publicUrl}/self-service/recovery/api`, {
      headers: { "x-session-token": token, accept: "application/json" },
    });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: { id: "session_already_available" } });
    const html = await call(`${ts.publicUrl}/self-service/recovery/browser`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(html.status).toBe(302);
    expect(html.headers.get("location")).toBe("http://localhost:3000/");
  });

  it("gives native apps a session token and revokes the identity's other sessions", async () => {
    const { token: before } = await registerNative(ts, "native@example.com");
    const api = ts.native();
    const flow = await api.createNativeRecoveryFlow();
    expect(inputAttributes(flow, "csrf_token")?.type).toBe("hidden");
    const sent = await api.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: "code", email: "native@example.com" },
    });
    const done = await api.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: "code", code: await ts.latestCode("native@example.com") },
    });
    expect(sent.state).toBe("sent_email");
    const [setToken, showSettings] = done.continue_with ?? [];
    expect(setToken).toMatchObject({ action: "set_ory_session_token" });
    expect(showSettings).toMatchObject({ action: "show_settings_ui" });
    const recovered = (setToken as { ory_session_token: string }).ory_session_token;
    expect((await api.toSession({ xSessionToken: recovered })).active).toBe(true);
    expect((await failureOf(api.toSession({ xSessionToken: before }))).status).toBe(401);
  });

  it("redirects HTML form posts through the UI and on to the settings UI", async () => {
    await registerNative(ts, "form@example.com");
    const jar = new CookieJar();
    const init = await call(`${ts.publicUrl}/self-service/recovery/browser`, { jar });
    expect(init.status).toBe(303);
    const flowId = new URL(init.headers.get("location") ?? "").searchParams.get("flow") ?? "";
    expect(init.headers.get("location")).toBe(`http://localhost:3000/recovery?flow=${flowId}`);
    const flow = (await call(`${ts.publicUrl}/self-service/recovery/flows?id=${flowId}`, { jar }))
      .body as RecoveryFlow;
    const post = (fields: Record<string, string>) =>
      call(`${ts.publicUrl}/self-service/recovery?flow=${flowId}`, {
        jar,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ method: "code", csrf_token: csrfTokenOf(flow), ...fields }),
      });
    const sent = await post({ email: "form@example.com" });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(`http://localhost:3000/recovery?flow=${flowId}`);
    const wrong = await post({ code: "99999x" });
    expect(wrong.status).toBe(303);
    const right = await post({ code: await ts.latestCode("form@example.com") });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/settings\?flow=/);
    expect(jar.get("ory_kratos_session")).toBeDefined();
  });

  it("asks for the address when it is missing (4000002 on the email node)", async () => {
    const { api } = ts.browser();
    const flow = await api.createBrowserRecoveryFlow();
    const failed = await failureOf(
      api.updateRecoveryFlow({
        flow: flow.id,
        updateRecoveryFlowBody: { method: "code", csrf_token: csrfTokenOf(flow) },
      }),
    );
    expect(failed.status).toBe(400);
    expect(messageIds(failed.body as RecoveryFlow, "email")).toEqual([4000002]);
  });

  it("writes the code e-mail in the language of the request that started the flow", async () => {
    await registerNative(ts, "ana@example.com");
    const jar = new CookieJar();
    const flow = (
      await call(`${ts.publicUrl}/self-service/recovery/browser`, {
        jar,
        headers: { accept: "application/json", "accept-language": "es-MX,es;q=0.9,en;q=0.5" },
      })
    ).body as RecoveryFlow;
    await call(`${ts.publicUrl}/self-service/recovery?flow=${flow.id}`, {
      jar,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        method: "code",
        email: "ana@example.com",
        csrf_token: csrfTokenOf(flow),
      }),
    });
    const [message] = await ts.messagesTo("ana@example.com");
    expect(message?.subject).toBe("Su código para recuperar la cuenta");
    expect(message?.body).toContain("El código caduca en 60 minutos");
  });
});

describe("recovery expiry", () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startTestServer({ IDENTITY_CODE_LIFESPAN: "10m" });
  });
  afterAll(async () => {
    await short.stop();
  });

  it("refuses a code after its lifespan (4060006), though the flow still lives", async () => {
    await registerNative(short, "late@example.com");
    const { api } = short.browser();
    const sent = await requestCode(api, await api.createBrowserRecoveryFlow(), "late@example.com");
    const code = await short.latestCode("late@example.com");
    short.advanceClock(11 * 60_000);
    const late = await submitCode(api, sent, code);
    expect(late.id).toBe(sent.id);
    expect(messageIds(late, "")).toEqual([4060006]);
  });

  it("replaces an expired flow: 303 to the new flow for JSON, carrying 4060005", async () => {
    const { api, jar } = short.browser();
    const flow = await api.createBrowserRecoveryFlow();
    short.advanceClock(61 * 60_000);
    const expired = await failureOf(requestCode(api, flow, "late@example.com"));
    expect(expired.status).toBe(303);
    const fresh = await api.getRecoveryFlow({ id: replacementId(expired.location) });
    expect(fresh.state).toBe("choose_method");
    expect(fresh.ui.messages?.map((m) => m.id)).toEqual([4060005]);

    const stale = await call(`${short.publicUrl}/self-service/recovery/flows?id=${flow.id}`, {
      jar,
      headers: { accept: "application/json" },
    });
    expect(stale.status).toBe(410);
  });
});
