import { jwtVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import * as oidc from "openid-client";
import { afterEach, describe, expect, it } from "vitest";
import { assertMatchesHydraSpec } from "./test-support/hydra-openapi.ts";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  introspect,
  pkce,
  redirectUri,
  registerClient,
  relyingParty,
  signIn,
  tokenRequest,
  visitUntilChallenge,
} from "./test-support/portal-role.ts";

const running: OAuth2TestService[] = [];

async function start(env: Record<string, string> = {}): Promise<OAuth2TestService> {
  const service = await startOAuth2TestService(env);
  running.push(service);
  return service;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.stop()));
});

async function jwks(service: OAuth2TestService): Promise<JSONWebKeySet> {
  const response = await fetch(`${service.issuer}/.well-known/jwks.json`);
  const body = (await response.json()) as JSONWebKeySet;
  assertMatchesHydraSpec("GET", "/.well-known/jwks.json", response.status, body);
  return body;
}

describe("the public listener", () => {
  it("serves discovery with Hydra's paths and RS256 plus ES256 public keys", async () => {
    const service = await start();
    const response = await fetch(`${service.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({
      issuer: service.issuer,
      authorization_endpoint: `${service.issuer}/oauth2/auth`,
      token_endpoint: `${service.issuer}/oauth2/token`,
      userinfo_endpoint: `${service.issuer}/userinfo`,
      jwks_uri: `${service.issuer}/.well-known/jwks.json`,
      revocation_endpoint: `${service.issuer}/oauth2/revoke`,
      end_session_endpoint: `${service.issuer}/oauth2/sessions/logout`,
      subject_types_supported: ["public"],
    });
    expect(discovery.grant_types_supported).toEqual(
      expect.arrayContaining([
        "authorization_code",
        "refresh_token",
        "client_credentials",
        "urn:ietf:params:oauth:grant-type:jwt-bearer",
      ]),
    );
    expect(discovery.code_challenge_methods_supported).toEqual(["S256"]);

    const keys = await jwks(service);
    expect(keys.keys.map((key) => key.alg)).toEqual(["RS256", "ES256"]);
    for (const key of keys.keys) {
      expect(key).not.toHaveProperty("d");
      expect(key.use).toBe("sig");
    }
  });

  it("answers health checks on both listeners, and unknown paths with a JSON 404", async () => {
    const service = await start();
    for (const base of [service.issuer, service.adminUrl]) {
      for (const check of ["/health/alive", "/health/ready"]) {
        const response = await fetch(`${base}${check}`);
        expect(response.status).toBe(200);
        const body = await response.json();
        assertMatchesHydraSpec("GET", check, 200, body);
        expect(body).toEqual({ status: "ok" });
      }
    }
    const missing = await fetch(`${service.issuer}/no/such/path`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: "Not Found" });
  });
});

describe("a restart", () => {
  it("keeps signing keys, clients, secrets, sessions and tokens", async () => {
    const service = await start();
    const client = await registerClient(service, {
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token", "client_credentials"],
      scope: "openid offline_access api",
    });
    const browser = service.browser();
    const { tokens } = await signIn(service, browser, await relyingParty(service, client), {
      subject: "user-restart",
      login: { remember: true },
    });
    const keysBefore = await jwks(service);

    const restarted = await service.restart();
    running.splice(running.indexOf(service), 1, restarted);
    expect(restarted.issuer).toBe(service.issuer);

    expect(await jwks(restarted)).toEqual(keysBefore);
    // The ID token issued before the restart still verifies with the published keys.
    const { payload } = await jwtVerify(
      tokens.id_token ?? "",
      createLocalJWKSet(await jwks(restarted)),
      {
        issuer: restarted.issuer,
      },
    );
    expect(payload.sub).toBe("user-restart");

    expect((await restarted.admin("GET", `/admin/clients/${client.client_id}`)).status).toBe(200);
    expect(await introspect(restarted, tokens.access_token)).toMatchObject({ active: true });
    const refreshed = await oidc.refreshTokenGrant(
      await relyingParty(restarted, client),
      tokens.refresh_token ?? "",
    );
    expect(refreshed.access_token).toBeTruthy();
    const machine = await tokenRequest(
      restarted,
      { grant_type: "client_credentials", scope: "api" },
      { id: client.client_id, secret: client.client_secret ?? "" },
    );
    expect(machine.status).toBe(200);

    // The browser's remembered login survived too (cookie keys come from the server secret).
    const { challenge } = await pkce();
    const url = oidc.buildAuthorizationUrl(await relyingParty(restarted, client), {
      redirect_uri: redirectUri,
      scope: "openid",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const loginChallenge = await visitUntilChallenge(browser, url.href, "login");
    const login = await restarted.admin(
      "GET",
      `/admin/oauth2/auth/requests/login?login_challenge=${loginChallenge}`,
    );
    expect(login.body).toMatchObject({ skip: true, subject: "user-restart" });
  });

  it("refuses to start when the signing keys cannot be opened with the secret", async () => {
    const service = await start({ IDENTITY_SECRET: "a".repeat(40) });
    await service.service.close();
    running.splice(running.indexOf(service), 1);
    await expect(
      startOAuth2TestService(
        { IDENTITY_SECRET: "b".repeat(40) },
        { dataDir: service.dataDir, port: 0, clockOffset: 0 },
      ),
    ).rejects.toThrow(/IDENTITY_SECRET/);
  });
});

describe("the seed client", () => {
  const seed = {
    client_id: "demo-portal",
    client_secret: "demo-portal-secret",
    client_name: "Demo portal",
    redirect_uris: ["http://localhost:4000/callback"],
    post_logout_redirect_uris: ["http://localhost:4000/"],
    skip_consent: true,
  };

  it("is registered at start-up and stays one client across restarts", async () => {
    const service = await start({ IDENTITY_OAUTH2_SEED_CLIENT: JSON.stringify(seed) });
    const read = await service.admin("GET", "/admin/clients/demo-portal");
    expect(read.body).toMatchObject({
      client_id: "demo-portal",
      client_name: "Demo portal",
      redirect_uris: ["http://localhost:4000/callback"],
      skip_consent: true,
      scope: "offline_access offline openid",
    });
    const createdAt = (read.body as { created_at: string }).created_at;

    const restarted = await service.restart();
    running.splice(running.indexOf(service), 1, restarted);
    const list = await restarted.admin("GET", "/admin/clients?client_name=Demo%20portal");
    expect(list.body).toHaveLength(1);
    expect((list.body as { created_at: string }[])[0]?.created_at).toBe(createdAt);

    // Its configured secret authenticates (the client has no client_credentials grant, so the
    // token endpoint answers unauthorized_client rather than invalid_client).
    const answer = await tokenRequest(
      restarted,
      { grant_type: "client_credentials" },
      { id: "demo-portal", secret: seed.client_secret },
    );
    expect(answer.body.error).toBe("unauthorized_client");
    const wrong = await tokenRequest(
      restarted,
      { grant_type: "client_credentials" },
      { id: "demo-portal", secret: "not-it" },
    );
    expect(wrong.body.error).toBe("invalid_client");
  });
});

describe("the admin bearer token", () => {
  it("is required on every admin call except the health checks when configured", async () => {
    const token = "admin-token-0123456789";
    const service = await start({ IDENTITY_ADMIN_TOKEN: token });
    const none = await service.admin("GET", "/admin/clients", { unchecked: true });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: "The request could not be authorized" });
    const wrong = await service.admin("GET", "/admin/clients", { token: "nope", unchecked: true });
    expect(wrong.status).toBe(401);
    const right = await service.admin("GET", "/admin/clients", { token });
    expect(right.status).toBe(200);
    expect((await fetch(`${service.adminUrl}/health/ready`)).status).toBe(200);
  });

  it("is not asked for when none is configured", async () => {
    const service = await start();
    expect((await service.admin("GET", "/admin/clients")).status).toBe(200);
  });
});
