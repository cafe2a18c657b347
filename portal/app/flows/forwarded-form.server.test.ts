// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfTokenOf,
  registerNative,
} from "../../../identity-server/src/test-support/flow-helpers.ts";
import {
  linkTotp,
  passwordSignIn,
  totpCode,
} from "../../../identity-server/src/test-support/second-factor-helpers.ts";
import type { Browser } from "../../../identity-server/src/test-support/second-factor-helpers.ts";
import { startTestServer } from "../../../identity-server/src/test-support/test-server.ts";
import type { TestServer } from "../../../identity-server/src/test-support/test-server.ts";
import { createLoadContext } from "../http/request-context.ts";
import { submitLogin } from "../routes/login/login.server.ts";
import { submitSettings } from "../routes/settings/settings.server.ts";

/**
 * The portal forwards what a form posted (forwarded-form.ts) and leaves it to the identity
 * service to tell what the post is for. Here the real identity server answers the forms whose
 * fields say it least plainly: a checkbox posted as the string "true", and a settings button
 * posted without any `method`.
 */
let ts: TestServer;
const email = "forwarded@example.gov";
/** An account with nothing but its password: a fresh sign-in may change its settings. */
const plainEmail = "plain@example.gov";

beforeAll(async () => {
  ts = await startTestServer();
  // Read once by getConfig, on the first identity call of this file.
  process.env.KRATOS_PUBLIC_URL = ts.publicUrl;
  await registerNative(ts, email);
  await registerNative(ts, plainEmail);
});

afterAll(() => ts.stop());

function postAs(browser: Browser, path: string, fields: Record<string, string>) {
  const url = new URL(path, "http://localhost:3000");
  const cookie = browser.jar.header();
  return {
    request: new Request(url, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: cookie ? { cookie } : {},
    }),
    context: createLoadContext({ nonce: "n", forwardedFor: undefined, correlationId: "c-1" }),
    locale: "en" as const,
    url,
  };
}

/** Keeps the cookies the portal's answer sets, as the browser would. */
function keepCookies(browser: Browser, result: unknown) {
  if (result instanceof Response) browser.jar.store(result);
}

describe("forwarded forms answered by the real identity server", () => {
  it("signs in with the second factor and trusts the browser when the box was ticked", async () => {
    const setUp = (await passwordSignIn(ts, email)).browser;
    const secret = await linkTotp(ts, setUp);
    // The next code: the one that linked the app is spent.
    ts.advanceClock(30_000);
    const { browser } = await passwordSignIn(ts, email);
    const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });

    const result = await submitLogin(
      postAs(browser, `/en/login?flow=${flow.id}&aal=aal2`, {
        csrf_token: csrfTokenOf(flow),
        totp_code: ` ${totpCode(secret, ts.now())} `,
        trust_device: "true",
        method: "totp",
        remember_me: "true",
      }),
    );

    expect(result).toBeInstanceOf(Response);
    if (!(result instanceof Response)) return;
    const cookies = result.headers.getSetCookie().map((line) => line.split("=")[0]);
    expect(cookies).toContain("ory_trusted_device");
    keepCookies(browser, result);
    const session = await browser.api.toSession();
    expect(session.authenticator_assurance_level).toBe("aal2");
  });

  it("generates backup codes for a settings button posted without a method", async () => {
    const { browser } = await passwordSignIn(ts, plainEmail);
    const flow = await browser.api.createBrowserSettingsFlow();

    const result = await submitSettings(
      postAs(browser, `/en/settings?flow=${flow.id}`, {
        csrf_token: csrfTokenOf(flow),
        lookup_secret_regenerate: "true",
      }),
    );

    if (result instanceof Response || !("flow" in result.data)) {
      throw new Error(`no flow: ${result instanceof Response ? result.status : "data"}`);
    }
    expect(result.data.group).toBe("lookup_secret");
    const names = result.data.flow.ui.nodes.map((node) => node.attributes);
    expect(
      names.some((attributes) => "id" in attributes && attributes.id === "lookup_secret_codes"),
    ).toBe(true);
  });
});
