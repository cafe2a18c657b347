import { createHash } from "node:crypto";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  type RegisteredClient,
} from "./test-support/portal-role.ts";

// Every answer of the OAuth2 service's public listener carries or leads to a secret (challenges,
// codes, tokens, the session cookie): none may be cached. Its own HTML pages get a policy that
// runs only their own inline script and cannot be framed; the admin answers (challenges, consent
// sessions) are uncacheable too. No URL of the error page here: errors are HTML pages.

const postLogoutUri = "http://127.0.0.1:5555/signed-out";

let service: OAuth2TestService;
let client: RegisteredClient & { client_secret: string };

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = (await registerClient(service, {
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [postLogoutUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    scope: "openid offline_access",
  })) as RegisteredClient & { client_secret: string };
});
afterAll(() => service.stop());

/** A fetch Response or a Browser answer (whose `text` is the body already read). */
type Answer = { headers: Headers; text?: unknown };

function expectHardened(answer: Answer, what: string): void {
  const { headers } = answer;
  expect(headers.get("cache-control"), what).toMatch(/(^|,\s*)no-store(\s*,|$)/);
  expect(headers.get("pragma"), what).toBe("no-cache");
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("permissions-policy"), what).toMatch(/(^|,\s*)camera=\(\)/);
}

function directives(headers: Headers): Map<string, string[]> {
  return new Map(
    (headers.get("content-security-policy") ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = "", ...values]) => [name, values]),
  );
}

/** An HTML page of the listener: framed nowhere, no source but its own inline scripts' hashes. */
function expectStrictPage(answer: Answer, what: string): void {
  expectHardened(answer, what);
  expect(answer.headers.get("content-type"), what).toMatch(/^text\/html/);
  const csp = directives(answer.headers);
  expect(csp.get("default-src"), what).toEqual(["'none'"]);
  expect(csp.get("frame-ancestors"), what).toEqual(["'none'"]);
  expect(csp.get("base-uri"), what).toEqual(["'none'"]);
  const scriptSrc = csp.get("script-src") ?? [];
  expect(
    scriptSrc.join(" ") === "'none'" || scriptSrc.every((source) => source.startsWith("'sha256-")),
    what,
  ).toBe(true);
  // Every inline script of the page is allowed by its hash, so it still runs in a browser.
  const body = typeof answer.text === "string" ? answer.text : "";
  for (const [, script = ""] of body.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
    const hash = createHash("sha256").update(script).digest("base64");
    expect(scriptSrc, what).toContain(`'sha256-${hash}'`);
  }
}

async function authorizationUrl(extra: Record<string, string> = {}): Promise<URL> {
  const { challenge } = await pkce();
  const url = new URL(`${service.issuer}/oauth2/auth`);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid offline_access",
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  }).toString();
  return url;
}

describe("OAuth2 public listener headers", () => {
  it("every step of a sign-in and a sign-out, and the JSON endpoints, are uncacheable and hardened", async () => {
    const answers: [string, Answer][] = [];
    const browser = service.browser();
    const { verifier, challenge } = await pkce();
    const start = new URL(await authorizationUrl({ code_challenge: challenge }));

    const toLogin = await browser.follow(start.href);
    answers.push(["authorization request (login challenge)", toLogin]);
    const loginChallenge = challengeIn(toLogin.location, "login");
    const loginRequest = await service.admin(
      "GET",
      `/admin/oauth2/auth/requests/login?login_challenge=${loginChallenge}`,
    );
    answers.push(["admin: the login request", loginRequest]);
    const afterLogin = await acceptLogin(service, loginChallenge, {
      subject: "headers-user",
      remember: true,
    });
    const toConsent = await browser.follow(afterLogin);
    answers.push(["resumed after login (consent challenge)", toConsent]);
    const consentChallenge = challengeIn(toConsent.location, "consent");
    const afterConsent = await acceptConsent(service, consentChallenge, {
      grant_scope: ["openid", "offline_access"],
    });
    const toClient = await browser.follow(afterConsent);
    answers.push(["resumed after consent (code)", toClient]);
    const code = new URL(toClient.location ?? "").searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const basic = Buffer.from(
      `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`,
    ).toString("base64");
    const token = await fetch(`${service.issuer}/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    });
    const tokens = (await token.json()) as { access_token: string; id_token: string };
    expect(tokens.access_token).toBeTruthy();
    answers.push(["token endpoint (tokens)", token]);

    const userinfo = await fetch(`${service.issuer}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    answers.push(["userinfo", userinfo]);
    for (const path of ["/.well-known/openid-configuration", "/.well-known/jwks.json"]) {
      answers.push([path, await fetch(`${service.issuer}${path}`)]);
    }
    answers.push(["health", await fetch(`${service.issuer}/health/alive`)]);
    // Refusals too: a broken token request, an unknown resume path, a made-up logout verifier.
    answers.push([
      "token endpoint refusal",
      await fetch(`${service.issuer}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{not json",
      }),
    ]);
    answers.push(["unknown resume path", await fetch(`${service.issuer}/oauth2/auth/nope`)]);
    answers.push([
      "made-up logout verifier",
      await fetch(`${service.issuer}/oauth2/sessions/logout?logout_verifier=nope`, {
        redirect: "manual",
      }),
    ]);
    answers.push(["unknown path", await fetch(`${service.issuer}/no-such-path`)]);

    const endSession = new URL(`${service.issuer}/oauth2/sessions/logout`);
    endSession.search = new URLSearchParams({
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: postLogoutUri,
    }).toString();
    const toLogout = await browser.follow(endSession.href);
    answers.push(["end session (logout challenge)", toLogout]);
    const logoutChallenge = challengeIn(toLogout.location, "logout");
    const accepted = await service.admin(
      "PUT",
      `/admin/oauth2/auth/requests/logout/accept?logout_challenge=${logoutChallenge}`,
    );
    answers.push(["admin: logout accepted (verifier)", accepted]);
    const redirectTo = (accepted.body as { redirect_to: string }).redirect_to;
    const loggedOut = await browser.get(redirectTo);
    expect(loggedOut.status).toBe(302);
    answers.push(["logout verifier (redirect)", loggedOut]);

    for (const [what, answer] of answers) expectHardened(answer, what);
  }, 60_000);

  it("the error page and oidc-provider's form_post page allow only their own script and no framing", async () => {
    const error = await fetch(`${service.issuer}/oauth2/auth?client_id=no-such-client`);
    expect(error.status).toBe(400);
    expectStrictPage({ headers: error.headers, text: await error.text() }, "error page");

    const browser = service.browser();
    const start = await authorizationUrl({ response_mode: "form_post" });
    const loginChallenge = challengeIn((await browser.follow(start.href)).location, "login");
    const afterLogin = await acceptLogin(service, loginChallenge, { subject: "form-post-user" });
    const consentChallenge = challengeIn((await browser.follow(afterLogin)).location, "consent");
    const afterConsent = await acceptConsent(service, consentChallenge, {
      grant_scope: ["openid", "offline_access"],
    });
    const formPost = await browser.follow(afterConsent);
    expect(formPost.status).toBe(200);
    expect(formPost.text).toContain(`action="${redirectUri}"`);
    expectStrictPage(formPost, "form_post page");
  }, 60_000);
});
