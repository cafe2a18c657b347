import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as oidc from "openid-client";
import { csrfTokenOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import {
  finishAuthorization,
  registerRelyingParty,
  startAuthorization,
} from "../test-support/oauth2-relying-party.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Strict mode (IDENTITY_ORY_EXTENSIONS=false) accepts OAuth2 logins exactly as Kratos does
// (hydra/hydra.go AcceptLoginRequest): no `acr`, and one `amr` entry per completed
// authentication. Found in issue 15: ID tokens carried `acr: "aal1"` in strict mode too.

type Json = Record<string, unknown>;

let ts: TestServer;
let rp: oidc.Configuration;

beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_ORY_EXTENSIONS: "false" });
  rp = await registerRelyingParty(ts);
});

afterAll(() => ts.stop());

const json = { accept: "application/json" };

async function signIn(jar: CookieJar, email: string, query: string): Promise<TestResponse> {
  const flow = (
    await call(`${ts.publicUrl}/self-service/login/browser?${query}`, { jar, headers: json })
  ).body as Json;
  const fields = {
    method: "password",
    identifier: email,
    password: strongPassword,
    csrf_token: csrfTokenOf(flow as never),
  };
  return call(`${ts.publicUrl}/self-service/login?flow=${String(flow.id)}`, {
    method: "POST",
    jar,
    headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("OAuth2 login accepted in strict mode", () => {
  it("sends no acr, as Kratos", async () => {
    const email = "strict-acr@example.com";
    await registerNative(ts, email);
    const auth = await startAuthorization(ts, rp);
    const done = await signIn(new CookieJar(), email, `login_challenge=${auth.loginChallenge}`);
    expect(done.status).toBe(303);
    const claims = await finishAuthorization(ts, auth, String(done.headers.get("location")));
    expect(claims.amr).toEqual(["password"]);
    expect(claims).not.toHaveProperty("acr");
  });

  it("names every completed authentication in amr, as Kratos", async () => {
    const email = "strict-amr@example.com";
    await registerNative(ts, email);
    const jar = new CookieJar();
    expect((await signIn(jar, email, "")).status).toBe(303);
    const auth = await startAuthorization(ts, rp);
    const done = await signIn(jar, email, `login_challenge=${auth.loginChallenge}`);
    const claims = await finishAuthorization(ts, auth, String(done.headers.get("location")));
    expect(claims.amr).toEqual(["password", "password"]);
  });
});
