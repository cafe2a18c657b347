import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  challengeIn,
  introspect,
  pkce,
  redirectUri,
  registerClient,
  relyingParty,
  type RegisteredClient,
} from "./test-support/portal-role.ts";

let service: OAuth2TestService;
let client: RegisteredClient;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = await registerClient(service, {
    client_name: "Relying party",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    scope: "openid offline_access email",
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

describe("authorization code flow driven through the login and consent UIs", () => {
  it("issues tokens after the portal accepts login and consent over the admin API", async () => {
    const browser = service.browser();
    const { verifier, challenge } = await pkce();
    const authUrl = oidc.buildAuthorizationUrl(rp, {
      redirect_uri: redirectUri,
      scope: "openid offline_access email",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "state-1",
      nonce: "nonce-1",
    });

    // The browser is sent to the login UI with a login challenge.
    const first = await browser.follow(authUrl.href);
    expect(first.status).toBe(303);
    const loginUrl = new URL(first.location ?? "");
    expect(`${loginUrl.origin}${loginUrl.pathname}`).toBe("http://localhost:3000/login");
    const loginChallenge = challengeIn(first.location, "login");

    const loginRequest = await service.admin(
      "GET",
      `/admin/oauth2/auth/requests/login?login_challenge=${loginChallenge}`,
    );
    expect(loginRequest.status).toBe(200);
    expect(loginRequest.body).toMatchObject({
      challenge: loginChallenge,
      skip: false,
      subject: "",
      requested_scope: ["openid", "offline_access", "email"],
      requested_access_token_audience: [],
      client: { client_id: client.client_id, client_name: "Relying party" },
    });
    const requestUrl = new URL((loginRequest.body as { request_url: string }).request_url);
    expect(`${requestUrl.origin}${requestUrl.pathname}`).toBe(`${service.issuer}/oauth2/auth`);
    expect(requestUrl.searchParams.get("prompt")).toBeNull();
    expect((loginRequest.body as { client: Record<string, unknown> }).client).not.toHaveProperty(
      "client_secret",
    );

    const login = await service.admin(
      "PUT",
      `/admin/oauth2/auth/requests/login/accept?login_challenge=${loginChallenge}`,
      {
        json: {
          subject: "user-1",
          remember: true,
          remember_for: 3600,
          acr: "aal1",
          amr: ["password"],
          context: { via: "test" },
          identity_provider_session_id: "kratos-session-1",
        },
      },
    );
    expect(login.status).toBe(200);

    const toConsent = await browser.follow((login.body as { redirect_to: string }).redirect_to);
    const consentChallenge = challengeIn(toConsent.location, "consent");
    const consentRequest = await service.admin(
      "GET",
      `/admin/oauth2/auth/requests/consent?consent_challenge=${consentChallenge}`,
    );
    expect(consentRequest.status).toBe(200);
    expect(consentRequest.body).toMatchObject({
      challenge: consentChallenge,
      skip: false,
      subject: "user-1",
      requested_scope: ["openid", "offline_access", "email"],
      login_challenge: loginChallenge,
      acr: "aal1",
      amr: ["password"],
      context: { via: "test" },
      client: { client_id: client.client_id },
    });

    const consent = await service.admin(
      "PUT",
      `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${consentChallenge}`,
      {
        json: {
          grant_scope: ["openid", "offline_access", "email"],
          remember: true,
          remember_for: 0,
          session: {
            id_token: { email: "user-1@example.com", email_verified: true },
            access_token: { tenant: "agency-7" },
          },
        },
      },
    );
    expect(consent.status).toBe(200);
    const back = await browser.follow((consent.body as { redirect_to: string }).redirect_to);
    const callback = new URL(back.location ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);

    const tokens = await oidc.authorizationCodeGrant(rp, callback, {
      pkceCodeVerifier: verifier,
      expectedState: "state-1",
      expectedNonce: "nonce-1",
    });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.refresh_token).toBeTruthy();

    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: service.issuer,
      sub: "user-1",
      aud: client.client_id,
      acr: "aal1",
      amr: ["password"],
      email: "user-1@example.com",
      email_verified: true,
    });
    expect(claims?.auth_time).toBeTypeOf("number");
    // sid is Hydra's login session id, the same one the consent request reported.
    expect(claims?.sid).toBe(
      (consentRequest.body as { login_session_id: string }).login_session_id,
    );

    // The ID token verifies against the published keys.
    const jwks = createRemoteJWKSet(new URL(`${service.issuer}/.well-known/jwks.json`));
    const { protectedHeader } = await jwtVerify(tokens.id_token ?? "", jwks, {
      issuer: service.issuer,
      audience: client.client_id,
    });
    expect(protectedHeader.alg).toBe("RS256");

    const userinfo = await oidc.fetchUserInfo(rp, tokens.access_token, "user-1");
    expect(userinfo).toMatchObject({ sub: "user-1", email: "user-1@example.com" });

    const active = await introspect(service, tokens.access_token);
    expect(active).toMatchObject({
      active: true,
      sub: "user-1",
      client_id: client.client_id,
      scope: "openid offline_access email",
      iss: service.issuer,
      token_type: "Bearer",
      token_use: "access_token",
      ext: { tenant: "agency-7" },
    });
  });
});
