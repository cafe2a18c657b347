import type { LoginFlow, Session, SettingsFlow, UiNode } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test-support/http-client.ts";
import {
  csrfTokenOf,
  failureOf,
  inputAttributes,
  messageIds,
  nodeShape,
  registerNative,
  strongPassword,
} from "../../test-support/flow-helpers.ts";
import {
  completeTotp,
  linkTotp,
  nodesOfGroups,
  passwordSignIn,
  stableNodes,
  submitLogin,
  totpCode,
  totpSecretOf,
  vendoredFlowFile,
  whoami,
  type Browser,
} from "../../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

const pub = "http://localhost:3000/api/kratos";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

/** A registered identity with an authenticator app, and a browser signed in with both factors. */
async function withTotp(email: string): Promise<{ browser: Browser; secret: string }> {
  await registerNative(ts, email);
  const { browser } = await passwordSignIn(ts, email);
  const secret = await linkTotp(ts, browser);
  return { browser, secret };
}

describe("TOTP in settings", () => {
  it("offers a new key as Kratos does: QR code, secret, code input and Save", async () => {
    await registerNative(ts, "setup@example.com");
    const { browser } = await passwordSignIn(ts, "setup@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    expect(stableNodes(nodesOfGroups(flow, ["default", "totp"]))).toEqual(
      stableNodes(vendoredFlowFile<UiNode[]>("kratos.snapshot.settings.totp.setup.nodes.json")),
    );
    const qr = flow.ui.nodes.find((n) => (n.attributes as { id?: string }).id === "totp_qr");
    expect((qr?.attributes as { src: string }).src).toMatch(/^data:image\/png;base64,/);
    const secret = totpSecretOf(flow);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const secretNode = flow.ui.nodes.find(
      (n) => (n.attributes as { id?: string }).id === "totp_secret_key",
    );
    expect((secretNode?.attributes as { text: unknown }).text).toEqual({
      id: 1050006,
      text: secret,
      type: "info",
      context: { secret },
    });
  });

  it("refuses a wrong code with 4000008 on totp_code and links the app with the right one", async () => {
    await registerNative(ts, "link@example.com");
    const { browser } = await passwordSignIn(ts, "link@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const secret = totpSecretOf(flow);
    const wrong = await failureOf(
      browser.api.updateSettingsFlow({
        flow: flow.id,
        updateSettingsFlowBody: {
          method: "totp",
          totp_code: "000000",
          csrf_token: csrfTokenOf(flow),
        },
      }),
    );
    expect(wrong.status).toBe(400);
    const retry = wrong.body as SettingsFlow;
    expect(messageIds(retry, "totp_code")).toEqual([4000008]);
    // The key waiting for its first code is the same one: the retry succeeds with its code.
    expect(totpSecretOf(retry)).toBe(secret);

    const done = await browser.api.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: {
        method: "totp",
        totp_code: totpCode(secret, ts.now()),
        csrf_token: csrfTokenOf(retry),
      },
    });
    expect(done.state).toBe("success");
    expect(messageIds(done, "")).toEqual([1050001]);
    // Linked: only the unlink button is left, exactly as Kratos renders it.
    expect(
      stableNodes(
        nodesOfGroups(done, ["default", "totp"]).filter(
          (n) => (n.attributes as { id?: string }).id !== "totp-trusted-devices",
        ),
      ),
    ).toEqual(
      stableNodes(vendoredFlowFile<UiNode[]>("kratos.snapshot.settings.totp.unlink.nodes.json")),
    );

    // Linking proved the second factor: the same session is now aal2 with a totp entry.
    const session = (await whoami(ts, browser)).body as Session;
    expect(session.authenticator_assurance_level).toBe("aal2");
    expect(session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["password", "aal1"],
      ["totp", "aal2"],
    ]);
  });

  it("needs a privileged session to link or unlink: 403 session_refresh_required", async () => {
    await registerNative(ts, "stale-totp@example.com");
    const { browser } = await passwordSignIn(ts, "stale-totp@example.com");
    ts.advanceClock(61 * 60_000);
    try {
      const flow = await browser.api.createBrowserSettingsFlow();
      const refused = await failureOf(
        browser.api.updateSettingsFlow({
          flow: flow.id,
          updateSettingsFlowBody: {
            method: "totp",
            totp_code: totpCode(totpSecretOf(flow), ts.now()),
            csrf_token: csrfTokenOf(flow),
          },
        }),
      );
      expect(refused.status).toBe(403);
      const body = refused.body as { error: { id: string }; redirect_browser_to: string };
      expect(body.error.id).toBe("session_refresh_required");
      expect(body.redirect_browser_to).toBe(
        `${pub}/self-service/login/browser?refresh=true&return_to=${encodeURIComponent(`${pub}/self-service/settings?flow=${flow.id}`)}`,
      );
    } finally {
      ts.advanceClock(-61 * 60_000);
    }
  });

  it("unlinks the app: the identity is back to one factor and setup is offered again", async () => {
    const { browser } = await withTotp("unlink@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const done = await browser.api.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: { method: "totp", totp_unlink: true, csrf_token: csrfTokenOf(flow) },
    });
    expect(done.state).toBe("success");
    expect(nodeShape(done)).toContain("input/totp/totp_code/text/1070006");
    expect(inputAttributes(done, "totp_unlink")).toBeUndefined();
    // A fresh password login is complete again without a second factor.
    const { answer } = await passwordSignIn(ts, "unlink@example.com");
    expect(answer.status).toBe(200);
  });
});

