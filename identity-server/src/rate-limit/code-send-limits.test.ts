import type { LoginFlow, SettingsFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type TestResponse } from "../test-support/http-client.ts";
import { csrfTokenOf, messageIds, registerNative } from "../test-support/flow-helpers.ts";
import {
  passwordSignIn,
  submitLogin,
  verifyEmail,
  type Browser,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

const json = { "content-type": "application/json", accept: "application/json" };

/** Asks a fresh native recovery or verification flow for a code to the address (JSON). */
async function askForCode(kind: "recovery" | "verification", address: string) {
  const api = ts.native();
  const flow =
    kind === "recovery"
      ? await api.createNativeRecoveryFlow()
      : await api.createNativeVerificationFlow();
  return call(`${ts.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ method: "code", email: address }),
  });
}

/** An identity made through the admin API: no code has been sent to its address yet. */
async function adminIdentity(email: string): Promise<string> {
  const identity = await ts.admin().createIdentity({
    createIdentityBody: { schema_id: "default", traits: { email } },
  });
  return identity.id;
}

function firstMessage(answer: TestResponse) {
  return (answer.body as { ui: { messages?: unknown[] } }).ui.messages?.[0];
}

const limitedMessage = (seconds: number, wait: string) => ({
  id: 9010008,
  text: `Too many codes were requested for this address. Try again in ${wait}.`,
  type: "error",
  context: { retry_after_seconds: seconds, wait },
});

describe("codes sent per address (default 5 per 15 minutes)", () => {
  it("refuses the 6th recovery code, for known and unknown addresses alike", async () => {
    await adminIdentity("known@example.com");
    for (const address of ["known@example.com", "unknown@example.com"]) {
      for (let i = 0; i < 5; i++) {
        const sent = await askForCode("recovery", address);
        expect(sent.status).toBe(200);
        expect(messageIds(sent.body as never, "")).toEqual([1060003]);
      }
    }
    ts.advanceClock(60_000);
    const known = await askForCode("recovery", "Known@Example.com");
    const unknown = await askForCode("recovery", "unknown@example.com");
    for (const answer of [known, unknown]) {
      expect(answer.status).toBe(400);
      expect(answer.headers.get("retry-after")).toBe("840");
      expect(firstMessage(answer)).toEqual(limitedMessage(840, "14 minutes"));
    }
    expect(await ts.messagesTo("known@example.com")).toHaveLength(5);
    // The unknown address had its five "no account" notices (notify_unknown_recipients), no more.
    const notices = await ts.messagesTo("unknown@example.com");
    expect(notices.map((m) => m.template_type)).toEqual(Array(5).fill("recovery_code_invalid"));
  });

  it("counts verification codes to the same budget and lifts the limit after the window", async () => {
    await adminIdentity("verify@example.com");
    for (let i = 0; i < 3; i++)
      expect((await askForCode("verification", "verify@example.com")).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await askForCode("recovery", "verify@example.com")).status).toBe(200);
    const refused = await askForCode("verification", "verify@example.com");
    expect(refused.status).toBe(400);
    expect(firstMessage(refused)).toEqual(limitedMessage(900, "15 minutes"));
    expect(await ts.messagesTo("verify@example.com")).toHaveLength(5);

    ts.advanceClock(15 * 60_000);
    expect((await askForCode("verification", "verify@example.com")).status).toBe(200);
    expect(await ts.messagesTo("verify@example.com")).toHaveLength(6);
  });

  it("limits second-factor login codes by the signed-in browser's own budget", async () => {
    await registerNative(ts, "mfa@example.com");
    await verifyEmail(ts, "mfa@example.com");
    const { browser } = await passwordSignIn(ts, "mfa@example.com");
    const settings: SettingsFlow = await browser.api.createBrowserSettingsFlow();
    await browser.api.updateSettingsFlow({
      flow: settings.id,
      updateSettingsFlowBody: {
        method: "code",
        code_mfa_enable: "mfa@example.com",
        csrf_token: csrfTokenOf(settings),
      } as never,
    });
    const sendCode = async (b: Browser, flow: LoginFlow, resend: boolean) =>
      submitLogin(ts, b, flow, {
        method: "code",
        address: "mfa@example.com",
        ...(resend ? { resend: "code" } : {}),
      });
    // The browser proved the password (its device cookie names the account), so the two codes
    // that registration and verification sent to the address do not count here.
    let flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    for (let i = 0; i < 5; i++) {
      const answer = await sendCode(browser, flow, i > 0);
      expect(messageIds(answer.body as LoginFlow, "")).toEqual([1010025]);
      flow = answer.body as LoginFlow;
    }
    const refused = await sendCode(browser, flow, true);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("retry-after")).toBe("900");
    expect(firstMessage(refused)).toEqual(limitedMessage(900, "15 minutes"));
  });

  it("does not fail a registration whose verification code is over the limit; it sends none", async () => {
    for (let i = 0; i < 5; i++) await askForCode("recovery", "late@example.com");
    const { identityId } = await registerNative(ts, "late@example.com");
    expect(identityId).toMatch(/^[0-9a-f-]{36}$/);
    // Only the five "no account" notices of the recovery requests; no verification code.
    const messages = await ts.messagesTo("late@example.com");
    expect(messages.map((m) => m.template_type)).toEqual(Array(5).fill("recovery_code_invalid"));
  });
});

describe("the admin API is never limited", () => {
  it("creates 50 identities at once and recovery codes for a limited address", async () => {
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, i) => adminIdentity(`bulk${i}@example.com`)),
    );
    expect(new Set(ids).size).toBe(50);

    for (let i = 0; i < 5; i++) await askForCode("recovery", "bulk0@example.com");
    expect((await askForCode("recovery", "bulk0@example.com")).status).toBe(400);
    for (let i = 0; i < 8; i++) {
      const created = await call(`${ts.adminUrl}/admin/recovery/code`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ identity_id: ids[0], expires_in: "15m" }),
      });
      expect(created.status).toBe(201);
    }
  });
});
