import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

// A refresh is checked against the client as fosite's refresh handler checks it
// (handler/oauth2/flow_refresh.go): the granted audience must be whitelisted for the client and
// every granted scope must still be one of its scopes. Hydra does not check the audience a
// consent grants at the authorization or code steps, so neither do we. Found in issue 15: a
// consent's `grant_access_token_audience` outside the client's `audience` was kept on refresh.

let service: OAuth2TestService;
let client: RegisteredClient;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = await registerClient(service, {
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    scope: "openid offline_access email",
    audience: ["https://api.a/v1"],
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

function refresh(refreshToken: string, extra: Record<string, string> = {}) {
  return tokenRequest(
    service,
    { grant_type: "refresh_token", refresh_token: refreshToken, ...extra },
    { id: client.client_id, secret: client.client_secret ?? "" },
  );
}

describe("a refresh", () => {
  it("is refused while the consent granted an audience the client is not allowed", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, {
      subject: "user-evil-audience",
      consent: { grant_access_token_audience: ["https://api.a/v1", "https://evil.example"] },
    });
    // As in Hydra, the code exchange issues what the consent app granted.
    expect(await introspect(service, tokens.access_token)).toMatchObject({
      active: true,
      aud: ["https://api.a/v1", "https://evil.example"],
    });

    const refused = await refresh(tokens.refresh_token ?? "");
    expect(refused).toEqual({
      status: 400,
      body: {
        error: "invalid_request",
        error_description:
          "Requested audience 'https://evil.example' has not been whitelisted by the OAuth 2.0 Client.",
      },
    });
    // Nothing was rotated: the same refresh token is refused for the same reason, not as reused.
    expect((await refresh(tokens.refresh_token ?? "")).body.error).toBe("invalid_request");
    expect(await introspect(service, tokens.access_token)).toMatchObject({ active: true });
  });

  it("keeps an audience below a whitelisted one", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, {
      subject: "user-sub-audience",
      consent: { grant_access_token_audience: ["https://api.a/v1/users"] },
    });
    const refreshed = await refresh(tokens.refresh_token ?? "");
    expect(refreshed.status).toBe(200);
    expect(await introspect(service, String(refreshed.body.access_token))).toMatchObject({
      active: true,
      aud: ["https://api.a/v1/users"],
    });
  });

  it("is refused once a granted scope is no longer one of the client's", async () => {
    const narrowed = await registerClient(service, {
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      scope: "openid offline_access email",
    });
    const narrowedRp = await relyingParty(service, narrowed);
    const { tokens } = await signIn(service, service.browser(), narrowedRp, {
      scope: "openid offline_access email",
      subject: "user-narrowed",
    });
    const patched = await service.admin("PATCH", `/admin/clients/${narrowed.client_id}`, {
      json: [{ op: "replace", path: "/scope", value: "openid offline_access" }],
    });
    expect(patched.status).toBe(200);
    const refused = await tokenRequest(
      service,
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token ?? "" },
      { id: narrowed.client_id, secret: narrowed.client_secret ?? "" },
    );
    expect(refused).toEqual({
      status: 400,
      body: {
        error: "invalid_scope",
        error_description: "The OAuth 2.0 Client is not allowed to request scope 'email'.",
      },
    });
  });

  it("asking for more scopes than were granted answers invalid_scope without extra fields", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, {
      scope: "openid offline_access",
      subject: "user-widen",
    });
    const refused = await refresh(tokens.refresh_token ?? "", {
      scope: "openid offline_access email",
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body).sort()).toEqual(["error", "error_description"]);
    expect(refused.body.error).toBe("invalid_scope");
  });
});