describe("AAL with an authenticator app", () => {
  it("password → aal1 session sent to the aal2 login → 403 whoami → TOTP → aal2 (same session)", async () => {
    const { secret } = await withTotp("aal@example.com");
    const { browser, answer } = await passwordSignIn(ts, "aal@example.com");
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      error: {
        id: "browser_location_change_required",
        code: 422,
        status: "Unprocessable Entity",
        reason: `In order to complete this flow please redirect the browser to: ${pub}/self-service/login/browser?aal=aal2`,
        message: "browser location change required",
      },
      redirect_browser_to: `${pub}/self-service/login/browser?aal=aal2`,
    });

    const refused = await whoami(ts, browser);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: {
        id: "session_aal2_required",
        code: 403,
        status: "Forbidden",
        reason:
          "An active session was found but it does not fulfill the requested Authenticator Assurance Level. Please verify yourself with a second factor to resolve this issue.",
        details: { redirect_browser_to: `${pub}/self-service/login/browser?aal=aal2` },
        message: "Session does not fulfill the requested Authenticator Assurance Level",
      },
      redirect_browser_to: `${pub}/self-service/login/browser?aal=aal2`,
    });

    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    expect(flow.requested_aal).toBe("aal2");
    expect(messageIds(flow, "")).toEqual([1010004]);
    expect(nodeShape(flow)).toEqual([
      "input/default/csrf_token/hidden/-",
      "input/default/trust_device/checkbox/9010001",
      "input/totp/totp_code/text/1010006",
      "input/totp/method/submit/1010009",
    ]);
    expect(stableNodes(nodesOfGroups(flow, ["totp"]))).toEqual(
      stableNodes(
        nodesOfGroups(
          {
            ui: { nodes: vendoredFlowFile<UiNode[]>("kratos.snapshot.login.aal2.totp.nodes.json") },
          },
          ["totp"],
        ),
      ),
    );

    ts.advanceClock(5 * 60_000);
    try {
      const done = await submitLogin(ts, browser, flow, {
        method: "totp",
        totp_code: totpCode(secret, ts.now()),
      });
      expect(done.status).toBe(200);
      const session = (done.body as { session: Session }).session;
      expect(session.authenticator_assurance_level).toBe("aal2");
      expect(session.authentication_methods?.map((m) => m.method)).toEqual(["password", "totp"]);
      expect(session.authenticated_at).toBe(ts.now().toISOString());
      const after = await whoami(ts, browser);
      expect(after.status).toBe(200);
      expect((after.body as Session).id).toBe(session.id);
    } finally {
      ts.advanceClock(-5 * 60_000);
    }
  });

  it("sends HTML form posts to the aal2 login with return_to, and native apps get no identity", async () => {
    await withTotp("html@example.com");
    const { api, jar } = ts.browser();
    const flow = await api.createBrowserLoginFlow({ returnTo: "http://localhost:4000/next" });
    const posted = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      jar,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        method: "password",
        identifier: "html@example.com",
        password: strongPassword,
        csrf_token: csrfTokenOf(flow),
      }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe(
      `${pub}/self-service/login/browser?aal=aal2&return_to=${encodeURIComponent("http://localhost:4000/next")}`,
    );

    const native = ts.native();
    const apiFlow = await native.createNativeLoginFlow();
    const result = await native.updateLoginFlow({
      flow: apiFlow.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: "html@example.com",
        password: strongPassword,
      },
    });
    expect(result.session.authenticator_assurance_level).toBe("aal1");
    expect(result.session.identity).toBeUndefined();
    const aal2 = await failureOf(native.toSession({ xSessionToken: result.session_token ?? "" }));
    expect(aal2.status).toBe(403);
  });

  it("asks for a session before an aal2 login: 401 session_aal1_required", async () => {
    const refused = await failureOf(ts.browser().api.createBrowserLoginFlow({ aal: "aal2" }));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { id: "session_aal1_required" } });
  });

  it("accepts codes one step off either way, refuses two steps off and any replay", async () => {
    const { secret } = await withTotp("drift@example.com");
    const at = (seconds: number) => new Date(ts.now().getTime() + seconds * 1000);
    const tryCode = async (code: string) => {
      const { browser } = await passwordSignIn(ts, "drift@example.com");
      const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
      return submitLogin(ts, browser, flow, { method: "totp", totp_code: code });
    };
    // ±2 steps: refused with 4000008 in ui.messages, the code input emptied.
    const tooEarly = await tryCode(totpCode(secret, at(-60)));
    expect(tooEarly.status).toBe(400);
    expect(messageIds(tooEarly.body as LoginFlow, "")).toEqual([4000008]);
    expect(inputAttributes(tooEarly.body as LoginFlow, "totp_code")?.value).toBeUndefined();
    expect((await tryCode(totpCode(secret, at(60)))).status).toBe(400);

    // One step back and one ahead are accepted (the step linking used was the current one).
    ts.advanceClock(90_000);
    try {
      expect((await tryCode(totpCode(secret, at(-30)))).status).toBe(200);
      const ahead = totpCode(secret, at(30));
      expect((await tryCode(ahead)).status).toBe(200);
      // The same code again, and an older step after a newer one, are replays.
      const replay = await tryCode(ahead);
      expect(replay.status).toBe(400);
      expect(messageIds(replay.body as LoginFlow, "")).toEqual([4000008]);
      expect((await tryCode(totpCode(secret, at(0)))).status).toBe(400);
    } finally {
      ts.advanceClock(-90_000);
    }
  });

  it("lets refresh=true&aal=aal2 re-verify the second factor on the same session", async () => {
    const { browser, secret } = await withTotp("refresh2@example.com");
    ts.advanceClock(60_000);
    try {
      const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2", refresh: true });
      expect(flow.refresh).toBe(true);
      expect(messageIds(flow, "")).toEqual([1010003]);
      expect(inputAttributes(flow, "totp_code")).toBeDefined();
      const done = await submitLogin(ts, browser, flow, {
        method: "totp",
        totp_code: totpCode(secret, ts.now()),
      });
      expect(done.status).toBe(200);
      const session = (done.body as { session: Session }).session;
      expect(session.authentication_methods?.map((m) => m.method)).toEqual([
        "password",
        "totp",
        "totp",
      ]);
    } finally {
      ts.advanceClock(-60_000);
    }
  });
});

