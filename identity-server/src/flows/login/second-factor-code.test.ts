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
} from "../../test-support/flow-helpers.ts";
import {
  nodesOfGroups,
  passwordSignIn,
  stableNodes,
  submitLogin,
  vendoredFlowFile,
  verifyEmail,
  whoami,
  type Browser,
} from "../../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  // These tests send one address many codes (registration, verification, sends and resends); the
  // per-address send limit has tests of its own (src/rate-limit).
  ts = await startTestServer({ IDENTITY_RATE_LIMIT_CODE_SENDS_PER_ADDRESS: "50" }, undefined, {
    freezeClock: true,
  });
});
afterAll(async () => {
  await ts.stop();
});

async function toggle(
  browser: Browser,
  flow: SettingsFlow,
  field: "code_mfa_enable" | "code_mfa_disable",
  address: string,
): Promise<SettingsFlow> {
  return browser.api.updateSettingsFlow({
    flow: flow.id,
    updateSettingsFlowBody: {
      method: "code",
      [field]: address,
      csrf_token: csrfTokenOf(flow),
    } as never,
  });
}

/** A registered, verified identity with codes to its e-mail turned on as a second factor. */
async function withCodeMfa(email: string): Promise<string> {
  const { identityId } = await registerNative(ts, email);
  await verifyEmail(ts, email);
  const { browser } = await passwordSignIn(ts, email);
  await toggle(browser, await browser.api.createBrowserSettingsFlow(), "code_mfa_enable", email);
  return identityId;
}

/** Signs in with the password and asks for a code at the aal2 login; the sent flow. */
async function codeSent(email: string): Promise<{ browser: Browser; sent: LoginFlow }> {
  const { browser } = await passwordSignIn(ts, email);
  const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
  const answer = await submitLogin(ts, browser, flow, { method: "code", address: email });
  expect(answer.status).toBe(400);
  return { browser, sent: answer.body as LoginFlow };
}

describe("codes as a second factor in settings (our `code` group)", () => {
  it("offers only verified addresses, turns one on and off, and keeps Kratos' credential shape", async () => {
    const { identityId } = await registerNative(ts, "toggle@example.com");
    const { browser } = await passwordSignIn(ts, "toggle@example.com");
    const before = await browser.api.createBrowserSettingsFlow();
    expect(nodesOfGroups(before, ["code"])).toEqual([]);

    await verifyEmail(ts, "toggle@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    expect(nodesOfGroups(flow, ["code"])).toEqual([
      {
        type: "input",
        group: "code",
        attributes: {
          name: "code_mfa_enable",
          type: "submit",
          value: "toggle@example.com",
          disabled: false,
          node_type: "input",
        },
        messages: [],
        meta: {
          label: {
            id: 9010002,
            text: "Use codes sent to toggle@example.com as a second factor",
            type: "info",
            context: { address: "toggle@example.com", channel: "email" },
          },
        },
      },
    ]);

    const on = await toggle(browser, flow, "code_mfa_enable", "toggle@example.com");
    expect(on.state).toBe("success");
    expect(nodeShape({ ui: { nodes: nodesOfGroups(on, ["code"]) } })).toEqual([
      "input/code/code_mfa_disable/submit/9010003",
    ]);
    const admin = await call(
      `${ts.adminUrl}/admin/identities/${identityId}?include_credential=code`,
    );
    expect(
      (admin.body as { credentials: Record<string, { config: unknown }> }).credentials.code?.config,
    ).toEqual({ addresses: [{ address: "toggle@example.com", channel: "email" }] });

    // Turning it on does not prove the factor in this session: the next request asks for it.
    expect((await whoami(ts, browser)).status).toBe(403);
  });

  it("refuses unverified addresses and, without a privileged session, any change", async () => {
    await registerNative(ts, "unverified@example.com");
    const { browser } = await passwordSignIn(ts, "unverified@example.com");
    const flow = await browser.api.createBrowserSettingsFlow();
    const refused = await failureOf(
      toggle(browser, flow, "code_mfa_enable", "unverified@example.com"),
    );
    expect(refused.status).toBe(400);
    expect(messageIds(refused.body as SettingsFlow, "")).toEqual([4000001]);

    await verifyEmail(ts, "unverified@example.com");
    ts.advanceClock(61 * 60_000);
    try {
      const stale = await browser.api.createBrowserSettingsFlow();
      const answer = await failureOf(
        toggle(browser, stale, "code_mfa_enable", "unverified@example.com"),
      );
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ error: { id: "session_refresh_required" } });
    } finally {
      ts.advanceClock(-61 * 60_000);
    }
  });
});

