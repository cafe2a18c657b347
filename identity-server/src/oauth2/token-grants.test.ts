import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  acceptConsent,
  acceptLogin,
  introspect,
  pkce,
  redirectUri,
  registerClient,
  relyingParty,
  signIn,
  tokenRequest,
  visitUntilChallenge,
  type RegisteredClient,
} from "./test-support/portal-role.ts";

let service: OAuth2TestService;
let confidential: RegisteredClient;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  confidential = await registerClient(service, {
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    scope: "openid offline_access profile",
  });
  rp = await relyingParty(service, confidential);
});

afterAll(() => service.stop());

/** Sends an authorization request and returns where the server sends the browser first. */
async function firstRedirect(url: URL): Promise<{ status: number; location: string | undefined }> {
  const response = await service.browser().get(url.href);
  return { status: response.status, location: response.location };
}

describe("PKCE", () => {
  it("is required for public clients", async () => {
    const publicClient = await registerClient(service, {
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      scope: "openid",
    });
    const publicRp = await relyingParty(service, publicClient, "none");
    const { status, location } = await firstRedirect(
      oidc.buildAuthorizationUrl(publicRp, {
        redirect_uri: redirectUri,
        scope: "openid",
        state: "s",
      }),
    );
    expect(status).toBe(303);
    const callback = new URL(location ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("error")).toBe("invalid_request");
    expect(callback.searchParams.get("error_description")).toMatch(/PKCE/);

    // With PKCE the public client signs in and gets tokens without a secret.
    const { tokens } = await signIn(service, service.browser(), publicRp, { scope: "openid" });
    expect(tokens.claims()?.sub).toBe("user-1");
  });

  it("is allowed but not required for confidential clients", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, {
      scope: "openid",
      usePkce: false,
    });
    expect(tokens.access_token).toBeTruthy();
  });

  it("refuses a code exchanged with the wrong verifier", async () => {
    const browser = service.browser();
    const pair = await pkce();
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: redirectUri,
      scope: "openid",
      code_challenge: pair.challenge,
      code_challenge_method: "S256",
    });
    const loginChallenge = await visitUntilChallenge(browser, url.href, "login");
    const consentChallenge = await visitUntilChallenge(
      browser,
      await acceptLogin(service, loginChallenge, { subject: "user-1" }),
      "consent",
    );
    const back = await browser.follow(
      await acceptConsent(service, consentChallenge, { grant_scope: ["openid"] }),
    );
    const code = new URL(back.location ?? "").searchParams.get("code") ?? "";
    const answer = await tokenRequest(
      service,
      {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: (await pkce()).verifier,
      },
      { id: confidential.client_id, secret: confidential.client_secret ?? "" },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_grant");
  });
});

describe("redirect URIs", () => {
  it("must match a registered one exactly", async () => {
    for (const wrong of [
      `${redirectUri}/more`,
      `${redirectUri}?x=1`,
      "http://127.0.0.1:5556/callback",
    ]) {
      const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: wrong, scope: "openid" });
      const { status, location } = await firstRedirect(url);
      // Never redirected to an unregistered URI: an error page instead.
      expect(status).toBe(400);
      expect(location).toBeUndefined();
    }
  });
});

describe("requested scopes", () => {
  it("must be registered with the client", async () => {
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: redirectUri,
      scope: "openid email",
      state: "s",
    });
    const { location } = await firstRedirect(url);
    const callback = new URL(location ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("error")).toBe("invalid_scope");
  });

  it("that no client has are dropped (a difference from Hydra, which refuses them)", async () => {
    const browser = service.browser();
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: redirectUri,
      scope: "openid never-heard-of",
    });
    const challenge = await visitUntilChallenge(browser, url.href, "login");
    const request = await service.admin(
      "GET",
      `/admin/oauth2/auth/requests/login?login_challenge=${challenge}`,
    );
    expect(request.body).toMatchObject({ requested_scope: ["openid"] });
  });
});

