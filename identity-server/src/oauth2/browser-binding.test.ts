import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../store/database.ts";
import { secretHash } from "./challenges/challenge-verifiers.ts";
import type { OAuth2Db } from "./store/oauth2-tables.ts";
import type { Browser, BrowserResponse } from "./test-support/browser.ts";
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

// Issue 12 §1: an attacker starts a sign-in, sends the victim the login (or consent) UI link with
// the challenge, the victim answers it, and the attacker's browser, which holds everything
// oidc-provider's own resume needed, tries to finish the sign-in as the victim. As in Hydra, the
// answer carries a verifier only the victim's browser sees, and the verifier only works together
// with the CSRF cookie of the browser that started the request.

const postLogoutUri = "http://127.0.0.1:5555/signed-out";

let service: OAuth2TestService;
let client: RegisteredClient;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = await registerClient(service, {
    client_name: "Agency product",
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [postLogoutUri],
    grant_types: ["authorization_code", "refresh_token"],
    scope: "openid offline_access email",
    skip_consent: true,
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

async function authorizationUrl(state = "attacker-state"): Promise<string> {
  const { challenge } = await pkce();
  return oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid email",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).href;
}

/** The query of a redirect back to the client (code or error). */
function callbackQuery(response: BrowserResponse): URLSearchParams {
  const location = new URL(response.location ?? "http://nowhere.invalid/");
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  return location.searchParams;
}

function expectNoResume(response: BrowserResponse): void {
  const location = response.location ?? "";
  expect(location).not.toContain("consent_challenge=");
  expect(location).not.toContain("code=");
}

async function withDatabase<T>(use: (db: OAuth2Db) => Promise<T>): Promise<T> {
  const db = await openDatabase(service.dataDir);
  try {
    return await use(db as unknown as OAuth2Db);
  } finally {
    await db.destroy();
  }
}

/** The attacker's browser starts a sign-in and stops at the login UI. */
async function attackerStarts(): Promise<{ attacker: Browser; loginChallenge: string }> {
  const attacker = service.browser();
  const loginChallenge = await visitUntilChallenge(attacker, await authorizationUrl(), "login");
  return { attacker, loginChallenge };
}

describe("login and consent verifiers", () => {
  it("accepting a login answers the authorization URL with a login_verifier kept only as a hash", async () => {
    const { loginChallenge } = await attackerStarts();
    const redirectTo = new URL(await acceptLogin(service, loginChallenge, { subject: "victim" }));

    expect(`${redirectTo.origin}${redirectTo.pathname}`).toBe(`${service.issuer}/oauth2/auth`);
    expect(redirectTo.href).not.toContain(loginChallenge);
    expect(redirectTo.searchParams.get("client_id")).toBe(client.client_id);
    expect(redirectTo.searchParams.get("state")).toBe("attacker-state");
    const verifier = redirectTo.searchParams.get("login_verifier") ?? "";
    expect(verifier.length).toBeGreaterThanOrEqual(43);

    const row = await withDatabase((db) =>
      db
        .selectFrom("oauth2_challenge_verifiers")
        .selectAll()
        .where("challenge", "=", loginChallenge)
        .executeTakeFirstOrThrow(),
    );
    expect(row.verifier_hash).toBe(secretHash(verifier));
    expect(JSON.stringify(row)).not.toContain(verifier);
  });

  it("the victim's answer to the attacker's login challenge signs nobody in", async () => {
    const { attacker, loginChallenge } = await attackerStarts();
    // The victim signs in on the genuine login UI, which accepts the attacker's challenge.
    const redirectTo = await acceptLogin(service, loginChallenge, { subject: "victim" });

    // oidc-provider's own way back no longer resumes, even in the browser that started it.
    const resumed = await attacker.get(`${service.issuer}/oauth2/auth/${loginChallenge}`);
    expectNoResume(resumed);
    expect(resumed.status).toBe(400);

    // The victim's browser brings the verifier, but not the attacker's CSRF cookie.
    const victim = service.browser();
    const atVictim = await victim.get(redirectTo);
    expect(atVictim.status).toBe(303);
    const error = callbackQuery(atVictim);
    expect(error.get("error")).toBe("request_forbidden");
    expect(error.get("error_description")).toBe(
      "The request is not allowed. No CSRF value available in the session cookie.",
    );
    expect(error.get("code")).toBeNull();
    expect(error.get("state")).toBe("attacker-state");

    // The verifier is spent: not even the attacker's browser (with the right cookie) can use it.
    const atAttacker = await attacker.get(redirectTo);
    expectNoResume(atAttacker);
    expect(atAttacker.status).toBe(403);
    expect(atAttacker.text).toContain("access_denied");
    expect(atAttacker.text).toContain(
      "The login verifier has already been used, has not been granted, or is invalid.",
    );
    const used = await service.admin(
      "GET",
      `/admin/oauth2/auth/requests/login?login_challenge=${loginChallenge}`,
    );
    expect(used.status).toBe(410);
  });

  it("a browser with its own CSRF cookie for the client is refused as well", async () => {
    const { loginChallenge } = await attackerStarts();
    const redirectTo = await acceptLogin(service, loginChallenge, { subject: "victim" });
    // The victim had started a sign-in to the same client themselves.
    const victim = service.browser();
    await visitUntilChallenge(victim, await authorizationUrl("victim-state"), "login");

    const error = callbackQuery(await victim.get(redirectTo));
    expect(error.get("error")).toBe("request_forbidden");
    expect(error.get("error_description")).toBe(
      "The request is not allowed. The CSRF value from the token does not match the CSRF value from the data store.",
    );
  });

  it("the victim's answer to the attacker's consent challenge grants nothing", async () => {
    const { attacker, loginChallenge } = await attackerStarts();
    const afterLogin = await acceptLogin(service, loginChallenge, { subject: "attacker" });
    const consentChallenge = challengeIn((await attacker.follow(afterLogin)).location, "consent");
    // The victim is shown the consent UI with the attacker's challenge and agrees.
    const redirectTo = await acceptConsent(service, consentChallenge, {
      grant_scope: ["openid", "email"],
    });
    expect(new URL(redirectTo).searchParams.get("consent_verifier")).toBeTruthy();
    expect(redirectTo).not.toContain(consentChallenge);

    const resumed = await attacker.get(`${service.issuer}/oauth2/auth/${consentChallenge}`);
    expectNoResume(resumed);

    const victim = service.browser();
    const error = callbackQuery(await victim.get(redirectTo));
    expect(error.get("error")).toBe("request_forbidden");
    expect(error.get("code")).toBeNull();

    const atAttacker = await attacker.get(redirectTo);
    expectNoResume(atAttacker);
    expect(atAttacker.status).toBe(403);
    expect(atAttacker.text).toContain("The consent verifier has already been used");
  });

  it("the browser that started the sign-in finishes it, and each verifier works once", async () => {
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(browser, await authorizationUrl(), "login");
    const afterLogin = await acceptLogin(service, loginChallenge, { subject: "user-1" });
    const consentChallenge = challengeIn((await browser.follow(afterLogin)).location, "consent");

    const loginAgain = await browser.get(afterLogin);
    expect(loginAgain.status).toBe(403);
    expect(loginAgain.text).toContain("The login verifier has already been used");

    const afterConsent = await acceptConsent(service, consentChallenge, {
      grant_scope: ["openid", "email"],
    });
    // A verifier resumes only its own kind of challenge.
    const swapped = new URL(afterConsent);
    swapped.searchParams.set("login_verifier", swapped.searchParams.get("consent_verifier") ?? "");
    swapped.searchParams.delete("consent_verifier");
    expect((await browser.get(swapped.href)).status).toBe(403);

    const back = callbackQuery(await browser.get(afterConsent));
    expect(back.get("code")).toBeTruthy();
    expect(back.get("state")).toBe("attacker-state");
    const consentAgain = await browser.get(afterConsent);
    expect(consentAgain.status).toBe(403);
    expect(consentAgain.text).toContain("The consent verifier has already been used");
  });

  it("answering a challenge again replaces its verifier", async () => {
    const browser = service.browser();
    const loginChallenge = await visitUntilChallenge(browser, await authorizationUrl(), "login");
    const first = await acceptLogin(service, loginChallenge, { subject: "user-1" });
    const second = await acceptLogin(service, loginChallenge, { subject: "user-1" });

    expect((await browser.get(first)).status).toBe(403);
    challengeIn((await browser.follow(second)).location, "consent");
  });

  it("a rejected request's error reaches the client with the verifier, as in Hydra", async () => {
    const { loginChallenge } = await attackerStarts();
    const rejected = await service.admin(
      "PUT",
      `/admin/oauth2/auth/requests/login/reject?login_challenge=${loginChallenge}`,
      { json: { error: "access_denied", error_description: "The user said no." } },
    );
    const redirectTo = (rejected.body as { redirect_to: string }).redirect_to;
    expect(new URL(redirectTo).searchParams.get("login_verifier")).toBeTruthy();

    const error = callbackQuery(await service.browser().get(redirectTo));
    expect(error.get("error")).toBe("access_denied");
    expect(error.get("error_description")).toBe("The user said no.");
  });
});

describe("logout verifiers", () => {
  async function startLogout(): Promise<{ browser: Browser; challenge: string }> {
    const browser = service.browser();
    const { tokens } = await signIn(service, browser, rp, { subject: "user-out", scope: "openid" });
    const endSession = oidc.buildEndSessionUrl(rp, {
      id_token_hint: tokens.id_token ?? "",
      post_logout_redirect_uri: postLogoutUri,
    });
    const challenge = challengeIn((await browser.follow(endSession.href)).location, "logout");
    return { browser, challenge };
  }

  async function acceptLogout(challenge: string): Promise<string> {
    const accepted = await service.admin(
      "PUT",
      `/admin/oauth2/auth/requests/logout/accept?logout_challenge=${challenge}`,
    );
    return (accepted.body as { redirect_to: string }).redirect_to;
  }

  it("a logout verifier works only in the browser that started the logout, once", async () => {
    const { browser, challenge } = await startLogout();
    const redirectTo = await acceptLogout(challenge);
    const verifier = new URL(redirectTo).searchParams.get("logout_verifier") ?? "";
    const row = await withDatabase((db) =>
      db
        .selectFrom("oauth2_logout_requests")
        .selectAll()
        .where("challenge", "=", challenge)
        .executeTakeFirstOrThrow(),
    );
    expect(row.verifier_hash).toBe(secretHash(verifier));
    expect(JSON.stringify(row)).not.toContain(verifier);

    // Another browser gets neither the logout nor the session's xsrf secret, and does not use
    // the verifier up (found in issue 15: it did, and the user stayed signed in).
    const other = await service.browser().get(redirectTo);
    expect(other.status).toBe(403);
    expect(other.text).toContain("request_forbidden");
    expect(other.text).not.toContain(row.xsrf);
    expect(other.text).not.toContain("<form");

    const done = await browser.get(redirectTo);
    expect(done.status).toBe(302);
    expect(done.location).toBe(postLogoutUri);

    const again = await browser.get(redirectTo);
    expect(again.status).toBe(403);
    expect(again.text).toContain("The logout verifier has already been used");
  });

  it("the browser that started the logout completes it", async () => {
    const { browser, challenge } = await startLogout();
    const done = await browser.get(await acceptLogout(challenge));
    expect(done.status).toBe(302);
    expect(done.location).toBe(postLogoutUri);
  });
});
