import type { FrontendApi, SettingsFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../../test-support/http-client.ts";
import {
  csrfTokenOf,
  failureOf,
  inputAttributes,
  messageIds,
  nodeShape,
  registerNative,
  strongPassword,
} from "../../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

const newPassword = "another-Strong-passphrase-9";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

/** A browser client signed in with a fresh (privileged) session. */
async function signedInBrowser(email: string, password = strongPassword) {
  const browser = ts.browser();
  const flow = await browser.api.createBrowserLoginFlow();
  await browser.api.updateLoginFlow({
    flow: flow.id,
    updateLoginFlowBody: {
      method: "password",
      identifier: email,
      password,
      csrf_token: csrfTokenOf(flow),
    },
  });
  return browser;
}

async function changePassword(
  api: FrontendApi,
  flow: SettingsFlow,
  password: string,
): Promise<SettingsFlow> {
  return api.updateSettingsFlow({
    flow: flow.id,
    updateSettingsFlowBody: { method: "password", password, csrf_token: csrfTokenOf(flow) },
  });
}

async function passwordWorks(email: string, password: string): Promise<boolean> {
  const api = ts.native();
  const flow = await api.createNativeLoginFlow();
  try {
    await api.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: { method: "password", identifier: email, password },
    });
    return true;
  } catch {
    return false;
  }
}