describe("authorization codes", () => {
  it("can be used once; reusing one revokes the tokens issued with it", async () => {
    const browser = service.browser();
    const url = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: redirectUri,
      scope: "openid offline_access",
    });
    const loginChallenge = await visitUntilChallenge(browser, url.href, "login");
    const consentChallenge = await visitUntilChallenge(
      browser,
      await acceptLogin(service, loginChallenge, { subject: "user-2" }),
      "consent",
    );
    const back = await browser.follow(
      await acceptConsent(service, consentChallenge, { grant_scope: ["openid", "offline_access"] }),
    );
    const code = new URL(back.location ?? "").searchParams.get("code") ?? "";
    const exchange = () =>
      tokenRequest(
        service,
        { grant_type: "authorization_code", code, redirect_uri: redirectUri },
        { id: confidential.client_id, secret: confidential.client_secret ?? "" },
      );
    const first = await exchange();
    expect(first.status).toBe(200);
    expect(await introspect(service, String(first.body.access_token))).toMatchObject({
      active: true,
    });

    const second = await exchange();
    expect(second.status).toBe(400);
    expect(second.body.error).toBe("invalid_grant");
    expect(await introspect(service, String(first.body.access_token))).toEqual({ active: false });
    expect(await introspect(service, String(first.body.refresh_token))).toEqual({ active: false });
  });

  it("are bound to the redirect URI of the authorization request", async () => {
    const browser = service.browser();
    const url = oidc.buildAuthorizationUrl(rp, { redirect_uri: redirectUri, scope: "openid" });
    const loginChallenge = await visitUntilChallenge(browser, url.href, "login");
    const consentChallenge = await visitUntilChallenge(
      browser,
      await acceptLogin(service, loginChallenge, { subject: "user-1" }),
      "consent",
    );
    const back = await browser.follow(
      await acceptConsent(service, consentChallenge, { grant_scope: ["openid"] }),
    );
    const code = new URL(back.location ?? "").searchParams.get("code") ?? "";
    const answer = await tokenRequest(
      service,
      { grant_type: "authorization_code", code, redirect_uri: `${redirectUri}/other` },
      { id: confidential.client_id, secret: confidential.client_secret ?? "" },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_grant");
  });
});

describe("refresh tokens", () => {
  it("rotate on every use; reusing an old one revokes the whole grant", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, { subject: "user-3" });
    const firstRefresh = tokens.refresh_token ?? "";
    expect(firstRefresh).toBeTruthy();

    const refreshed = await oidc.refreshTokenGrant(rp, firstRefresh);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(firstRefresh);
    expect(refreshed.claims()?.sub).toBe("user-3");
    expect(await introspect(service, refreshed.access_token)).toMatchObject({ active: true });
    expect(await introspect(service, refreshed.refresh_token ?? "")).toMatchObject({
      active: true,
      token_use: "refresh_token",
    });

    // The first refresh token was spent: presenting it again is treated as theft.
    const reuse = await tokenRequest(
      service,
      { grant_type: "refresh_token", refresh_token: firstRefresh },
      { id: confidential.client_id, secret: confidential.client_secret ?? "" },
    );
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");

    for (const token of [
      tokens.access_token,
      refreshed.access_token,
      refreshed.refresh_token ?? "",
    ]) {
      expect(await introspect(service, token)).toEqual({ active: false });
    }
    const afterRevocation = await tokenRequest(
      service,
      { grant_type: "refresh_token", refresh_token: refreshed.refresh_token ?? "" },
      { id: confidential.client_id, secret: confidential.client_secret ?? "" },
    );
    expect(afterRevocation.body.error).toBe("invalid_grant");
  });

  it("are issued for the `offline` scope too (Hydra's alias)", async () => {
    const client = await registerClient(service, {
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      scope: "openid offline",
    });
    const offlineRp = await relyingParty(service, client);
    const { tokens } = await signIn(service, service.browser(), offlineRp, {
      scope: "openid offline",
    });
    expect(tokens.refresh_token).toBeTruthy();
  });

  it("are not issued without offline_access or offline", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, { scope: "openid" });
    expect(tokens.refresh_token).toBeUndefined();
  });
});

