import type { Session, SettingsFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import {
  csrfTokenOf,
  inputAttributes,
  nodeShape,
  registerNative,
  strongPassword,
} from "../test-support/flow-helpers.ts";
import {
  linkTotp,
  nodesOfGroups,
  passwordSignIn,
  submitLogin,
  totpCode,
  type Browser,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

const day = 24 * 3_600_000;

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

/**
 * The next authenticator code: the clock moves on one 30-second step first, because every step is
 * accepted only once per identity.
 */
function nextCode(secret: string): string {
  ts.advanceClock(30_000);
  return totpCode(secret, ts.now());
}

/** An identity with an authenticator app; returns its secret. */
async function withTotp(email: string): Promise<string> {
  await registerNative(ts, email);
  const { browser } = await passwordSignIn(ts, email);
  return linkTotp(ts, browser);
}

/** Password, then TOTP with `trust_device` ticked, from a browser with the given fingerprint. */
async function trustBrowser(
  email: string,
  secret: string,
  fingerprint?: string,
): Promise<{ browser: Browser; setCookie: string[] }> {
  const headers: Record<string, string> = fingerprint ? { "x-session-entropy": fingerprint } : {};
  const { browser } = await passwordSignIn(ts, email, ts.browser(), headers);
  const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
  const done = await submitLogin(
    ts,
    browser,
    flow,
    { method: "totp", totp_code: nextCode(secret), trust_device: true },
    headers,
  );
  expect(done.status).toBe(200);
  return { browser, setCookie: done.headers.getSetCookie() };
}

/** A new browser session holding only the trusted-device cookie of `from`. */
function withDeviceCookie(from: Browser): Browser {
  const browser = ts.browser();
  const token = from.jar.get("ory_trusted_device");
  if (token) browser.jar.cookies.set("ory_trusted_device", token);
  return browser;
}

/** The devices in the settings flow's `totp-trusted-devices` node (what SDK users read). */
function trustedDevicesOf(flow: SettingsFlow): Record<string, Record<string, string>> {
  const node = flow.ui.nodes.find(
    (n) => (n.attributes as { id?: string }).id === "totp-trusted-devices",
  );
  const text = (
    node?.attributes as unknown as {
      text: { id: number; text: string; context: { data: string } };
    }
  ).text;
  const devices = JSON.parse(text.context.data) as Record<string, Record<string, string>>;
  // The text is words (9010004, or 9010009 for none); the JSON is only in the context.
  expect(text.id).toBe(Object.keys(devices).length === 0 ? 9010009 : 9010004);
  expect(text.text).not.toMatch(/[{}]/);
  return devices;
}

describe("trusted devices", () => {
  it("refuses a trust_device that is not a yes or no before the code is spent", async () => {
    const secret = await withTotp("bad-trust@example.com");
    const { browser } = await passwordSignIn(ts, "bad-trust@example.com");
    const code = nextCode(secret);
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    const refused = await submitLogin(ts, browser, flow, {
      method: "totp",
      totp_code: code,
      trust_device: "maybe",
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("4000001");
    // The same code still signs in: the refusal came before the factor was checked.
    const again = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    const done = await submitLogin(ts, browser, again, { method: "totp", totp_code: code });
    expect(done.status).toBe(200);
  });

  it("offers trust_device on the browser's second-factor form, not to native apps", async () => {
    await withTotp("offer@example.com");
    const { browser } = await passwordSignIn(ts, "offer@example.com");
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
    expect(
      flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === "trust_device"),
    ).toEqual({
      type: "input",
      group: "default",
      attributes: {
        name: "trust_device",
        type: "checkbox",
        value: "true",
        disabled: false,
        node_type: "input",
      },
      messages: [],
      meta: {
        label: {
          id: 9010001,
          text: "Trust this device for 30 days",
          type: "info",
          context: { days: 30 },
        },
      },
    });

    const native = ts.native();
    const apiLogin = await native.createNativeLoginFlow();
    const first = await native.updateLoginFlow({
      flow: apiLogin.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: "offer@example.com",
        password: strongPassword,
      },
    });
    const apiFlow = await native.createNativeLoginFlow({
      aal: "aal2",
      xSessionToken: first.session_token,
    });
    expect(inputAttributes(apiFlow, "trust_device")).toBeUndefined();
    expect(inputAttributes(apiFlow, "totp_code")).toBeDefined();
  });

  it("trusts the browser after a ticked second factor: cookie, settings list, and the next sign-in skips only the second factor", async () => {
    const secret = await withTotp("trust@example.com");
    const { browser, setCookie } = await trustBrowser("trust@example.com", secret, "fp-1");
    const cookie = setCookie.find((c) => c.startsWith("ory_trusted_device="));
    expect(cookie).toMatch(/; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);

    const settings = await browser.api.createBrowserSettingsFlow();
    const devices = trustedDevicesOf(settings);
    const [id] = Object.keys(devices);
    expect(devices[id ?? ""]).toEqual({
      user_agent: "node",
      ip_address: "127.0.0.1",
      created_at: ts.now().toISOString(),
      expires_at: new Date(ts.now().getTime() + 30 * day).toISOString(),
      fingerprint: "fp-1",
      // The request carried this browser's own trusted-device cookie.
      current: true,
    });
    expect(nodeShape({ ui: { nodes: nodesOfGroups(settings, ["totp"]) } })).toEqual([
      "input/totp/totp_unlink/submit/1050004",
      "text/totp/totp-trusted-devices//9010005",
      "input/totp/totp_device_untrust/submit/9010006",
    ]);
    expect(inputAttributes(settings, "totp_device_untrust")?.value).toBe(id);
    // A UI that does not know trusted devices shows the texts as sent: they name the device.
    const trustedOn = ts.now().toISOString().slice(0, 10);
    const until = new Date(ts.now().getTime() + 30 * day).toISOString().slice(0, 10);
    const device = `node (127.0.0.1), trusted on ${trustedOn} until ${until}`;
    const listNode = settings.ui.nodes.find(
      (n) => (n.attributes as { id?: string }).id === "totp-trusted-devices",
    );
    expect((listNode?.attributes as { text?: unknown }).text).toEqual({
      id: 9010004,
      text: `Trusted devices skip the second factor until they expire: ${device}.`,
      type: "info",
      context: { data: JSON.stringify(devices), devices: device },
    });
    const untrust = settings.ui.nodes.find(
      (n) => (n.attributes as { name?: string }).name === "totp_device_untrust",
    );
    expect(untrust?.meta.label).toEqual({
      id: 9010006,
      text: `Stop trusting ${device}`,
      type: "info",
      context: { device, device_id: id },
    });
    // Raw JSON also carries the list as `attributes.data` (portal spec §3); SDK models drop it.
    const raw = await call(`${ts.publicUrl}/self-service/settings/flows?id=${settings.id}`, {
      jar: browser.jar,
      headers: { accept: "application/json" },
    });
    const rawNode = (raw.body as SettingsFlow).ui.nodes.find(
      (n) => (n.attributes as { id?: string }).id === "totp-trusted-devices",
    );
    expect(JSON.parse((rawNode?.attributes as unknown as { data: string }).data)).toEqual(devices);

    // The password is still asked; the second factor is not.
    const again = withDeviceCookie(browser);
    const { answer } = await passwordSignIn(ts, "trust@example.com", again, {
      "x-session-entropy": "fp-1",
    });
    expect(answer.status).toBe(200);
    const session = (answer.body as { session: Session }).session;
    expect(session.authenticator_assurance_level).toBe("aal2");
    expect(session.authentication_methods?.map((m) => [m.method, m.aal, m.provider])).toEqual([
      ["password", "aal1", undefined],
      ["deviceauthn", "aal2", "trusted_device"],
    ]);
  });

  it("marks the browser holding the device's cookie as current, not another one with the same fingerprint", async () => {
    const secret = await withTotp("twins@example.com");
    const first = await trustBrowser("twins@example.com", secret, "fp-shared");
    const second = await trustBrowser("twins@example.com", secret, "fp-shared");
    const currentOf = async (browser: Browser) => {
      const devices = trustedDevicesOf(await browser.api.createBrowserSettingsFlow());
      expect(Object.values(devices).map((d) => d.fingerprint)).toEqual(["fp-shared", "fp-shared"]);
      return Object.entries(devices).flatMap(([id, d]) =>
        (d as Record<string, unknown>).current === true ? [id] : [],
      );
    };
    const [firstMarked, secondMarked] = [
      await currentOf(first.browser),
      await currentOf(second.browser),
    ];
    expect(firstMarked).toHaveLength(1);
    expect(secondMarked).toHaveLength(1);
    expect(firstMarked).not.toEqual(secondMarked);

    // A signed-in browser with the same fingerprint but no trusted-device cookie is none of them.
    const { browser: plain } = await passwordSignIn(ts, "twins@example.com", ts.browser(), {
      "x-session-entropy": "fp-shared",
    });
    const aal2 = await plain.api.createBrowserLoginFlow({ aal: "aal2" });
    const done = await submitLogin(ts, plain, aal2, {
      method: "totp",
      totp_code: nextCode(secret),
    });
    expect(done.status).toBe(200);
    const devices = trustedDevicesOf(await plain.api.createBrowserSettingsFlow());
    expect(Object.values(devices).map((d) => (d as Record<string, unknown>).current)).toEqual([
      false,
      false,
    ]);
  });

  it("does not skip for another fingerprint, without the cookie, or once expired", async () => {
    const secret = await withTotp("limits@example.com");
    const { browser } = await trustBrowser("limits@example.com", secret, "fp-a");
    const signIn = (fingerprint: string, from: Browser = withDeviceCookie(browser)) =>
      passwordSignIn(ts, "limits@example.com", from, { "x-session-entropy": fingerprint });

    expect((await signIn("fp-b")).answer.status).toBe(422);
    expect((await signIn("fp-a", ts.browser())).answer.status).toBe(422);
    expect((await signIn("fp-a")).answer.status).toBe(200);

    ts.advanceClock(30 * day + 60_000);
    try {
      expect((await signIn("fp-a")).answer.status).toBe(422);
    } finally {
      ts.advanceClock(-(30 * day + 60_000));
    }
  });

  it("without a recorded fingerprint, the cookie alone is enough", async () => {
    const secret = await withTotp("nofp@example.com");
    const { browser } = await trustBrowser("nofp@example.com", secret);
    const { answer } = await passwordSignIn(ts, "nofp@example.com", withDeviceCookie(browser), {
      "x-session-entropy": "anything",
    });
    expect(answer.status).toBe(200);
  });

  it("untrusts one device without a fresh sign-in, clearing this browser's cookie", async () => {
    const secret = await withTotp("untrust@example.com");
    const { browser } = await trustBrowser("untrust@example.com", secret);
    ts.advanceClock(2 * 3_600_000);
    try {
      const flow = await browser.api.createBrowserSettingsFlow();
      const [id] = Object.keys(trustedDevicesOf(flow));
      const answer = await call(`${ts.publicUrl}/self-service/settings?flow=${flow.id}`, {
        method: "POST",
        jar: browser.jar,
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ totp_device_untrust: id, csrf_token: csrfTokenOf(flow) }),
      });
      expect(answer.status).toBe(200);
      const done = answer.body as SettingsFlow;
      expect(done.state).toBe("success");
      expect(trustedDevicesOf(done)).toEqual({});
      expect(
        answer.headers.getSetCookie().some((c) => /^ory_trusted_device=;.*Max-Age=0/.test(c)),
      ).toBe(true);
    } finally {
      ts.advanceClock(-2 * 3_600_000);
    }
  });

  it("forgets every device when the app is unlinked, new backup codes are saved, or the account is recovered", async () => {
    const skips = async (email: string, from: Browser) =>
      (await passwordSignIn(ts, email, withDeviceCookie(from))).answer.status === 200;

    // Unlinking the app (then linking a new one, so a second factor exists again).
    const secret = await withTotp("revoke-unlink@example.com");
    const { browser: unlinked } = await trustBrowser("revoke-unlink@example.com", secret);
    expect(await skips("revoke-unlink@example.com", unlinked)).toBe(true);
    const flow = await unlinked.api.createBrowserSettingsFlow();
    await unlinked.api.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: { method: "totp", totp_unlink: true, csrf_token: csrfTokenOf(flow) },
    });
    ts.advanceClock(30_000);
    await linkTotp(ts, unlinked);
    expect(await skips("revoke-unlink@example.com", unlinked)).toBe(false);

    // Confirming newly generated backup codes.
    const secret2 = await withTotp("revoke-codes@example.com");
    const { browser: coded } = await trustBrowser("revoke-codes@example.com", secret2);
    const settings = await coded.api.createBrowserSettingsFlow();
    const generated = await coded.api.updateSettingsFlow({
      flow: settings.id,
      updateSettingsFlowBody: {
        method: "lookup_secret",
        lookup_secret_regenerate: true,
        csrf_token: csrfTokenOf(settings),
      },
    });
    expect(await skips("revoke-codes@example.com", coded)).toBe(true);
    await coded.api.updateSettingsFlow({
      flow: settings.id,
      updateSettingsFlowBody: {
        method: "lookup_secret",
        lookup_secret_confirm: true,
        csrf_token: csrfTokenOf(generated),
      },
    });
    expect(await skips("revoke-codes@example.com", coded)).toBe(false);

    // Recovering the account by code.
    const secret3 = await withTotp("revoke-recovery@example.com");
    const { browser: recovered } = await trustBrowser("revoke-recovery@example.com", secret3);
    expect(await skips("revoke-recovery@example.com", recovered)).toBe(true);
    const { api } = ts.browser();
    const recovery = await api.createBrowserRecoveryFlow();
    const sent = await api.updateRecoveryFlow({
      flow: recovery.id,
      updateRecoveryFlowBody: {
        method: "code",
        email: "revoke-recovery@example.com",
        csrf_token: csrfTokenOf(recovery),
      },
    });
    await api.updateRecoveryFlow({
      flow: sent.id,
      updateRecoveryFlowBody: {
        method: "code",
        code: await ts.latestCode("revoke-recovery@example.com"),
        csrf_token: csrfTokenOf(sent),
      },
    });
    expect(await skips("revoke-recovery@example.com", recovered)).toBe(false);
  });

  it("works for HTML form posts: 303 to return_to and the cookie with it", async () => {
    const secret = await withTotp("form@example.com");
    const { browser } = await passwordSignIn(ts, "form@example.com");
    const flow = await browser.api.createBrowserLoginFlow({
      aal: "aal2",
      returnTo: "http://localhost:4000/after",
    });
    const posted = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      jar: browser.jar,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        method: "totp",
        totp_code: nextCode(secret),
        trust_device: "true",
        csrf_token: csrfTokenOf(flow),
      }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("http://localhost:4000/after");
    expect(browser.jar.get("ory_trusted_device")).toMatch(/^ory_td_[A-Za-z0-9]{32}$/);
  });

  it("ignores a trusted-device cookie of another identity", async () => {
    const secret = await withTotp("owner@example.com");
    await withTotp("intruder@example.com");
    const { browser } = await trustBrowser("owner@example.com", secret);
    const { answer } = await passwordSignIn(ts, "intruder@example.com", withDeviceCookie(browser));
    expect(answer.status).toBe(422);
    const flow = (answer.body as { redirect_browser_to?: string }).redirect_browser_to;
    expect(flow).toContain("aal=aal2");
  });
});
