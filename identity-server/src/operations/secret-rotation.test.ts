import { createHmac } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import * as oidc from "openid-client";
import { afterAll, describe, expect, it } from "vitest";
import { challengeIn, pkce, redirectUri } from "../oauth2/test-support/portal-role.ts";
import { Browser as OAuth2Browser } from "../oauth2/test-support/browser.ts";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import {
  oauth2Admin,
  oauth2Of,
  registerRelyingParty,
} from "../test-support/oauth2-relying-party.ts";
import {
  completeTotp,
  linkTotp,
  passwordSignIn,
  submitLogin,
  whoami,
  type Browser,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// The rotation run (issue 18): a server started with secret A signs a browser in, issues OAuth2
// tokens and stores backup codes and a TOTP; restarted with "B,A" everything made under A still
// works while new cookies are signed with B; restarted with "B" alone, what only A signed is
// refused cleanly (401/400 in Ory's shapes, never a 500).

const secretA = "A-secret-for-the-rotation-run-0123456789";
const secretB = "B-secret-for-the-rotation-run-9876543210";

const running: TestServer[] = [];
afterAll(async () => {
  for (const ts of running) await ts.stop();
});

/** A free port, so the OAuth2 issuer (http://localhost:<port>) is the same across restarts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function start(secrets: string, dataDir: string | undefined, port: number) {
  const ts = await startTestServer(
    { IDENTITY_SECRETS: secrets, IDENTITY_OAUTH2_PUBLIC_PORT: String(port) },
    dataDir,
  );
  running.push(ts);
  return ts;
}

async function stop(ts: TestServer): Promise<void> {
  running.splice(running.indexOf(ts), 1);
  await ts.server.close();
}

/** A browser form sign-in answering an OAuth2 login challenge. */
async function signInForChallenge(
  ts: TestServer,
  email: string,
  challenge: string,
): Promise<TestResponse> {
  const jar = new CookieJar();
  const flow = (
    await call(`${ts.publicUrl}/self-service/login/browser?login_challenge=${challenge}`, {
      jar,
      headers: { accept: "application/json" },
    })
  ).body as never;
  return call(`${ts.publicUrl}/self-service/login?flow=${String((flow as { id: string }).id)}`, {
    method: "POST",
    jar,
    headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      method: "password",
      identifier: email,
      password: strongPassword,
      csrf_token: csrfTokenOf(flow),
    }).toString(),
  });
}

/** The authorization code flow to the end: the relying party's tokens. */
async function authorize(
  ts: TestServer,
  rp: oidc.Configuration,
  browser: OAuth2Browser,
  email: string,
): Promise<oidc.TokenEndpointResponse> {
  const { verifier, challenge } = await pkce();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const loginChallenge = challengeIn((await browser.follow(url.href)).location, "login");
  const done = await signInForChallenge(ts, email, loginChallenge);
  const consentChallenge = challengeIn(
    (await browser.follow(String(done.headers.get("location")))).location,
    "consent",
  );
  const consent = await oauth2Admin(
    ts,
    "PUT",
    `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${consentChallenge}`,
    { grant_scope: ["openid"], remember: true },
  );
  const final = await browser.follow(String(consent.body.redirect_to));
  return oidc.authorizationCodeGrant(rp, new URL(String(final.location)), {
    expectedState: state,
    pkceCodeVerifier: verifier,
  });
}

