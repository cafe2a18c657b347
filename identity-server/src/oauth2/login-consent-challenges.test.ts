import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./test-support/browser.ts";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  acceptConsent,
  acceptLogin,
  challengeIn,
  pkce,
  redirectUri,
  registerClient,
  relyingParty,
  signIn,
  visitUntilChallenge,
  type RegisteredClient,
} from "./test-support/portal-role.ts";

let service: OAuth2TestService;
let client: RegisteredClient;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = await registerClient(service, {
    client_name: "First party",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    scope: "openid offline_access profile email",
    skip_consent: true,
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

const loginPath = "/admin/oauth2/auth/requests/login";
const consentPath = "/admin/oauth2/auth/requests/consent";

async function authorizationUrl(params: Record<string, string> = {}): Promise<URL> {
  const { challenge } = await pkce();
  return oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid profile",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st",
    ...params,
  });
}

async function loginRequest(challenge: string) {
  return service.admin("GET", `${loginPath}?login_challenge=${challenge}`);
}

async function consentRequest(challenge: string) {
  return service.admin("GET", `${consentPath}?consent_challenge=${challenge}`);
}

/** Signs a browser in once, remembering login and consent as asked. */
async function signInOnce(
  browser: Browser,
  options: { subject: string; rememberLogin: boolean; rememberConsent: boolean },
) {
  return signIn(service, browser, rp, {
    scope: "openid profile",
    subject: options.subject,
    login: { remember: options.rememberLogin, remember_for: 3600 },
    consent: { remember: options.rememberConsent, remember_for: 3600 },
  });
}

