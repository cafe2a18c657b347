import type { LoginFlow, SettingsFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfTokenOf, messageIds, registerNative } from "../test-support/flow-helpers.ts";
import {
  linkTotp,
  passwordSignIn,
  submitLogin,
  totpCode,
  verifyEmail,
  type Browser,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  // Enough code sends that only the second-factor limit is in play here.
  ts = await startTestServer({ IDENTITY_RATE_LIMIT_CODE_SENDS_PER_ADDRESS: "50" }, undefined, {
    freezeClock: true,
  });
});
afterAll(async () => {
  await ts.stop();
});

const limited = (seconds: number, wait: string) => ({
  id: 9010007,
  text: `Too many attempts. Try again in ${wait}.`,
  type: "error",
  context: { retry_after_seconds: seconds, wait },
});

function firstMessage(flow: unknown) {
  return (flow as LoginFlow).ui.messages?.[0];
}

/** Generates and confirms backup codes in settings; returns them. */
async function backupCodes(browser: Browser): Promise<string[]> {
  const flow = await browser.api.createBrowserSettingsFlow();
  const generated = await browser.api.updateSettingsFlow({
    flow: flow.id,
    updateSettingsFlowBody: {
      method: "lookup_secret",
      lookup_secret_regenerate: true,
      csrf_token: csrfTokenOf(flow),
    },
  });
  const node = generated.ui.nodes.find(
    (n) => (n.attributes as { id?: string }).id === "lookup_secret_codes",
  );
  const secrets = (
    node?.attributes as unknown as {
      text: { context: { secrets: { context: { secret: unknown } }[] } };
    }
  ).text.context.secrets;
  await browser.api.updateSettingsFlow({
    flow: generated.id,
    updateSettingsFlowBody: {
      method: "lookup_secret",
      lookup_secret_confirm: true,
      csrf_token: csrfTokenOf(generated),
    },
  });
  return secrets.map((s) => String(s.context.secret));
}

/** A fresh aal2 login flow of the browser's (aal1) session. */
async function aal2Flow(browser: Browser): Promise<LoginFlow> {
  return browser.api.createBrowserLoginFlow({ aal: "aal2" });
}

describe("wrong second factors per identity (default 10 per 10 minutes)", () => {
  it("refuses the 11th TOTP code, even the right one, until the window has passed", async () => {
    await registerNative(ts, "totp@example.com");
    const { browser: setup } = await passwordSignIn(ts, "totp@example.com");
    const secret = await linkTotp(ts, setup);
    const { browser } = await passwordSignIn(ts, "totp@example.com");

    for (let i = 0; i < 10; i++) {
      const wrong = await submitLogin(ts, browser, await aal2Flow(browser), {
        method: "totp",
        totp_code: "000000",
      });
      expect(messageIds(wrong.body as LoginFlow, "")).toEqual([4000008]);
    }
    ts.advanceClock(4 * 60_000);
    const refused = await submitLogin(ts, browser, await aal2Flow(browser), {
      method: "totp",
      totp_code: totpCode(secret, ts.now()),
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("retry-after")).toBe("360");
    expect(firstMessage(refused.body)).toEqual(limited(360, "6 minutes"));

    ts.advanceClock(6 * 60_000);
    const passed = await submitLogin(ts, browser, await aal2Flow(browser), {
      method: "totp",
      totp_code: totpCode(secret, ts.now()),
    });
    expect(passed.status).toBe(200);
  });

  it("counts wrong login codes across flows (the per-flow limit of 5 still applies inside one)", async () => {
    await registerNative(ts, "code@example.com");
    await verifyEmail(ts, "code@example.com");
    const { browser } = await passwordSignIn(ts, "code@example.com");
    const settings: SettingsFlow = await browser.api.createBrowserSettingsFlow();
    await browser.api.updateSettingsFlow({
      flow: settings.id,
      updateSettingsFlowBody: {
        method: "code",
        code_mfa_enable: "code@example.com",
        csrf_token: csrfTokenOf(settings),
      } as never,
    });
    const { browser: signIn } = await passwordSignIn(ts, "code@example.com");
    const sentFlow = async () => {
      const sent = await submitLogin(ts, signIn, await aal2Flow(signIn), {
        method: "code",
        address: "code@example.com",
      });
      return sent.body as LoginFlow;
    };
    for (let round = 0; round < 2; round++) {
      let flow = await sentFlow();
      for (let i = 0; i < 5; i++) {
        const wrong = await submitLogin(ts, signIn, flow, { method: "code", code: "000000" });
        expect(messageIds(wrong.body as LoginFlow, "")).toEqual([4010008]);
        flow = wrong.body as LoginFlow;
      }
    }
    const flow = await sentFlow();
    const right = await ts.latestCode("code@example.com");
    const refused = await submitLogin(ts, signIn, flow, { method: "code", code: right });
    expect(refused.status).toBe(400);
    expect(firstMessage(refused.body)).toEqual(limited(600, "10 minutes"));
  });

  it("counts wrong backup codes, and a passed second factor clears the count", async () => {
    await registerNative(ts, "lookup@example.com");
    const { browser: setup } = await passwordSignIn(ts, "lookup@example.com");
    const codes = await backupCodes(setup);
    const { browser } = await passwordSignIn(ts, "lookup@example.com");
    const backup = (b: Browser, code: string) =>
      aal2Flow(b).then((flow) =>
        submitLogin(ts, b, flow, { method: "lookup_secret", lookup_secret: code }),
      );

    for (let i = 0; i < 9; i++) {
      expect(messageIds((await backup(browser, "not-a-code")).body as LoginFlow, "")).toEqual([
        4000016,
      ]);
    }
    expect((await backup(browser, codes[0] ?? "")).status).toBe(200);

    // Cleared: ten more wrong answers before the next, even a right one, is refused.
    const { browser: again } = await passwordSignIn(ts, "lookup@example.com");
    for (let i = 0; i < 10; i++) {
      expect(messageIds((await backup(again, "not-a-code")).body as LoginFlow, "")).toEqual([
        4000016,
      ]);
    }
    ts.advanceClock(30_000);
    const refused = await backup(again, codes[1] ?? "");
    expect(refused.status).toBe(400);
    expect(firstMessage(refused.body)).toEqual(limited(570, "10 minutes"));
  });
});