/** Whether the OAuth2 browser's remembered login is still recognised (Hydra's `skip`). */
async function loginSkipped(ts: TestServer, rp: oidc.Configuration, browser: OAuth2Browser) {
  const { challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid",
    state: oidc.randomState(),
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const response = await browser.follow(url.href);
  expect(response.status).toBeLessThan(500);
  const loginChallenge = challengeIn(response.location, "login");
  const login = await oauth2Admin(
    ts,
    "GET",
    `/admin/oauth2/auth/requests/login?login_challenge=${loginChallenge}`,
  );
  return login.body.skip;
}

async function introspect(ts: TestServer, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${oauth2Of(ts).adminUrl}/admin/oauth2/introspect`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
}

async function verifiesAgainstJwks(ts: TestServer, idToken: string): Promise<boolean> {
  const jwks = (await (
    await fetch(`${oauth2Of(ts).publicUrl}/.well-known/jwks.json`)
  ).json()) as JSONWebKeySet;
  try {
    await jwtVerify(idToken, createLocalJWKSet(jwks));
    return true;
  } catch {
    return false;
  }
}

/** A fresh browser's backup-code second factor: the answer to the aal2 login. */
async function signInWithBackupCode(ts: TestServer, email: string, code: string) {
  const { browser } = await passwordSignIn(ts, email);
  const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
  return submitLogin(ts, browser, flow, { method: "lookup_secret", lookup_secret: code });
}

function signedWith(secret: string, cookie: string | undefined): boolean {
  if (!cookie) return false;
  const dot = cookie.lastIndexOf(".");
  const expected = createHmac("sha256", secret).update(cookie.slice(0, dot)).digest("base64url");
  return cookie.slice(dot + 1) === expected;
}

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
      text: { context: { secrets: { context: { secret: string } }[] } };
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
  return secrets.map((s) => s.context.secret);
}

describe("the rotation run (IDENTITY_SECRETS)", () => {
  it("keeps what A made working under B,A, signs new cookies with B, and refuses A's cleanly under B", async () => {
    const port = await freePort();
    const email = "rotation@example.com";

    // 1. Secret A: OAuth2 tokens, a signed-in browser, backup codes and a TOTP.
    const first = await start(secretA, undefined, port);
    const dataDir = first.dataDir;
    await registerNative(first, email);
    const rp = await registerRelyingParty(first);
    const oauth2Browser = new OAuth2Browser(oauth2Of(first).issuer);
    const tokens = await authorize(first, rp, oauth2Browser, email);
    const idToken = String(tokens.id_token);
    const { browser: kept } = await passwordSignIn(first, email);
    const sessionA = kept.jar.get("ory_kratos_session");
    expect(signedWith(secretA, sessionA)).toBe(true);
    const codes = await backupCodes(kept);
    const totpSecret = await linkTotp(first, kept);
    const sessionId = ((await whoami(first, kept)).body as { id: string }).id;
    await stop(first);

    // 2. "B,A": everything A made still works; what is new is signed with B.
    const rotated = await start(`${secretB},${secretA}`, dataDir, port);
    const stillIn = await whoami(rotated, kept);
    expect(stillIn.status).toBe(200);
    expect((stillIn.body as { id: string }).id).toBe(sessionId);
    expect((await signInWithBackupCode(rotated, email, String(codes[0]))).status).toBe(200);
    const { browser: fresh } = await passwordSignIn(rotated, email);
    expect(signedWith(secretB, fresh.jar.get("ory_kratos_session"))).toBe(true);
    // A step later than the one used to link it, so the replay guard has nothing to say.
    rotated.advanceClock(60_000);
    expect((await completeTotp(rotated, fresh, totpSecret)).status).toBe(200);
    expect(await introspect(rotated, tokens.access_token)).toMatchObject({ active: true });
    expect(await verifiesAgainstJwks(rotated, idToken)).toBe(true);
    expect(await loginSkipped(rotated, rp, oauth2Browser)).toBe(true);
    await stop(rotated);

    // 3. "B" alone: the signing keys were sealed again with B, so the server starts; what only A
    // signed or hashed is refused the way a forged value is.
    const retired = await start(secretB, dataDir, port);
    const refused = await whoami(retired, kept);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: 401, status: "Unauthorized" } });
    expect((await whoami(retired, fresh)).status).toBe(200);
    const oldCode = await signInWithBackupCode(retired, email, String(codes[1]));
    expect(oldCode.status).toBe(400);
    expect(JSON.stringify(oldCode.body)).toContain("4000016");
    expect(await introspect(retired, tokens.access_token)).toMatchObject({ active: true });
    expect(await verifiesAgainstJwks(retired, idToken)).toBe(true);
    // oidc-provider signed the OAuth2 browser's login cookie again with B during the overlap.
    expect(await loginSkipped(retired, rp, oauth2Browser)).toBe(true);
    await stop(retired);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