describe("login and consent challenges", () => {
  it("can be read and answered again until the browser uses them, then answer 410", async () => {
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    const requestUrl = ((await loginRequest(loginChallenge)).body as { request_url: string })
      .request_url;

    // Accepting twice before the browser comes back is allowed; the last answer counts.
    await acceptLogin(service, loginChallenge, { subject: "someone-first" });
    const afterLogin = await acceptLogin(service, loginChallenge, { subject: "user-410" });
    expect((await loginRequest(loginChallenge)).status).toBe(200);

    const consentChallenge = await visitUntilChallenge(browser, afterLogin, "consent");
    const used = await loginRequest(loginChallenge);
    expect(used.status).toBe(410);
    expect(used.body).toEqual({ redirect_to: requestUrl });
    const acceptUsed = await service.admin(
      "PUT",
      `${loginPath}/accept?login_challenge=${loginChallenge}`,
      { json: { subject: "user-410" } },
    );
    expect(acceptUsed.status).toBe(410);
    expect(acceptUsed.body).toEqual({ redirect_to: requestUrl });

    expect((await consentRequest(consentChallenge)).body).toMatchObject({ subject: "user-410" });
    const back = await browser.follow(
      await acceptConsent(service, consentChallenge, { grant_scope: ["openid", "profile"] }),
    );
    expect(new URL(back.location ?? "").searchParams.get("code")).toBeTruthy();
    const usedConsent = await consentRequest(consentChallenge);
    expect(usedConsent.status).toBe(410);
    expect(usedConsent.body).toEqual({ redirect_to: requestUrl });
    const rejectUsed = await service.admin(
      "PUT",
      `${consentPath}/reject?consent_challenge=${consentChallenge}`,
      { json: {} },
    );
    expect(rejectUsed.status).toBe(410);
  });

  it("answer 404 for unknown challenges and 400 without one", async () => {
    const unknown = await loginRequest("no-such-challenge");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: "Not Found",
      error_description: "Unable to locate the requested resource",
    });
    const missing = await service.admin("GET", loginPath);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: "invalid_request" });

    // A consent challenge is no login challenge.
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    const consentChallenge = await visitUntilChallenge(
      browser,
      await acceptLogin(service, loginChallenge, { subject: "user-404" }),
      "consent",
    );
    expect((await loginRequest(consentChallenge)).status).toBe(404);
  });

  it("refuse an accept without a subject", async () => {
    const loginChallenge = await visitUntilChallenge(
      service.browser(),
      (await authorizationUrl()).href,
      "login",
    );
    const answer = await service.admin(
      "PUT",
      `${loginPath}/accept?login_challenge=${loginChallenge}`,
      {
        json: { remember: true },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "invalid_request" });
    expect((answer.body as { error_description: string }).error_description).toMatch(/subject/);
  });

  it("rejections reach the client as OAuth2 errors", async () => {
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    const rejected = await service.admin(
      "PUT",
      `${loginPath}/reject?login_challenge=${loginChallenge}`,
      { json: { error: "access_denied", error_description: "The user cancelled." } },
    );
    expect(rejected.status).toBe(200);
    const back = await browser.follow((rejected.body as { redirect_to: string }).redirect_to);
    const callback = new URL(back.location ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("error_description")).toBe("The user cancelled.");
    expect(callback.searchParams.get("state")).toBe("st");

    const second = service.browser();
    const challenge2 = await visitUntilChallenge(second, (await authorizationUrl()).href, "login");
    const consentChallenge = await visitUntilChallenge(
      second,
      await acceptLogin(service, challenge2, { subject: "user-reject" }),
      "consent",
    );
    const denied = await service.admin(
      "PUT",
      `${consentPath}/reject?consent_challenge=${consentChallenge}`,
      { json: {} },
    );
    const deniedBack = await second.follow((denied.body as { redirect_to: string }).redirect_to);
    // Hydra's default error name for an empty reject body.
    expect(new URL(deniedBack.location ?? "").searchParams.get("error")).toBe(
      "consent request denied",
    );
  });

  it("show the client with its skip_consent flag, without its secret", async () => {
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    const consentChallenge = await visitUntilChallenge(
      browser,
      await acceptLogin(service, loginChallenge, { subject: "user-flag" }),
      "consent",
    );
    const request = await consentRequest(consentChallenge);
    const shownClient = (request.body as { client: Record<string, unknown> }).client;
    expect(shownClient).toMatchObject({ client_id: client.client_id, skip_consent: true });
    expect(shownClient).not.toHaveProperty("client_secret");
  });

  it("report the original request, without the consent prompt added for offline_access", async () => {
    const url = await authorizationUrl({ scope: "openid offline_access" });
    const loginChallenge = await visitUntilChallenge(service.browser(), url.href, "login");
    const request = (await loginRequest(loginChallenge)).body as {
      request_url: string;
      requested_scope: string[];
    };
    expect(request.requested_scope).toEqual(["openid", "offline_access"]);
    const reported = new URL(request.request_url);
    expect(reported.searchParams.get("prompt")).toBeNull();
    expect([...reported.searchParams.keys()].some((key) => key.startsWith("hydra_"))).toBe(false);
    expect(reported.searchParams.get("scope")).toBe("openid offline_access");
  });
});

describe("access token audiences", () => {
  it("are requested with `audience`, granted at consent and reported by introspection", async () => {
    const apiClient = await registerClient(service, {
      redirect_uris: [redirectUri],
      scope: "openid",
      audience: ["https://api.example.com", "https://other.example.com"],
    });
    const apiRp = await relyingParty(service, apiClient);
    const { tokens, run } = await signIn(service, service.browser(), apiRp, {
      scope: "openid",
      extra: { audience: "https://api.example.com" },
      consent: { grant_access_token_audience: ["https://api.example.com"] },
    });
    const sessions = await service.admin(
      "GET",
      `/admin/oauth2/auth/sessions/consent?subject=user-1`,
    );
    const mine = (
      sessions.body as {
        consent_request: { login_challenge: string; requested_access_token_audience: string[] };
        grant_access_token_audience: string[];
      }[]
    ).find((session) => session.consent_request.login_challenge === run.loginChallenge);
    expect(mine?.consent_request.requested_access_token_audience).toEqual([
      "https://api.example.com",
    ]);
    expect(mine?.grant_access_token_audience).toEqual(["https://api.example.com"]);
    const introspection = await service.admin("POST", "/admin/oauth2/introspect", {
      form: { token: tokens.access_token },
    });
    expect(introspection.body).toMatchObject({ aud: ["https://api.example.com"] });

    const refused = await service.browser().follow(
      oidc.buildAuthorizationUrl(apiRp, {
        redirect_uri: redirectUri,
        scope: "openid",
        audience: "https://not-allowed.example.com",
        code_challenge: (await pkce()).challenge,
        code_challenge_method: "S256",
      }).href,
    );
    expect(new URL(refused.location ?? "").searchParams.get("error")).toBe("invalid_request");
  });
});