describe("codes as a second factor at sign-in", () => {
  it("sends a code to the chosen address and completes the session with it (aal2, AMR code)", async () => {
    await withCodeMfa("mfa@example.com");
    const { browser, answer } = await passwordSignIn(ts, "mfa@example.com");
    expect(answer.status).toBe(422);
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    expect(nodeShape(flow)).toEqual([
      "input/default/csrf_token/hidden/-",
      "input/default/trust_device/checkbox/9010001",
      "input/code/address/submit/1010023",
    ]);
    const vendoredAddress = vendoredFlowFile<UiNode[]>(
      "kratos.snapshot.login.aal2.code.choose-address.spa.json",
    )[1];
    expect(stableNodes(nodesOfGroups(flow, ["code"]))).toEqual(
      stableNodes([
        {
          ...vendoredAddress,
          attributes: { ...vendoredAddress?.attributes, value: "mfa@example.com" },
          meta: {
            label: {
              id: 1010023,
              text: "Send code to mfa@example.com",
              type: "info",
              context: { address: "mfa@example.com", channel: "email" },
            },
          },
        } as UiNode,
      ]),
    );

    const sent = await submitLogin(ts, browser, flow, {
      method: "code",
      address: "mfa@example.com",
    });
    expect(sent.status).toBe(400);
    const sentFlow = sent.body as LoginFlow;
    expect(sentFlow).toMatchObject({ state: "sent_email", active: "code", requested_aal: "aal2" });
    expect(messageIds(sentFlow, "")).toEqual([1010025]);
    const vendoredSent = vendoredFlowFile<LoginFlow>(
      "kratos.snapshot.login.aal2.code.sent-email.browser.json",
    );
    expect(nodeShape({ ui: { nodes: nodesOfGroups(sentFlow, ["code"]) } })).toEqual(
      nodeShape({ ui: { nodes: nodesOfGroups(vendoredSent, ["code"]) } }),
    );
    expect(inputAttributes(sentFlow, "identifier")?.value).toBe("mfa@example.com");
    expect(inputAttributes(sentFlow, "trust_device")).toBeDefined();
    const [message] = await ts.messagesTo("mfa@example.com");
    expect(message?.template_type).toBe("login_code_valid");

    const wrong = await submitLogin(ts, browser, sentFlow, { method: "code", code: "000000" });
    expect(wrong.status).toBe(400);
    expect(messageIds(wrong.body as LoginFlow, "")).toEqual([4010008]);

    const done = await submitLogin(ts, browser, wrong.body as LoginFlow, {
      method: "code",
      code: message?.code,
    });
    expect(done.status).toBe(200);
    const session = (done.body as { session: Session }).session;
    expect(session.authenticator_assurance_level).toBe("aal2");
    expect(session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ["password", "aal1"],
      ["code", "aal2"],
    ]);
  });

  it("counts five tries per flow (the sixth is refused even with the right code) and resends", async () => {
    await withCodeMfa("tries@example.com");
    const { browser, sent } = await codeSent("tries@example.com");
    let flow = sent;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await submitLogin(ts, browser, flow, { method: "code", code: "000000" });
      expect(messageIds(wrong.body as LoginFlow, "")).toEqual([4010008]);
      flow = wrong.body as LoginFlow;
    }
    const right = await ts.latestCode("tries@example.com");
    const sixth = await submitLogin(ts, browser, flow, { method: "code", code: right });
    expect(sixth.status).toBe(400);
    expect((sixth.body as LoginFlow).ui.messages?.[0]).toMatchObject({
      id: 4000001,
      text: "The request was submitted too often. Please request another code.",
    });

    // A resend does not reset the count: the new code is refused on this flow too.
    const resentExhausted = await submitLogin(ts, browser, sixth.body as LoginFlow, {
      method: "code",
      resend: "code",
      identifier: "tries@example.com",
    });
    expect(resentExhausted.status).toBe(400);
    const fresh = await ts.latestCode("tries@example.com");
    const seventh = await submitLogin(ts, browser, resentExhausted.body as LoginFlow, {
      method: "code",
      code: fresh,
    });
    expect((seventh.body as LoginFlow).ui.messages?.[0]?.id).toBe(4000001);

    // On a new flow, a resend replaces the code: the first one stops working.
    const { browser: other, sent: otherSent } = await codeSent("tries@example.com");
    const first = await ts.latestCode("tries@example.com");
    const resent = await submitLogin(ts, other, otherSent, {
      method: "code",
      resend: "code",
      identifier: "tries@example.com",
    });
    expect(resent.status).toBe(400);
    expect((resent.body as LoginFlow).state).toBe("sent_email");
    const second = await ts.latestCode("tries@example.com");
    const old = await submitLogin(ts, other, resent.body as LoginFlow, {
      method: "code",
      code: first,
    });
    expect(messageIds(old.body as LoginFlow, "")).toEqual([4010008]);
    const ok = await submitLogin(ts, other, old.body as LoginFlow, {
      method: "code",
      code: second,
    });
    expect(ok.status).toBe(200);
  });

  it("refuses an address that is not a code address of the identity (4000035)", async () => {
    await withCodeMfa("other-address@example.com");
    const { browser } = await passwordSignIn(ts, "other-address@example.com");
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    const answer = await submitLogin(ts, browser, flow, {
      method: "code",
      address: "someone-else@example.com",
    });
    expect(answer.status).toBe(400);
    expect(messageIds(answer.body as LoginFlow, "")).toEqual([4000035]);
  });

  it("turning codes off (from an aal2 session) brings the identity back to one factor", async () => {
    await withCodeMfa("off@example.com");
    const { browser, sent } = await codeSent("off@example.com");
    const code = await ts.latestCode("off@example.com");
    expect((await submitLogin(ts, browser, sent, { method: "code", code })).status).toBe(200);
    const flow = await browser.api.createBrowserSettingsFlow();
    const off = await toggle(browser, flow, "code_mfa_disable", "off@example.com");
    expect(off.state).toBe("success");
    expect((await passwordSignIn(ts, "off@example.com")).answer.status).toBe(200);
  });
});
