import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import {
  linkTotp,
  passwordSignIn,
  submitLogin,
  totpCode,
  whoami,
  type Browser,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Session fixation and cookie flags (kratos-behaviour §1.4 CSRF details, §2 submit handling, §8).
// Kratos keeps the session (same id and token) when an existing session re-authenticates
// (refresh) or steps up to aal2, and issues a new session for every other login; a cookie value the
// browser had before signing in is never the signed-in session. The http-only flags of the
// trusted-device cookie without https are in trusted-devices/trusted-devices.test.ts, the theme
// cookie's in portal/app/routes/theme.test.ts and portal/app/http/security-headers.test.ts.

const json = { accept: "application/json" };

interface SessionBody {
  session: { id: string; authenticated_at: string; authenticator_assurance_level: string };
  session_token?: string;
}

function sessionCookieOf(setCookie: string[]): string | undefined {
  const line = setCookie.find((c) => c.startsWith("ory_kratos_session="));
  return line?.slice("ory_kratos_session=".length).split(";")[0];
}

describe("session fixation", () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({}, undefined, { freezeClock: true });
  });
  afterAll(() => ts.stop());

  it("never accepts a session cookie value planted before login as the signed-in session", async () => {
    const email = "fixation@example.com";
    await registerNative(ts, email);
    // An attacker's own valid session, its cookie copied into the victim's browser, plus made-up values.
    const attacker = (await passwordSignIn(ts, email)).browser;
    const stolenShape = attacker.jar.get("ory_kratos_session") ?? "";
    const [token] = stolenShape.split(".");
    const planted = [
      "attacker-chosen",
      `${token}x.forged-signature`,
      "ory_st_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ];
    for (const value of planted) {
      const victim: Browser = ts.browser();
      victim.jar.cookies.set("ory_kratos_session", value);
      const before = await whoami(ts, victim);
      expect(before.status, value).toBe(401);

      const { answer } = await passwordSignIn(ts, email, victim);
      expect(answer.status, value).toBe(200);
      const issued = sessionCookieOf(answer.headers.getSetCookie());
      expect(issued, value).toBeDefined();
      expect(issued, value).not.toBe(value);
      expect(victim.jar.get("ory_kratos_session"), value).toBe(issued);

      // The planted value still opens nothing.
      const planter = new CookieJar();
      planter.cookies.set("ory_kratos_session", value);
      const replay = await call(`${ts.publicUrl}/sessions/whoami`, { jar: planter });
      expect(replay.status, value).toBe(401);
    }
  });

  it("issues a new session id, token, cookie and anti-CSRF cookie on every login", async () => {
    const email = "fresh-login@example.com";
    await registerNative(ts, email);
    const ids = new Set<string>();
    const cookies = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const browser = ts.browser();
      const flow = await browser.api.createBrowserLoginFlow();
      const csrfBefore = browser.jar.find("csrf_token_")?.value;
      const { answer } = await passwordSignIn(ts, email, browser);
      // passwordSignIn made its own flow; the anti-CSRF secret changes when the identity does.
      expect(flow.id).toBeDefined();
      expect(browser.jar.find("csrf_token_")?.value).not.toBe(csrfBefore);
      ids.add((answer.body as SessionBody).session.id);
      cookies.add(browser.jar.get("ory_kratos_session") ?? "");
    }
    const tokens = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const api = ts.native();
      const flow = await api.createNativeLoginFlow();
      const done = await api.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: "password",
          identifier: email,
          password: "correct-Horse-battery-2-staple",
        },
      });
      ids.add(done.session.id);
      tokens.add(done.session_token ?? "");
    }
    expect(ids.size).toBe(6);
    expect(cookies.size).toBe(3);
    expect(tokens.size).toBe(3);
  });

  it("keeps the session on refresh and on the aal2 step-up, as Kratos does, and never re-opens a logged-out one", async () => {
    const email = "step-up@example.com";
    const { identityId } = await registerNative(ts, email);
    const sessionIds = async () =>
      (await ts.admin().listIdentitySessions({ id: identityId, active: true })).map((s) => s.id);
    const { browser, answer } = await passwordSignIn(ts, email);
    const first = (answer.body as SessionBody).session;
    const secret = await linkTotp(ts, browser);

    ts.advanceClock(60_000);
    const refresh = await browser.api.createBrowserLoginFlow({ refresh: true });
    const refreshed = await submitLogin(ts, browser, refresh, {
      method: "password",
      identifier: email,
      password: "correct-Horse-battery-2-staple",
    });
    expect(refreshed.status).toBe(200);
    const afterRefresh = (refreshed.body as SessionBody).session;
    expect(afterRefresh.id).toBe(first.id);
    expect(afterRefresh.authenticated_at).not.toBe(first.authenticated_at);

    // A new password login of this identity is aal1; stepping up keeps that session too.
    // (JSON browsers get the 422 hop to the second factor; the aal1 session is already set.)
    const before = await sessionIds();
    const second = (await passwordSignIn(ts, email)).browser;
    const [aal1Id] = (await sessionIds()).filter((id) => !before.includes(id));
    expect(aal1Id).toBeDefined();
    ts.advanceClock(30_000);
    const stepUpFlow = await second.api.createBrowserLoginFlow({ aal: "aal2" });
    const stepped = await submitLogin(ts, second, stepUpFlow, {
      method: "totp",
      totp_code: totpCode(secret, ts.now()),
    });
    expect(stepped.status).toBe(200);
    const upgraded = (stepped.body as SessionBody).session;
    expect(upgraded.authenticator_assurance_level).toBe("aal2");
    expect(upgraded.id).toBe(aal1Id);
    expect(upgraded.id).not.toBe(first.id);
    expect(((await whoami(ts, second)).body as { id: string }).id).toBe(aal1Id);

    // After logout, the old cookie value is dead even though the browser kept a copy.
    const kept = second.jar.get("ory_kratos_session") ?? "";
    const { logout_token: logoutToken } = await second.api.createBrowserLogoutFlow();
    await second.api.updateLogoutFlow({ token: logoutToken });
    const copy = new CookieJar();
    copy.cookies.set("ory_kratos_session", kept);
    expect((await call(`${ts.publicUrl}/sessions/whoami`, { jar: copy })).status).toBe(401);
  });
});

