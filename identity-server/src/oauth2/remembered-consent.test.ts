import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./test-support/browser.ts";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  introspect,
  redirectUri,
  registerClient,
  relyingParty,
  signIn,
  tokenRequest,
  type RegisteredClient,
} from "./test-support/portal-role.ts";

// Hydra keeps a remembered consent apart from the tokens issued under it: a reused code, a reused
// refresh token and a revocation revoke tokens by their request id (fosite
// handler/oauth2/flow_authorize_code_token.go, flow_refresh.go handleRefreshTokenReuse,
// revocation.go; hydra persistence/sql/persister_oauth2.go RevokeAccessToken/RevokeRefreshToken),
// never the consent (hydra_oauth2_flow), so a later prompt=none is still answered with a code.
// oidc-provider's default revokeGrantPolicy destroyed the Grant the remembered consent points to
// on each of those steps, and prompt=none then answered consent_required.
//
// Every authorization gets its own grant (Hydra's request id): refreshing one chain revokes the
// access tokens that chain issued before (hydra strictRefreshRotation), no other chain's.

let service: OAuth2TestService;
let client: RegisteredClient;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = await registerClient(service, {
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    scope: "openid offline_access",
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

const basic = () => ({ id: client.client_id, secret: client.client_secret ?? "" });

/** A prompt=none request in the signed-in browser; returns the code or the error. */
async function silently(browser: Browser): Promise<{ code: string | null; error: string | null }> {
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid offline_access",
    prompt: "none",
    state: oidc.randomState(),
  });
  const answer = await browser.follow(url.href);
  const callback = new URL(answer.location ?? "");
  return { code: callback.searchParams.get("code"), error: callback.searchParams.get("error") };
}

async function exchange(code: string) {
  return tokenRequest(
    service,
    { grant_type: "authorization_code", code, redirect_uri: redirectUri },
    basic(),
  );
}

async function refresh(refreshToken: string) {
  return tokenRequest(
    service,
    { grant_type: "refresh_token", refresh_token: refreshToken },
    basic(),
  );
}

/** An interactive sign-in that remembers login and consent; returns the browser and tokens. */
async function rememberedSignIn(subject: string) {
  const browser = service.browser();
  const { tokens } = await signIn(service, browser, rp, {
    subject,
    login: { remember: true },
    consent: { remember: true, remember_for: 0 },
  });
  return { browser, tokens };
}

async function revoke(token: string): Promise<number> {
  const credentials = `${client.client_id}:${client.client_secret ?? ""}`;
  const answer = await fetch(`${service.issuer}/oauth2/revoke`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(credentials).toString("base64")}`,
    },
    body: new URLSearchParams({ token }).toString(),
  });
  return answer.status;
}

describe("a remembered consent answers a later prompt=none with a code", () => {
  it("after a reused authorization code", async () => {
    const { browser } = await rememberedSignIn("user-code-reuse");
    const first = await silently(browser);
    const tokens = await exchange(first.code ?? "");
    expect(tokens.status).toBe(200);
    expect((await exchange(first.code ?? "")).status).toBe(400);
    expect(await introspect(service, String(tokens.body.access_token))).toEqual({ active: false });
    const later = await silently(browser);
    expect(later.error).toBeNull();
    expect((await exchange(later.code ?? "")).status).toBe(200);
  });

  it("after a reused refresh token", async () => {
    const { browser, tokens } = await rememberedSignIn("user-refresh-reuse");
    const spent = tokens.refresh_token ?? "";
    expect((await refresh(spent)).status).toBe(200);
    expect((await refresh(spent)).status).toBe(400);
    const later = await silently(browser);
    expect(later.error).toBeNull();
    expect((await exchange(later.code ?? "")).status).toBe(200);
  });

  it("after a revoked refresh token", async () => {
    const { browser, tokens } = await rememberedSignIn("user-revoke");
    expect(await revoke(tokens.refresh_token ?? "")).toBe(200);
    expect(await introspect(service, tokens.access_token)).toEqual({ active: false });
    const later = await silently(browser);
    expect(later.error).toBeNull();
    expect((await exchange(later.code ?? "")).status).toBe(200);
  });

  it("while each silent authorization keeps tokens of its own", async () => {
    const { browser, tokens } = await rememberedSignIn("user-chains");
    const silent = await exchange((await silently(browser)).code ?? "");
    expect(silent.status).toBe(200);
    // Reusing the first chain's refresh token ends that chain only.
    const spent = tokens.refresh_token ?? "";
    expect((await refresh(spent)).status).toBe(200);
    expect((await refresh(spent)).status).toBe(400);
    expect(await introspect(service, String(silent.body.access_token))).toMatchObject({
      active: true,
    });
    // The silent authorization is not a consent session of its own (Hydra lists skipped ones
    // neither), and it carries the remembered consent's session claims.
    const sessions = await service.admin(
      "GET",
      "/admin/oauth2/auth/sessions/consent?subject=user-chains",
    );
    expect(sessions.body).toHaveLength(1);
  });
});

describe("a refresh", () => {
  it("revokes the access token it replaces, as Hydra", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, { subject: "user-rotate" });
    const refreshed = await refresh(tokens.refresh_token ?? "");
    expect(refreshed.status).toBe(200);
    expect(await introspect(service, tokens.access_token)).toEqual({ active: false });
    expect(await introspect(service, String(refreshed.body.access_token))).toMatchObject({
      active: true,
    });
    const again = await refresh(String(refreshed.body.refresh_token));
    expect(await introspect(service, String(refreshed.body.access_token))).toEqual({
      active: false,
    });
    expect(await introspect(service, String(again.body.access_token))).toMatchObject({
      active: true,
    });
  });
});