describe("remembered login", () => {
  it("is reported as skip=true with the subject, and a different subject must log in again", async () => {
    const browser = service.browser();
    await signInOnce(browser, { subject: "user-r1", rememberLogin: true, rememberConsent: false });

    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    expect((await loginRequest(loginChallenge)).body).toMatchObject({
      skip: true,
      subject: "user-r1",
    });

    const other = await acceptLogin(service, loginChallenge, { subject: "intruder" });
    expect(new URL(other).searchParams.get("prompt")).toBe("login");

    const same = await acceptLogin(service, loginChallenge, { subject: "user-r1" });
    const consentChallenge = await visitUntilChallenge(browser, same, "consent");
    expect((await consentRequest(consentChallenge)).body).toMatchObject({ subject: "user-r1" });
  });

  it("is not reused when remember was false", async () => {
    const browser = service.browser();
    await signInOnce(browser, { subject: "user-r2", rememberLogin: false, rememberConsent: false });
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    expect((await loginRequest(loginChallenge)).body).toMatchObject({ skip: false, subject: "" });
  });

  it("is not reused with prompt=login", async () => {
    const browser = service.browser();
    await signInOnce(browser, { subject: "user-r3", rememberLogin: true, rememberConsent: false });
    const url = await authorizationUrl({ prompt: "login" });
    const loginChallenge = await visitUntilChallenge(browser, url.href, "login");
    expect((await loginRequest(loginChallenge)).body).toMatchObject({ skip: false });
  });

  it("lets another user sign in after remember=false, replacing the browser session", async () => {
    const browser = service.browser();
    await signInOnce(browser, { subject: "user-r4", rememberLogin: false, rememberConsent: false });
    const { tokens } = await signInOnce(browser, {
      subject: "user-r5",
      rememberLogin: false,
      rememberConsent: false,
    });
    expect(tokens.claims()?.sub).toBe("user-r5");
  });
});

describe("remembered consent", () => {
  it("is reported as skip=true for the same subject and client, in any browser", async () => {
    await signInOnce(service.browser(), {
      subject: "user-c1",
      rememberLogin: false,
      rememberConsent: true,
    });

    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    const consentChallenge = await visitUntilChallenge(
      browser,
      await acceptLogin(service, loginChallenge, { subject: "user-c1" }),
      "consent",
    );
    expect((await consentRequest(consentChallenge)).body).toMatchObject({ skip: true });
    // The consent UI accepts a skipped request straight away.
    const back = await browser.follow(
      await acceptConsent(service, consentChallenge, { grant_scope: ["openid", "profile"] }),
    );
    expect(new URL(back.location ?? "").searchParams.get("code")).toBeTruthy();

    // Skipped consents are not listed as sessions of their own (as in Hydra).
    const sessions = await service.admin(
      "GET",
      "/admin/oauth2/auth/sessions/consent?subject=user-c1",
    );
    expect(sessions.status).toBe(200);
    expect(sessions.body).toHaveLength(1);
  });

  it("does not cover more scopes than were granted, nor prompt=consent", async () => {
    await signInOnce(service.browser(), {
      subject: "user-c2",
      rememberLogin: false,
      rememberConsent: true,
    });
    const variants: Record<string, string>[] = [
      { scope: "openid profile email" },
      { prompt: "consent" },
    ];
    for (const params of variants) {
      const browser = service.browser();
      const url = await authorizationUrl(params);
      const loginChallenge = await visitUntilChallenge(browser, url.href, "login");
      const consentChallenge = await visitUntilChallenge(
        browser,
        await acceptLogin(service, loginChallenge, { subject: "user-c2" }),
        "consent",
      );
      expect((await consentRequest(consentChallenge)).body).toMatchObject({ skip: false });
    }
  });

  it("expires after remember_for", async () => {
    await signInOnce(service.browser(), {
      subject: "user-c3",
      rememberLogin: false,
      rememberConsent: true,
    });
    service.advanceClock(3_601_000);
    try {
      const browser = service.browser();
      const loginChallenge = await visitUntilChallenge(
        browser,
        (await authorizationUrl()).href,
        "login",
      );
      const consentChallenge = await visitUntilChallenge(
        browser,
        await acceptLogin(service, loginChallenge, { subject: "user-c3" }),
        "consent",
      );
      expect((await consentRequest(consentChallenge)).body).toMatchObject({ skip: false });
    } finally {
      service.advanceClock(-3_601_000);
    }
  });

  it("is not remembered when remember was false", async () => {
    await signInOnce(service.browser(), {
      subject: "user-c4",
      rememberLogin: false,
      rememberConsent: false,
    });
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    const consentChallenge = await visitUntilChallenge(
      browser,
      await acceptLogin(service, loginChallenge, { subject: "user-c4" }),
      "consent",
    );
    expect((await consentRequest(consentChallenge)).body).toMatchObject({ skip: false });
  });
});

