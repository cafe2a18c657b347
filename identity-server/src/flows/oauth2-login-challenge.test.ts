import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as oidc from "openid-client";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import {
  finishAuthorization,
  oauth2Admin,
  oauth2Of,
  registerRelyingParty,
  startAuthorization,
  type Authorization,
} from "../test-support/oauth2-relying-party.ts";
import { linkTotp, totpCode } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { databaseFileName } from "../store/database.ts";

// Kratos as Hydra's login provider (kratos-behaviour §10): every identity-server answer goes
// through the spec-checked `call`, so flow JSON with `oauth2_login_request` is validated against
// the Kratos OpenAPI spec as well.

type Json = Record<string, unknown>;

let ts: TestServer;
let rp: oidc.Configuration;

beforeAll(async () => {
  ts = await startTestServer();
  rp = await registerRelyingParty(ts);
});

afterAll(() => ts.stop());

const json = { accept: "application/json" };
const html = { accept: "text/html" };

function initLogin(jar: CookieJar, query: string, headers = json): Promise<TestResponse> {
  return call(`${ts.publicUrl}/self-service/login/browser?${query}`, { jar, headers });
}

/** Posts the password form as an HTML form (HTML Accept) or as JSON. */
function submitPassword(
  jar: CookieJar,
  flow: Json,
  email: string,
  as: "html" | "json",
): Promise<TestResponse> {
  const fields = {
    method: "password",
    identifier: email,
    password: strongPassword,
    csrf_token: csrfTokenOf(flow as never),
  };
  return call(`${ts.publicUrl}/self-service/login?flow=${String(flow.id)}`, {
    method: "POST",
    jar,
    headers:
      as === "json"
        ? { ...json, "content-type": "application/json" }
        : { ...html, "content-type": "application/x-www-form-urlencoded" },
    body: as === "json" ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
}

function redirectBrowserTo(answer: TestResponse): string {
  expect(answer.status).toBe(422);
  const body = answer.body as Json;
  expect((body.error as Json).id).toBe("browser_location_change_required");
  return String(body.redirect_browser_to);
}

/** A public URL of the identity server (behind the portal's base path) on the test listener. */
function onTestServer(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${ts.publicUrl}${url.pathname.slice(url.pathname.indexOf("/self-service"))}${url.search}`;
}

function isOAuth2Url(url: string | null | undefined): boolean {
  return (url ?? "").startsWith(oauth2Of(ts).issuer);
}

/** Whether the OAuth2 service still waits for the login (a handled challenge is 410). */
async function loginPending(auth: Authorization): Promise<boolean> {
  const path = `/admin/oauth2/auth/requests/login?login_challenge=${auth.loginChallenge}`;
  return (await oauth2Admin(ts, "GET", path)).status === 200;
}

describe("login with an OAuth2 login challenge", () => {
  it("shows the login request, forces refresh and sends the browser back after a password login", async () => {
    const email = "challenge-html@example.com";
    const { identityId } = await registerNative(ts, email);
    const auth = await startAuthorization(ts, rp);
    const jar = new CookieJar();

    const init = await initLogin(jar, `login_challenge=${auth.loginChallenge}`);
    expect(init.status).toBe(200);
    const flow = init.body as Json;
    expect(flow.oauth2_login_challenge).toBe(auth.loginChallenge);
    expect(flow.refresh).toBe(false); // forced, but there is no session to refresh
    expect(String(flow.request_url)).toContain("refresh=true");
    const request = flow.oauth2_login_request as Json;
    expect(request.challenge).toBe(auth.loginChallenge);
    expect(request.skip).toBe(false);
    expect((request.client as Json).client_id).toBe(rp.clientMetadata().client_id);

    const fetched = await call(`${ts.publicUrl}/self-service/login/flows?id=${String(flow.id)}`, {
      jar,
      headers: json,
    });
    expect((fetched.body as Json).oauth2_login_request).toMatchObject({
      challenge: auth.loginChallenge,
    });

    const done = await submitPassword(jar, flow, email, "html");
    expect(done.status).toBe(303);
    const location = done.headers.get("location");
    expect(isOAuth2Url(location)).toBe(true);
    const claims = await finishAuthorization(ts, auth, String(location));
    expect(claims.sub).toBe(identityId);
    expect(claims.amr).toEqual(["password"]);
    expect(claims.acr).toBe("aal1");
  });

  it("answers an SPA's password login with 422 browser_location_change_required to OAuth2", async () => {
    const email = "challenge-spa@example.com";
    const { identityId } = await registerNative(ts, email);
    const auth = await startAuthorization(ts, rp);
    const jar = new CookieJar();
    const flow = (await initLogin(jar, `login_challenge=${auth.loginChallenge}`)).body as Json;

    const afterLogin = redirectBrowserTo(await submitPassword(jar, flow, email, "json"));
    expect(isOAuth2Url(afterLogin)).toBe(true);
    expect((await finishAuthorization(ts, auth, afterLogin)).sub).toBe(identityId);
  });

  it("keeps the challenge in the aal2 flow and accepts only after the TOTP code", async () => {
    const email = "challenge-totp@example.com";
    const { identityId } = await registerNative(ts, email);
    const setup = ts.browser();
    const setupFlow = await setup.api.createBrowserLoginFlow();
    await setup.api.updateLoginFlow({
      flow: setupFlow.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: email,
        password: strongPassword,
        csrf_token: csrfTokenOf(setupFlow),
      },
    });
    const secret = await linkTotp(ts, setup);

    const auth = await startAuthorization(ts, rp);
    const jar = new CookieJar();
    const flow = (await initLogin(jar, `login_challenge=${auth.loginChallenge}`)).body as Json;
    const aal2Url = redirectBrowserTo(await submitPassword(jar, flow, email, "json"));
    expect(new URL(aal2Url).searchParams.get("login_challenge")).toBe(auth.loginChallenge);
    expect(await loginPending(auth)).toBe(true);

    const aal2 = await call(onTestServer(aal2Url), { jar, headers: json });
    expect(aal2.status).toBe(200);
    const aal2Flow = aal2.body as Json;
    expect(aal2Flow.requested_aal).toBe("aal2");
    expect(aal2Flow.oauth2_login_challenge).toBe(auth.loginChallenge);
    expect((aal2Flow.oauth2_login_request as Json).challenge).toBe(auth.loginChallenge);

    const answer = await call(`${ts.publicUrl}/self-service/login?flow=${String(aal2Flow.id)}`, {
      method: "POST",
      jar,
      headers: { ...json, "content-type": "application/json" },
      body: JSON.stringify({
        method: "totp",
        // The step after the one used to link the app (a code is accepted only once).
        totp_code: totpCode(secret, new Date(ts.now().getTime() + 30_000)),
        csrf_token: csrfTokenOf(aal2Flow as never),
      }),
    });
    const claims = await finishAuthorization(ts, auth, redirectBrowserTo(answer));
    expect(claims.sub).toBe(identityId);
    expect(claims.amr).toEqual(["password", "totp"]);
    expect(claims.acr).toBe("aal2");
  });

  it("accepts a remembered login (skip) at once, and asks a session to re-authenticate otherwise", async () => {
    const email = "challenge-skip@example.com";
    const { identityId } = await registerNative(ts, email);
    const jar = new CookieJar();
    const first = await startAuthorization(ts, rp);
    const flow = (await initLogin(jar, `login_challenge=${first.loginChallenge}`)).body as Json;
    const done = await submitPassword(jar, flow, email, "html");
    await finishAuthorization(ts, first, String(done.headers.get("location")));

    // Same browser on both origins: the OAuth2 service remembers the login, no form is shown.
    const second = await startAuthorization(ts, rp, first.browser);
    const skipped = await initLogin(jar, `login_challenge=${second.loginChallenge}`, html);
    expect(skipped.status).toBe(303);
    const location = String(skipped.headers.get("location"));
    expect(isOAuth2Url(location)).toBe(true);
    expect((await finishAuthorization(ts, second, location)).sub).toBe(identityId);

    // A new OAuth2 browser is not remembered: the identity session must sign in again.
    const third = await startAuthorization(ts, rp);
    const refresh = await initLogin(jar, `login_challenge=${third.loginChallenge}`);
    expect(refresh.status).toBe(200);
    const refreshFlow = refresh.body as Json;
    expect(refreshFlow.refresh).toBe(true);
    expect((refreshFlow.oauth2_login_request as Json).skip).toBe(false);
    const again = redirectBrowserTo(await submitPassword(jar, refreshFlow, email, "json"));
    expect((await finishAuthorization(ts, third, again)).sub).toBe(identityId);
  });

  it("names each method once in amr when a signed-in browser signs in again with its password", async () => {
    const email = "challenge-amr@example.com";
    await registerNative(ts, email);
    const jar = new CookieJar();
    const signIn = async (query: string) => {
      const flow = (await initLogin(jar, query)).body as Json;
      return submitPassword(jar, flow, email, "html");
    };
    // A plain sign-in first: the identity session's AMR is [password].
    expect((await signIn("")).status).toBe(303);
    // The OAuth2 login is not remembered, so the flow refreshes the session: the session now
    // records two password authentications, the login accept names the method once.
    const auth = await startAuthorization(ts, rp);
    const done = await signIn(`login_challenge=${auth.loginChallenge}`);
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, { jar, headers: json });
    const methods = (whoami.body as { authentication_methods: Json[] }).authentication_methods;
    expect(methods.map((m) => m.method)).toEqual(["password", "password"]);
    const claims = await finishAuthorization(ts, auth, String(done.headers.get("location")));
    expect(claims.amr).toEqual(["password"]);
  });

  it("refuses an unknown, empty or used challenge with a 400 error", async () => {
    const jar = new CookieJar();
    const unknown = await initLogin(jar, "login_challenge=not-a-challenge");
    expect(unknown.status).toBe(400);
    expect((unknown.body as { error: Json }).error).toMatchObject({
      reason: "Unable to get OAuth 2.0 Login Challenge.",
      details: { status_code: 404 },
    });

    const empty = await initLogin(jar, "login_challenge=");
    expect(empty.status).toBe(400);

    const email = "challenge-used@example.com";
    await registerNative(ts, email);
    const auth = await startAuthorization(ts, rp);
    const flow = (await initLogin(jar, `login_challenge=${auth.loginChallenge}`)).body as Json;
    await finishAuthorization(
      ts,
      auth,
      redirectBrowserTo(await submitPassword(jar, flow, email, "json")),
    );
    const used = await initLogin(new CookieJar(), `login_challenge=${auth.loginChallenge}`);
    expect(used.status).toBe(400);
    expect((used.body as { error: Json }).error).toMatchObject({ details: { status_code: 410 } });
  });

  it("leaves API flows out of it", async () => {
    const auth = await startAuthorization(ts, rp);
    const api = await call(
      `${ts.publicUrl}/self-service/login/api?login_challenge=${auth.loginChallenge}`,
    );
    expect(api.status).toBe(200);
    expect(api.body).not.toHaveProperty("oauth2_login_challenge");
    expect(await loginPending(auth)).toBe(true);
  });
});

describe("registration with an OAuth2 login challenge", () => {
  it("verifies the address first, then accepts the login request and sends the browser back", async () => {
    const email = "challenge-register@example.com";
    const auth = await startAuthorization(ts, rp);
    const jar = new CookieJar();
    const init = await call(
      `${ts.publicUrl}/self-service/registration/browser?login_challenge=${auth.loginChallenge}`,
      { jar, headers: json },
    );
    expect(init.status).toBe(200);
    const flow = init.body as Json;
    expect(flow.oauth2_login_challenge).toBe(auth.loginChallenge);
    expect((flow.oauth2_login_request as Json).challenge).toBe(auth.loginChallenge);

    const registered = await call(
      `${ts.publicUrl}/self-service/registration?flow=${String(flow.id)}`,
      {
        method: "POST",
        jar,
        headers: { ...html, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          method: "password",
          password: strongPassword,
          "traits.email": email,
          csrf_token: csrfTokenOf(flow as never),
        }).toString(),
      },
    );
    expect(registered.status).toBe(303);
    const verificationId = new URL(String(registered.headers.get("location"))).searchParams.get(
      "flow",
    );
    expect(await loginPending(auth)).toBe(true);

    const verification = await call(
      `${ts.publicUrl}/self-service/verification/flows?id=${verificationId}`,
      { jar, headers: json },
    );
    const verified = await call(
      `${ts.publicUrl}/self-service/verification?flow=${String(verificationId)}`,
      {
        method: "POST",
        jar,
        headers: { ...html, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          method: "code",
          code: await ts.latestCode(email),
          csrf_token: csrfTokenOf(verification.body as never),
        }).toString(),
      },
    );
    expect(verified.status).toBe(303);
    const location = String(verified.headers.get("location"));
    expect(isOAuth2Url(location)).toBe(true);
    const claims = await finishAuthorization(ts, auth, location);
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, { jar, headers: json });
    expect(claims.sub).toBe((whoami.body as { identity: Json }).identity.id);
  });

  it("gives an SPA the login_verifier in its answer only, never in the stored flow", async () => {
    const email = "challenge-register-spa@example.com";
    const auth = await startAuthorization(ts, rp);
    const jar = new CookieJar();
    const init = await call(
      `${ts.publicUrl}/self-service/registration/browser?login_challenge=${auth.loginChallenge}`,
      { jar, headers: json },
    );
    const flow = init.body as Json;
    const registered = await call(
      `${ts.publicUrl}/self-service/registration?flow=${String(flow.id)}`,
      {
        method: "POST",
        jar,
        headers: { ...html, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          method: "password",
          password: strongPassword,
          "traits.email": email,
          csrf_token: csrfTokenOf(flow as never),
        }).toString(),
      },
    );
    const verificationId = String(
      new URL(String(registered.headers.get("location"))).searchParams.get("flow"),
    );
    const verificationUrl = `${ts.publicUrl}/self-service/verification/flows?id=${verificationId}`;
    const verification = await call(verificationUrl, { jar, headers: json });

    const verified = await call(
      `${ts.publicUrl}/self-service/verification?flow=${verificationId}`,
      {
        method: "POST",
        jar,
        headers: { ...json, "content-type": "application/json" },
        body: JSON.stringify({
          method: "code",
          code: await ts.latestCode(email),
          csrf_token: csrfTokenOf(verification.body as never),
        }),
      },
    );
    expect(verified.status).toBe(200);
    const continueHref = (body: unknown): string => {
      const nodes = (body as { ui: { nodes: { attributes: Json }[] } }).ui.nodes;
      const node = nodes.find((n) => n.attributes.id === "continue");
      return String(node?.attributes.href);
    };
    const link = continueHref(verified.body);
    expect(isOAuth2Url(link)).toBe(true);
    const verifier = String(new URL(link).searchParams.get("login_verifier"));
    expect(verifier.length).toBeGreaterThan(20);

    // Neither the stored flow, nor anything else in the database, nor a later read of the flow
    // holds the verifier.
    const db = new DatabaseSync(path.join(ts.dataDir, databaseFileName), { readOnly: true });
    try {
      const row = db.prepare("SELECT * FROM selfservice_flows WHERE id = ?").get(verificationId);
      expect(row).toBeDefined();
      expect(JSON.stringify(row)).not.toContain(verifier);
    } finally {
      db.close();
    }
    const files = [databaseFileName, `${databaseFileName}-wal`]
      .map((name) => path.join(ts.dataDir, name))
      .filter((file) => existsSync(file));
    for (const file of files) expect(readFileSync(file).includes(verifier)).toBe(false);
    const reread = await call(verificationUrl, { jar, headers: json });
    expect((reread.body as Json).state).toBe("passed_challenge");
    expect(isOAuth2Url(continueHref(reread.body))).toBe(false);

    // The link in the answer finishes the OAuth2 login.
    const claims = await finishAuthorization(ts, auth, link);
    const whoami = await call(`${ts.publicUrl}/sessions/whoami`, { jar, headers: json });
    expect(claims.sub).toBe((whoami.body as { identity: Json }).identity.id);
  });

  it("with a session: accepts a remembered login, or hands a fresh one to the login flow", async () => {
    const email = "challenge-register-session@example.com";
    await registerNative(ts, email);
    const jar = new CookieJar();
    const first = await startAuthorization(ts, rp);
    const flow = (await initLogin(jar, `login_challenge=${first.loginChallenge}`)).body as Json;
    await finishAuthorization(
      ts,
      first,
      redirectBrowserTo(await submitPassword(jar, flow, email, "json")),
    );

    const remembered = await startAuthorization(ts, rp, first.browser);
    const skipped = await call(
      `${ts.publicUrl}/self-service/registration/browser?login_challenge=${remembered.loginChallenge}`,
      { jar, headers: html },
    );
    expect(skipped.status).toBe(303);
    expect(isOAuth2Url(skipped.headers.get("location"))).toBe(true);

    const fresh = await startAuthorization(ts, rp);
    const handed = await call(
      `${ts.publicUrl}/self-service/registration/browser?login_challenge=${fresh.loginChallenge}`,
      { jar, headers: html },
    );
    expect(handed.status).toBe(302);
    const login = new URL(String(handed.headers.get("location")));
    expect(login.pathname).toMatch(/\/self-service\/login\/browser$/);
    expect(login.searchParams.get("login_challenge")).toBe(fresh.loginChallenge);
  });
});