describe("settings with a second factor", () => {
  it("asks an aal1 session for the second factor first: 403 session_aal2_required / 303", async () => {
    const { secret } = await withTotp("settings-aal@example.com");
    const { browser } = await passwordSignIn(ts, "settings-aal@example.com");
    const refused = await failureOf(
      browser.api.createBrowserSettingsFlow({ returnTo: "http://localhost:3000/settings" }),
    );
    expect(refused.status).toBe(403);
    const back = `${pub}/self-service/settings/browser?return_to=${encodeURIComponent("http://localhost:3000/settings")}`;
    expect(refused.body).toMatchObject({
      error: { id: "session_aal2_required" },
      redirect_browser_to: `${pub}/self-service/login/browser?aal=aal2&return_to=${encodeURIComponent(back)}`,
    });
    const html = await call(`${ts.publicUrl}/self-service/settings/browser`, { jar: browser.jar });
    expect(html.status).toBe(303);
    expect(html.headers.get("location")).toBe(`${pub}/self-service/login/browser?aal=aal2`);

    expect(
      (await completeTotp(ts, browser, secret, {}, new Date(ts.now().getTime() + 30_000))).status,
    ).toBe(200);
    const flow = await browser.api.createBrowserSettingsFlow();
    expect(flow.state).toBe("show_form");
  });
});