describe("settings flow", () => {
  it("shows the profile (prefilled), password and second-factor groups, sorted as Kratos sorts them", async () => {
    await registerNative(ts, "shape@example.com");
    const { api } = await signedInBrowser("shape@example.com");
    const flow = await api.createBrowserSettingsFlow();
    expect(flow.state).toBe("show_form");
    expect(nodeShape(flow)).toEqual([
      "input/default/csrf_token/hidden/-",
      "input/profile/traits.email/email/1070002",
      "input/profile/traits.phone/tel/1070002",
      "input/profile/method/submit/1070003",
      "input/password/password/password/1070001",
      "input/password/method/submit/1070003",
      "input/lookup_secret/lookup_secret_regenerate/submit/1050008",
      "input/webauthn/webauthn_register_displayname/text/1050013",
      "input/webauthn/webauthn_register/hidden/-",
      "input/webauthn/webauthn_register_trigger/button/1050012",
      "input/passkey/passkey_register_trigger/button/1050019",
      "input/passkey/passkey_settings_register/hidden/-",
      "input/passkey/passkey_create_data/hidden/-",
      "img/totp/totp_qr//1050005",
      "text/totp/totp_secret_key//1050017",
      "input/totp/totp_code/text/1070006",
      "input/totp/method/submit/1070003",
    ]);
    expect(inputAttributes(flow, "traits.email")).toMatchObject({
      value: "shape@example.com",
      required: true,
      autocomplete: "email",
    });
    expect(inputAttributes(flow, "password")?.autocomplete).toBe("new-password");
    expect(flow.identity.traits).toEqual({ email: "shape@example.com" });
    expect(flow.identity.credentials).toBeUndefined();
  });

  it("changes the password: 1050001, state success, and the new password signs in", async () => {
    await registerNative(ts, "change@example.com");
    const { api } = await signedInBrowser("change@example.com");
    const flow = await api.createBrowserSettingsFlow();
    const done = await changePassword(api, flow, newPassword);
    expect(done.state).toBe("success");
    expect(done.ui.messages).toEqual([
      { id: 1050001, text: "Your changes have been saved!", type: "success" },
    ]);
    expect(done.continue_with).toEqual([
      {
        action: "redirect_browser_to",
        redirect_browser_to: `http://localhost:3000/settings?flow=${flow.id}`,
      },
    ]);
    expect(await passwordWorks("change@example.com", newPassword)).toBe(true);
    expect(await passwordWorks("change@example.com", strongPassword)).toBe(false);
  });

  it("refuses the current password (4000039) and weak passwords on the password node", async () => {
    await registerNative(ts, "same@example.com");
    const { api } = await signedInBrowser("same@example.com");
    const flow = await api.createBrowserSettingsFlow();
    const same = await failureOf(changePassword(api, flow, strongPassword));
    expect(same.status).toBe(400);
    expect(messageIds(same.body as SettingsFlow, "password")).toEqual([4000039]);
    const retry = same.body as SettingsFlow;
    const short = await failureOf(changePassword(api, retry, "short"));
    expect(messageIds(short.body as SettingsFlow, "password")).toEqual([4000032]);
  });

  it("asks for a fresh sign-in after the privileged window: 403 session_refresh_required", async () => {
    await registerNative(ts, "stale@example.com");
    const { api, jar } = await signedInBrowser("stale@example.com");
    ts.advanceClock(61 * 60_000);
    const flow = await api.createBrowserSettingsFlow();
    const refused = await failureOf(changePassword(api, flow, newPassword));
    expect(refused.status).toBe(403);
    const returnTo = `http://localhost:3000/api/kratos/self-service/settings?flow=${flow.id}`;
    const redirect = `http://localhost:3000/api/kratos/self-service/login/browser?refresh=true&return_to=${encodeURIComponent(returnTo)}`;
    expect(refused.body).toEqual({
      error: {
        id: "session_refresh_required",
        code: 403,
        status: "Forbidden",
        reason:
          "The login session is too old and thus not allowed to update these fields. Please re-authenticate.",
        message: "The requested action was forbidden",
      },
      redirect_browser_to: redirect,
    });

    const html = await call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
      jar,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        method: "password",
        password: newPassword,
        csrf_token: csrfTokenOf(flow),
      }),
    });
    expect(html.status).toBe(303);
    expect(html.headers.get("location")).toBe(redirect);

    // Signing in again (refresh) makes the session privileged and the change goes through.
    const refresh = await api.createBrowserLoginFlow({ refresh: true });
    await api.updateLoginFlow({
      flow: refresh.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: "stale@example.com",
        password: strongPassword,
        csrf_token: csrfTokenOf(refresh),
      },
    });
    expect((await changePassword(api, flow, newPassword)).state).toBe("success");
  });

  it("changes the e-mail: new identifier, new unverified address and a verification code", async () => {
    const { identityId } = await registerNative(ts, "old@example.com");
    const { api } = await signedInBrowser("old@example.com");
    const flow = await api.createBrowserSettingsFlow();
    const done = await api.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: {
        method: "profile",
        traits: { email: "new@example.com" },
        csrf_token: csrfTokenOf(flow),
      },
    });
    expect(done.state).toBe("success");
    expect(inputAttributes(done, "traits.email")?.value).toBe("new@example.com");
    expect(done.identity.verifiable_addresses).toEqual([
      expect.objectContaining({ value: "new@example.com", verified: false, status: "sent" }),
    ]);
    const [message] = await ts.messagesTo("new@example.com");
    expect(message?.template_type).toBe("verification_code_valid");
    expect(await passwordWorks("new@example.com", strongPassword)).toBe(true);
    expect(await passwordWorks("old@example.com", strongPassword)).toBe(false);
    const identity = await ts.admin().getIdentity({ id: identityId });
    expect(identity.recovery_addresses?.map((a) => a.value)).toEqual(["new@example.com"]);
  });

  it("refuses an e-mail another identity has (4000007) and keeps what was typed", async () => {
    await registerNative(ts, "taken-by-me@example.com");
    await registerNative(ts, "taken-by-other@example.com");
    const { api } = await signedInBrowser("taken-by-me@example.com");
    const flow = await api.createBrowserSettingsFlow();
    const failed = await failureOf(
      api.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: {
          method: "profile",
          traits: { email: "taken-by-other@example.com" },
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(failed.status).toBe(400);
    const body = failed.body as SettingsFlow;
    expect(messageIds(body, "")).toEqual([4000007]);
    expect(inputAttributes(body, "traits.email")?.value).toBe("taken-by-other@example.com");
  });

  it("blocks another identity's flow (403 security_identity_mismatch)", async () => {
    await registerNative(ts, "owner@example.com");
    await registerNative(ts, "intruder@example.com");
    const owner = await signedInBrowser("owner@example.com");
    const flow = await owner.api.createBrowserSettingsFlow();
    const intruder = await signedInBrowser("intruder@example.com");
    const fetched = await failureOf(intruder.api.getSettingsFlow({ id: flow.id }));
    expect(fetched.status).toBe(403);
    expect(fetched.body).toMatchObject({ error: { id: "security_identity_mismatch" } });
    const submitted = await failureOf(changePassword(intruder.api, flow, newPassword));
    expect(submitted.status).toBe(403);
    expect(submitted.body).toMatchObject({ error: { id: "security_identity_mismatch" } });
  });

  it("answers requests without a session as Kratos does", async () => {
    const jar = new CookieJar();
    const jsonInit = await call(`${ts.publicUrl}/self-service/settings/browser`, {
      jar,
      headers: { accept: "application/json" },
    });
    expect(jsonInit.status).toBe(401);
    expect(jsonInit.body).toMatchObject({ error: { id: "session_inactive" } });
    const htmlInit = await call(
      `${ts.publicUrl}/self-service/settings/browser?return_to=http://localhost:4000/`,
      { jar },
    );
    expect(htmlInit.status).toBe(303);
    expect(htmlInit.headers.get("location")).toBe(
      "http://localhost:3000/api/kratos/self-service/login/browser?return_to=http%3A%2F%2Flocalhost%3A4000%2F",
    );
    const id = "3b6a1c5e-7f3e-4a7e-9a55-1f0f2a0c2d11";
    const fetched = await call(`${ts.publicUrl}/self-service/settings/flows?id=${id}`, {
      headers: { accept: "application/json" },
    });
    expect(fetched.status).toBe(401);
    expect(fetched.body).toEqual({
      error: {
        code: 401,
        status: "Unauthorized",
        reason: "A valid Ory Session Cookie or Ory Session Token is missing.",
        message: "The request could not be authorized",
      },
    });
    const htmlSubmit = await call(`${ts.publicUrl}/self-service/settings?flow=${id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "method=password&password=x",
    });
    expect(htmlSubmit.status).toBe(302);
    expect(htmlSubmit.headers.get("location")).toBe("http://localhost:3000/login");
  });

  it("replaces an expired flow: 410 with use_flow_id and 4050001", async () => {
    await registerNative(ts, "expired@example.com");
    const { api } = await signedInBrowser("expired@example.com");
    const flow = await api.createBrowserSettingsFlow();
    ts.advanceClock(61 * 60_000);
    const expired = await failureOf(changePassword(api, flow, newPassword));
    expect(expired.status).toBe(410);
    const { use_flow_id: replacement } = expired.body as { use_flow_id: string };
    const fresh = await api.getSettingsFlow({ id: replacement });
    expect(fresh.ui.messages?.map((m) => m.id)).toEqual([4050001]);
  });

  it("points /.well-known/change-password at the settings UI", async () => {
    const response = await fetch(`${ts.publicUrl}/.well-known/change-password`, {
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://localhost:3000/settings");
  });

  it("serves native apps with the session token (no continue_with)", async () => {
    const { token } = await registerNative(ts, "app@example.com");
    const api = ts.native();
    const flow = await api.createNativeSettingsFlow({ xSessionToken: token });
    expect(flow.type).toBe("api");
    const done = await api.updateSettingsFlow({
      flow: flow.id,
      xSessionToken: token,
      updateSettingsFlowBody: { method: "password", password: newPassword },
    });
    expect(done.state).toBe("success");
    expect(done.continue_with).toBeUndefined();
  });
});

describe("recovery, then a new password", () => {
  it("recovers with a code, sets a new password in the settings flow and signs in with it", async () => {
    await registerNative(ts, "forgetful@example.com");
    const { api, jar } = ts.browser();
    const recovery = await api.createBrowserRecoveryFlow();
    const sent = await api.updateRecoveryFlow({
      flow: recovery.id,
      updateRecoveryFlowBody: {
        method: "code",
        email: "forgetful@example.com",
        csrf_token: csrfTokenOf(recovery),
      },
    });
    const recovered = await api.updateRecoveryFlow({
      flow: sent.id,
      updateRecoveryFlowBody: {
        method: "code",
        code: await ts.latestCode("forgetful@example.com"),
        csrf_token: csrfTokenOf(sent),
      },
    });
    const settingsId = (recovered.continue_with?.[0] as { flow: { id: string } }).flow.id;
    const settings = await api.getSettingsFlow({ id: settingsId });
    expect(settings.ui.messages?.map((m) => m.id)).toEqual([1060001]);
    const changed = await changePassword(api, settings, newPassword);
    expect(changed.state).toBe("success");

    jar.cookies.delete("ory_kratos_session");
    expect(await passwordWorks("forgetful@example.com", newPassword)).toBe(true);
    expect(await passwordWorks("forgetful@example.com", strongPassword)).toBe(false);
  });
});
