import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserDestination,
  redirectTricks,
} from "../../identity-server/src/test-support/redirect-tricks.ts";
import { buildDemoPortal } from "./app.ts";
import { loadDemoConfig } from "./config.ts";
import { DemoBrowser } from "./test-support/demo-browser.ts";
import {
  clientSecret,
  demoPublicUrl,
  startIdentityStack,
  type IdentityStack,
} from "./test-support/identity-stack.ts";
import { IssuerBrowser } from "./test-support/issuer-browser.ts";

// A real identity server with its OAuth2 service; the test plays the portal by answering the
// login and consent challenges through the OAuth2 admin API.

let stack: IdentityStack;
let demo: FastifyInstance;

beforeAll(async () => {
  stack = await startIdentityStack();
  demo = buildDemoPortal(
    loadDemoConfig({
      DEMO_PUBLIC_URL: demoPublicUrl,
      PORTAL_PUBLIC_URL: "http://localhost:3000",
      DEMO_OIDC_ISSUER: stack.issuer,
      DEMO_OIDC_CLIENT_SECRET: clientSecret,
      LOG_LEVEL: "silent",
    }),
  );
});

afterAll(async () => {
  await demo?.close();
  await stack?.stop();
});

function challengeIn(location: string | undefined, kind: "login" | "consent" | "logout"): string {
  const value = location ? new URL(location).searchParams.get(`${kind}_challenge`) : null;
  if (!value) throw new Error(`expected a redirect with ${kind}_challenge, got ${location}`);
  return value;
}

async function accept(
  kind: "login" | "consent",
  challenge: string,
  body: unknown,
): Promise<string> {
  const answer = await stack.admin(
    "PUT",
    `/admin/oauth2/auth/requests/${kind}/accept?${kind}_challenge=${encodeURIComponent(challenge)}`,
    body,
  );
  if (answer.status !== 200)
    throw new Error(`${kind} not accepted: ${JSON.stringify(answer.body)}`);
  return String(answer.body.redirect_to);
}

/** Starts sign-in at the demo and follows it to the login UI; returns the login challenge. */
async function startSignIn(browser: DemoBrowser, issuer: IssuerBrowser, returnTo: string) {
  const start = await browser.get(`/auth/login?return_to=${encodeURIComponent(returnTo)}`);
  expect(start.statusCode).toBe(303);
  const toLogin = await issuer.follow(String(start.headers.location));
  return challengeIn(toLogin.location, "login");
}

/** The demo-relative path and query of the issuer's redirect back to the callback. */
function callbackPath(location: string | undefined): string {
  const url = new URL(location ?? "");
  expect(`${url.origin}${url.pathname}`).toBe(`${demoPublicUrl}/auth/callback`);
  return `${url.pathname}${url.search}`;
}

/** A whole sign-in as one person; returns the demo's answer to the callback. */
async function signIn(browser: DemoBrowser, returnTo = "/agency-selection") {
  const issuer = new IssuerBrowser(stack.issuer);
  const loginChallenge = await startSignIn(browser, issuer, returnTo);
  const afterLogin = await accept("login", loginChallenge, {
    subject: "identity-42",
    remember: true,
    acr: "aal2",
    amr: ["pwd", "totp"],
  });
  const consentChallenge = challengeIn((await issuer.follow(afterLogin)).location, "consent");
  const consentRequest = await stack.admin(
    "GET",
    `/admin/oauth2/auth/requests/consent?consent_challenge=${consentChallenge}`,
  );
  // The seeded client is first party: the portal's consent UI accepts at once.
  expect(consentRequest.body.client).toMatchObject({
    client_id: "demo-portal",
    skip_consent: true,
  });
  const afterConsent = await accept("consent", consentChallenge, {
    grant_scope: ["openid", "offline_access", "email", "profile"],
    session: { id_token: { email: "agent@example.gov", email_verified: true, name: "Ada Agent" } },
  });
  const back = await issuer.follow(afterConsent);
  return { callback: await browser.get(callbackPath(back.location)), issuer };
}