describe("prompt=none", () => {
  it("answers silently with a remembered login and consent", async () => {
    const browser = service.browser();
    await signInOnce(browser, { subject: "user-n1", rememberLogin: true, rememberConsent: true });
    const first = await browser.follow((await authorizationUrl({ prompt: "none" })).href);
    const callback = new URL(first.location ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("code")).toBeTruthy();
  });

  it("answers consent_required without a remembered consent", async () => {
    const browser = service.browser();
    await signInOnce(browser, { subject: "user-n2", rememberLogin: true, rememberConsent: false });
    const first = await browser.follow((await authorizationUrl({ prompt: "none" })).href);
    expect(new URL(first.location ?? "").searchParams.get("error")).toBe("consent_required");
  });

  it("answers login_required without a remembered login", async () => {
    const fresh = await service.browser().follow((await authorizationUrl({ prompt: "none" })).href);
    expect(new URL(fresh.location ?? "").searchParams.get("error")).toBe("login_required");

    const browser = service.browser();
    await signInOnce(browser, { subject: "user-n3", rememberLogin: false, rememberConsent: true });
    const first = await browser.follow((await authorizationUrl({ prompt: "none" })).href);
    expect(new URL(first.location ?? "").searchParams.get("error")).toBe("login_required");
  });
});