describe("revocation and introspection", () => {
  it("revoking an access token also revokes the refresh token of the same grant", async () => {
    // fosite (Hydra) revokes both tokens of a request whichever one is presented.
    const { tokens } = await signIn(service, service.browser(), rp, { subject: "user-4" });
    expect(await introspect(service, tokens.access_token)).toMatchObject({ active: true });
    await oidc.tokenRevocation(rp, tokens.access_token);
    expect(await introspect(service, tokens.access_token)).toEqual({ active: false });
    expect(await introspect(service, tokens.refresh_token ?? "")).toEqual({ active: false });
  });

  it("revoking a refresh token revokes its access tokens", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, { subject: "user-4" });
    expect(await introspect(service, tokens.refresh_token ?? "")).toMatchObject({ active: true });
    await oidc.tokenRevocation(rp, tokens.refresh_token ?? "");
    expect(await introspect(service, tokens.refresh_token ?? "")).toEqual({ active: false });
    expect(await introspect(service, tokens.access_token)).toEqual({ active: false });
  });

  it("another client cannot revoke a token it does not own", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, { subject: "user-4" });
    const other = await registerClient(service, { redirect_uris: [redirectUri], scope: "openid" });
    await oidc.tokenRevocation(await relyingParty(service, other), tokens.access_token);
    expect(await introspect(service, tokens.access_token)).toMatchObject({ active: true });
  });

  it("checks the scope a caller asks for", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, {
      scope: "openid offline_access profile",
    });
    expect(await introspect(service, tokens.access_token, "profile")).toMatchObject({
      active: true,
    });
    expect(await introspect(service, tokens.access_token, "admin")).toEqual({ active: false });
  });

  it("answers inactive for unknown tokens and 400 for an empty body", async () => {
    expect(await introspect(service, "not-a-token")).toEqual({ active: false });
    const empty = await service.admin("POST", "/admin/oauth2/introspect", { form: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: "invalid_request" });
  });

  it("DELETE /admin/oauth2/tokens removes every access token of a client", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, { subject: "user-5" });
    const missing = await service.admin("DELETE", "/admin/oauth2/tokens");
    expect(missing.status).toBe(400);
    const deleted = await service.admin(
      "DELETE",
      `/admin/oauth2/tokens?client_id=${confidential.client_id}`,
    );
    expect(deleted.status).toBe(204);
    expect(await introspect(service, tokens.access_token)).toEqual({ active: false });
    // Refresh tokens are not access tokens; they stay.
    expect(await introspect(service, tokens.refresh_token ?? "")).toMatchObject({ active: true });
  });
});

describe("client_credentials", () => {
  it("issues tokens for the client itself within its scopes", async () => {
    const machine = await registerClient(service, {
      grant_types: ["client_credentials"],
      scope: "api:read api:write",
      token_endpoint_auth_method: "client_secret_post",
    });
    const machineRp = await relyingParty(service, machine, "post");
    const tokens = await oidc.clientCredentialsGrant(machineRp, { scope: "api:read" });
    expect(tokens.scope).toBe("api:read");
    expect(tokens.refresh_token).toBeUndefined();
    expect(await introspect(service, tokens.access_token)).toMatchObject({
      active: true,
      sub: machine.client_id,
      client_id: machine.client_id,
      scope: "api:read",
      token_use: "access_token",
    });

    const outside = await tokenRequest(service, {
      grant_type: "client_credentials",
      scope: "api:admin",
      client_id: machine.client_id,
      client_secret: machine.client_secret ?? "",
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe("invalid_scope");

    const wrongSecret = await tokenRequest(service, {
      grant_type: "client_credentials",
      client_id: machine.client_id,
      client_secret: "not-the-secret",
    });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe("invalid_client");
  });

  it("is refused for clients without the grant type", async () => {
    const answer = await tokenRequest(
      service,
      { grant_type: "client_credentials" },
      { id: confidential.client_id, secret: confidential.client_secret ?? "" },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("unauthorized_client");
    expect(answer.body.error_description).toBeTypeOf("string");
  });
});

describe("token endpoint errors", () => {
  it("answer as OAuth2 errors `{error, error_description}`", async () => {
    const answer = await tokenRequest(
      service,
      { grant_type: "authorization_code", code: "nope", redirect_uri: redirectUri },
      { id: confidential.client_id, secret: confidential.client_secret ?? "" },
    );
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body).sort()).toEqual(["error", "error_description"]);
    expect(answer.body.error).toBe("invalid_grant");
  });
});