describe("sign-in", () => {
  it("starts an authorization code request with PKCE (S256), state and nonce", async () => {
    const browser = new DemoBrowser(demo);
    const response = await browser.get("/auth/login?return_to=/agency-selection");
    expect(response.statusCode).toBe(303);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${stack.issuer}/oauth2/auth`);
    const params = location.searchParams;
    expect(params.get("response_type")).toBe("code");
    expect(params.get("client_id")).toBe("demo-portal");
    expect(params.get("redirect_uri")).toBe(`${demoPublicUrl}/auth/callback`);
    expect(params.get("scope")).toBe("openid offline_access email profile");
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(params.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(params.get("nonce")).toMatch(/^[\w-]{20,}$/);

    // The login state is sealed in a short-lived HttpOnly cookie: neither state nor verifier shows.
    const cookie = response.cookies.find((c) => c.name === "demo_login");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/auth", maxAge: 600 });
    expect(cookie?.value).not.toContain(params.get("state"));
  });

  it("completes the code flow and shows the person from the tokens on agency selection", async () => {
    const browser = new DemoBrowser(demo);
    const { callback } = await signIn(browser, "/agency-selection");
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe("/agency-selection");
    const session = callback.cookies.find((c) => c.name === "demo_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(browser.cookies.has("demo_login")).toBe(false);

    const page = await browser.get("/agency-selection");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<h1>Select your agency</h1>");
    expect(page.body).toContain('data-testid="signed-in-email">agent@example.gov<');
    expect(page.body).toContain('data-testid="signed-in-subject">identity-42<');
    expect(page.body).toContain('data-testid="signed-in-acr">aal2<');
    expect(page.body).toContain('data-testid="signed-in-amr">pwd, totp<');
    expect(page.body).toMatch(/data-testid="signed-in-auth-time">\d{4}-\d\d-\d\dT/);
    expect(page.body).toContain("Ada Agent");
    expect(page.body).toContain('<form method="post" action="/auth/logout">');

    const home = await browser.get("/");
    expect(home.body).toContain("<h1>Welcome back</h1>");
    expect(home.body).toContain('data-testid="signed-in-email">agent@example.gov<');
  });

  it("returns to the requested path and ignores return_to values leaving the site", async () => {
    const browser = new DemoBrowser(demo);
    expect((await signIn(browser, "/?tab=recent")).callback.headers.location).toBe("/?tab=recent");
    expect((await signIn(browser, "//evil.example/")).callback.headers.location).toBe(
      "/agency-selection",
    );
  });

  it("after sign-in sends the browser only to its own site, for every trick of the shared table", async () => {
    for (const { value, why } of redirectTricks(demoPublicUrl)) {
      const browser = new DemoBrowser(demo);
      const { callback } = await signIn(browser, value);
      const location = String(callback.headers.location);
      const label = `${JSON.stringify(value)} (${why}) -> ${location}`;
      expect(callback.statusCode, label).toBe(303);
      expect(browserDestination(location, `${demoPublicUrl}/auth/callback`), label).toBe(
        demoPublicUrl,
      );
    }
    // One whole sign-in per trick: generous for a busy two-core machine.
  }, 120_000);

  it("refuses a callback whose state does not match with a clear 400 page", async () => {
    const browser = new DemoBrowser(demo);
    await browser.get("/auth/login?return_to=/agency-selection");
    const response = await browser.get("/auth/callback?code=stolen-code&state=someone-elses");
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain("did not match the sign-in started in this browser");
    expect(response.body).toContain('href="/auth/login?return_to=%2Fagency-selection">Try again<');
    expect((await browser.get("/agency-selection")).body).toContain("You are not signed in.");
  });

  it("refuses a callback without a sign-in started in this browser", async () => {
    const response = await new DemoBrowser(demo).get("/auth/callback?code=x&state=y");
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain("Sign-in expired");
    expect(response.body).toContain(">Try again<");
  });

  it("shows a friendly page, not an error, when sign-in is refused (access_denied)", async () => {
    const browser = new DemoBrowser(demo);
    const issuer = new IssuerBrowser(stack.issuer);
    const challenge = await startSignIn(browser, issuer, "/agency-selection");
    const rejected = await stack.admin(
      "PUT",
      `/admin/oauth2/auth/requests/login/reject?login_challenge=${challenge}`,
      { error: "access_denied", error_description: "The person cancelled the sign-in" },
    );
    expect(rejected.status).toBe(200);
    const back = await issuer.follow(String(rejected.body.redirect_to));
    const path = callbackPath(back.location);
    expect(new URLSearchParams(path.split("?")[1]).get("error")).toBe("access_denied");

    const response = await browser.get(path);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain("Sign-in was cancelled or refused");
    expect(response.body).toContain('href="/auth/login?return_to=%2Fagency-selection">Try again<');
    expect(browser.cookies.has("demo_session")).toBe(false);
  });

  it("does not accept the same callback twice", async () => {
    const browser = new DemoBrowser(demo);
    const issuer = new IssuerBrowser(stack.issuer);
    const loginChallenge = await startSignIn(browser, issuer, "/");
    const afterLogin = await accept("login", loginChallenge, { subject: "identity-7" });
    const consentChallenge = challengeIn((await issuer.follow(afterLogin)).location, "consent");
    const afterConsent = await accept("consent", consentChallenge, {
      grant_scope: ["openid", "offline_access", "email", "profile"],
    });
    const path = callbackPath((await issuer.follow(afterConsent)).location);
    const login = browser.cookies.get("demo_login") ?? "";
    expect((await browser.get(path)).statusCode).toBe(303);

    // Replaying the login cookie too: the code is spent at the OAuth2 service.
    browser.cookies.set("demo_login", login);
    const replay = await browser.get(path);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain("refused to complete the sign-in (invalid_grant)");
  });
});

describe("pages without a session", () => {
  it("offers sign-in on agency selection, coming back there", async () => {
    const response = await new DemoBrowser(demo).get("/agency-selection");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("You are not signed in.");
    expect(response.body).toContain(
      '<a href="/auth/login?return_to=%2Fagency-selection">Sign in</a>',
    );
  });

  it("offers sign-in on the home page, and treats an unknown session cookie as signed out", async () => {
    const browser = new DemoBrowser(demo);
    browser.cookies.set("demo_session", "forged");
    const response = await browser.get("/");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("You are not signed in.");
    expect(response.body).toContain('<a href="/auth/login">Sign in</a>');
  });
});

describe("unexpected requests", () => {
  it("answer with a readable page rather than JSON", async () => {
    const response = await demo.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain("Something went wrong");
  });
});

describe("sign-out", () => {
  function formToken(body: string): string {
    return /name="csrf_token" value="([^"]+)"/.exec(body)?.[1] ?? "";
  }

  it("ends the demo session and sends the browser to end-session (RP-initiated logout)", async () => {
    const browser = new DemoBrowser(demo);
    const { issuer } = await signIn(browser);
    const token = formToken((await browser.get("/agency-selection")).body);
    expect(token).not.toBe("");

    const response = await browser.post(
      "/auth/logout",
      { csrf_token: token },
      { origin: demoPublicUrl },
    );
    expect(response.statusCode).toBe(303);
    const endSession = new URL(String(response.headers.location));
    expect(`${endSession.origin}${endSession.pathname}`).toBe(
      `${stack.issuer}/oauth2/sessions/logout`,
    );
    expect(endSession.searchParams.get("id_token_hint")).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(endSession.searchParams.get("post_logout_redirect_uri")).toBe(`${demoPublicUrl}/`);
    const state = endSession.searchParams.get("state");
    expect(state).toMatch(/^[\w-]{20,}$/);
    expect(browser.cookies.has("demo_session")).toBe(false);
    expect((await browser.get("/agency-selection")).body).toContain("You are not signed in.");

    // The OAuth2 service accepts the hint: it asks the portal's logout UI, which accepts.
    const challenge = challengeIn((await issuer.follow(endSession.href)).location, "logout");
    const accepted = await stack.admin(
      "PUT",
      `/admin/oauth2/auth/requests/logout/accept?logout_challenge=${challenge}`,
    );
    // The logout verifier redirects straight to the post-logout URI, as Hydra's does.
    const done = await issuer.request(String(accepted.body.redirect_to));
    expect(done.status).toBe(302);
    const back = new URL(done.location ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(`${demoPublicUrl}/`);
    expect(back.searchParams.get("state")).toBe(state);

    const home = await browser.get(`/${back.search}`);
    expect(home.body).toContain("You have signed out.");
    expect(home.body).toContain('<a href="/auth/login">Sign in</a>');
  });

  it("refuses a sign-out without the form's token or from another origin", async () => {
    const browser = new DemoBrowser(demo);
    await signIn(browser);
    const token = formToken((await browser.get("/")).body);

    const forged = await browser.post("/auth/logout", { csrf_token: "guess" });
    expect(forged.statusCode).toBe(403);
    const crossSite = await browser.post(
      "/auth/logout",
      { csrf_token: token },
      { origin: "https://evil.example" },
    );
    expect(crossSite.statusCode).toBe(403);
    expect((await browser.get("/agency-selection")).statusCode).toBe(200);
  });

  it("just goes home when there is no session to end", async () => {
    const response = await new DemoBrowser(demo).post("/auth/logout", {});
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/");
  });
});