describe("consent sessions", () => {
  it("are listed per subject and revoked with their tokens", async () => {
    const { tokens, run } = await signIn(service, service.browser(), rp, {
      subject: "user-s1",
      consent: {
        remember: true,
        grant_access_token_audience: [],
        session: { access_token: { role: "reader" }, id_token: { name: "Ada" } },
        context: { from: "consent-ui" },
      },
    });
    const list = await service.admin("GET", "/admin/oauth2/auth/sessions/consent?subject=user-s1");
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject([
      {
        grant_scope: ["openid", "offline_access"],
        remember: true,
        session: { access_token: { role: "reader" }, id_token: { name: "Ada" } },
        context: { from: "consent-ui" },
        consent_request: {
          subject: "user-s1",
          client: { client_id: client.client_id },
          login_challenge: run.loginChallenge,
        },
      },
    ]);
    expect(list.headers.get("link")).toContain('rel="first"');

    const unknown = await service.admin(
      "GET",
      "/admin/oauth2/auth/sessions/consent?subject=nobody",
    );
    expect(unknown.body).toEqual([]);
    const noSubject = await service.admin("GET", "/admin/oauth2/auth/sessions/consent");
    expect(noSubject.status).toBe(400);
    const badCombination = await service.admin(
      "DELETE",
      `/admin/oauth2/auth/sessions/consent?subject=user-s1&client=${client.client_id}&all=true`,
    );
    expect(badCombination.status).toBe(400);

    const revoked = await service.admin(
      "DELETE",
      `/admin/oauth2/auth/sessions/consent?subject=user-s1&client=${client.client_id}`,
    );
    expect(revoked.status).toBe(204);
    const introspection = await service.admin("POST", "/admin/oauth2/introspect", {
      form: { token: tokens.access_token },
    });
    expect(introspection.body).toEqual({ active: false });
    const refresh = await service.admin("POST", "/admin/oauth2/introspect", {
      form: { token: tokens.refresh_token ?? "" },
    });
    expect(refresh.body).toEqual({ active: false });
    expect(
      (await service.admin("GET", "/admin/oauth2/auth/sessions/consent?subject=user-s1")).body,
    ).toEqual([]);
  });

  it("are revoked for all clients with all=true", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, { subject: "user-s2" });
    const revoked = await service.admin(
      "DELETE",
      "/admin/oauth2/auth/sessions/consent?subject=user-s2&all=true",
    );
    expect(revoked.status).toBe(204);
    const introspection = await service.admin("POST", "/admin/oauth2/introspect", {
      form: { token: tokens.access_token },
    });
    expect(introspection.body).toEqual({ active: false });
  });
});

describe("login sessions", () => {
  it("end for a subject, so the next request is no longer skipped", async () => {
    const browser = service.browser();
    await signInOnce(browser, { subject: "user-l1", rememberLogin: true, rememberConsent: false });
    const revoked = await service.admin(
      "DELETE",
      "/admin/oauth2/auth/sessions/login?subject=user-l1",
    );
    expect(revoked.status).toBe(204);
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    expect((await loginRequest(loginChallenge)).body).toMatchObject({ skip: false });
  });

  it("end by sid, together with the identity provider's session", async () => {
    const browser = service.browser();
    const { tokens } = await signIn(service, browser, rp, {
      scope: "openid",
      subject: "user-l2",
      login: { remember: true, identity_provider_session_id: "kratos-session-l2" },
    });
    const sid = tokens.claims()?.sid as string;
    const revoked = await service.admin("DELETE", `/admin/oauth2/auth/sessions/login?sid=${sid}`);
    expect(revoked.status).toBe(204);
    expect(service.endedIdentityProviderSessions).toContain("kratos-session-l2");
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    expect((await loginRequest(loginChallenge)).body).toMatchObject({ skip: false });
    // Tokens outlive the login session, as in Hydra.
    const introspection = await service.admin("POST", "/admin/oauth2/introspect", {
      form: { token: tokens.access_token },
    });
    expect(introspection.body).toMatchObject({ active: true });
  });

  it("need a subject or a sid", async () => {
    const answer = await service.admin("DELETE", "/admin/oauth2/auth/sessions/login");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "invalid_request" });
  });
});

describe("the in-process login API (for the identity server's own login flow)", () => {
  it("reads and accepts login challenges without HTTP", async () => {
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(
      browser,
      (await authorizationUrl()).href,
      "login",
    );
    const request = await service.service.getLoginRequest(loginChallenge);
    expect(request).toMatchObject({ challenge: loginChallenge, skip: false, subject: "" });
    expect(request.client).toMatchObject({ client_id: client.client_id });

    const { redirect_to } = await service.service.acceptLoginRequest(loginChallenge, {
      subject: "identity-123",
      remember: true,
      remember_for: 86_400,
      amr: ["pwd"],
      acr: "aal1",
      identity_provider_session_id: "kratos-session-123",
    });
    const consentChallenge = challengeIn((await browser.follow(redirect_to)).location, "consent");
    expect((await consentRequest(consentChallenge)).body).toMatchObject({
      subject: "identity-123",
      amr: ["pwd"],
    });
    await expect(service.service.getLoginRequest(loginChallenge)).rejects.toMatchObject({
      name: "UsedChallengeError",
    });
  });
});