/** Attributes of a Set-Cookie line, lower-cased names, values as given. */
function attributesOf(line: string): Map<string, string> {
  const [, ...parts] = line.split(";").map((p) => p.trim());
  return new Map(
    parts.map((part) => {
      const eq = part.indexOf("=");
      return eq < 0
        ? [part.toLowerCase(), ""]
        : [part.slice(0, eq).toLowerCase(), part.slice(eq + 1)];
    }),
  );
}

function expectFlags(line: string | undefined, secure: boolean, label: string): void {
  expect(line, label).toBeDefined();
  const attributes = attributesOf(line ?? "");
  expect(attributes.has("httponly"), `${label} HttpOnly`).toBe(true);
  expect(attributes.get("samesite"), `${label} SameSite`).toBe("Lax");
  expect(attributes.get("path"), `${label} Path`).toBe("/");
  expect(attributes.has("domain"), `${label} no Domain`).toBe(false);
  expect(attributes.has("secure"), `${label} Secure`).toBe(secure);
}

describe("cookie flags", () => {
  for (const scheme of ["https", "http"] as const) {
    it(`flags the anti-CSRF, session and trusted-device cookies (public URL ${scheme})`, async () => {
      const ts = await startTestServer(
        {
          IDENTITY_PUBLIC_BASE_URL: `${scheme}://sso.example.gov/api/kratos`,
          IDENTITY_UI_BASE_URL: `${scheme}://sso.example.gov`,
          IDENTITY_DEFAULT_RETURN_URL: `${scheme}://sso.example.gov/`,
          IDENTITY_ALLOWED_RETURN_URLS: `${scheme}://sso.example.gov/`,
        },
        undefined,
        { freezeClock: true },
      );
      try {
        const secure = scheme === "https";
        const email = `cookies-${scheme}@example.com`;
        await registerNative(ts, email);

        const init = await call(`${ts.publicUrl}/self-service/login/browser`, { headers: json });
        const csrf = init.headers.getSetCookie().find((c) => c.startsWith("csrf_token_"));
        expectFlags(csrf, secure, "csrf");
        expect(attributesOf(csrf ?? "").get("max-age")).toBe(String(365 * 24 * 60 * 60));

        const { browser, answer } = await passwordSignIn(ts, email);
        const lines = answer.headers.getSetCookie();
        const session = lines.find((c) => c.startsWith("ory_kratos_session="));
        expectFlags(session, secure, "session");
        expectFlags(
          lines.find((c) => c.startsWith("csrf_token_")),
          secure,
          "csrf regenerated on login",
        );

        // Linking the app makes this session aal2; a new password sign-in asks for the app.
        const secret = await linkTotp(ts, browser);
        ts.advanceClock(30_000);
        const second = (await passwordSignIn(ts, email)).browser;
        const flow = await second.api.createBrowserLoginFlow({ aal: "aal2" });
        const trusted = await submitLogin(ts, second, flow, {
          method: "totp",
          totp_code: totpCode(secret, ts.now()),
          trust_device: true,
        });
        expect(trusted.status).toBe(200);
        expectFlags(
          trusted.headers.getSetCookie().find((c) => c.startsWith("ory_trusted_device=")),
          secure,
          "trusted device",
        );

        const { logout_token: token } = await browser.api.createBrowserLogoutFlow();
        const out = await call(`${ts.publicUrl}/self-service/logout?token=${token}`, {
          jar: browser.jar,
          headers: json,
        });
        expect(out.status).toBe(204);
        const cleared = out.headers.getSetCookie();
        expectFlags(
          cleared.find((c) => c.startsWith("ory_kratos_session=")),
          secure,
          "session cleared",
        );
        expectFlags(
          cleared.find((c) => c.startsWith("csrf_token_")),
          secure,
          "csrf regenerated on logout",
        );
      } finally {
        await ts.stop();
      }
    });
  }
});
