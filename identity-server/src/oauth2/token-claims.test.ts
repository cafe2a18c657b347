import { createHash } from "node:crypto";
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
} from "./test-support/portal-role.ts";

// Tokens as Hydra issues them: the consent app's `session.id_token` claims in ID tokens and
// userinfo (Hydra's reserved claims win), `session.access_token` under introspection's `ext`, and
// `at_hash` in every ID token from the token endpoint (fosite handler/openid).

let service: OAuth2TestService;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  const client = await registerClient(service, {
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    scope: "openid offline_access email",
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

/** OIDC Core 3.1.3.6: the left half of the SHA-256 of the access token, base64url. */
function atHash(accessToken: string): string {
  return createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url");
}

const consentSession = {
  id_token: {
    tenant: "agency-7",
    roles: ["reader", "approver"],
    email: "ada@example.com",
    // Reserved: Hydra sets or removes these itself.
    sub: "someone-else",
    iss: "https://evil.example",
    aud: ["other-client"],
    amr: ["forged"],
    acr: "forged",
    nonce: "forged",
    sid: "forged",
    auth_time: 1,
    at_hash: "forged",
  },
  access_token: { tenant: "agency-7", roles: ["reader", "approver"] },
};

describe("claims the consent app sets", () => {
  it("reach the ID token, userinfo and introspection, without overriding Hydra's claims", async () => {
    const { tokens, run } = await signIn(service, service.browser(), rp, {
      scope: "openid offline_access email",
      subject: "user-claims",
      login: { amr: ["password"], acr: "aal1" },
      consent: { session: consentSession },
    });
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      sub: "user-claims",
      iss: service.issuer,
      aud: rp.clientMetadata().client_id,
      tenant: "agency-7",
      roles: ["reader", "approver"],
      email: "ada@example.com",
      amr: ["password"],
      acr: "aal1",
    });
    expect(claims?.nonce).toBeUndefined();
    expect(claims?.sid).not.toBe("forged");
    expect(claims?.auth_time).not.toBe(1);
    expect(claims?.at_hash).toBe(atHash(tokens.access_token));
    expect(run.callback.searchParams.get("code")).toBeTruthy();

    const userinfo = await oidc.fetchUserInfo(rp, tokens.access_token, "user-claims");
    expect(userinfo).toMatchObject({
      sub: "user-claims",
      tenant: "agency-7",
      roles: ["reader", "approver"],
      email: "ada@example.com",
    });
    expect(userinfo).not.toHaveProperty("nonce");
    expect(userinfo).not.toHaveProperty("at_hash");
    expect(userinfo).not.toHaveProperty("sid");
    expect(userinfo.iss).not.toBe("https://evil.example");

    expect(await introspect(service, tokens.access_token)).toMatchObject({
      active: true,
      sub: "user-claims",
      ext: { tenant: "agency-7", roles: ["reader", "approver"] },
    });
  });

  it("stay with the tokens of a refresh, whose ID token has the new access token's at_hash", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, {
      scope: "openid offline_access email",
      subject: "user-refresh-claims",
      consent: { session: consentSession },
    });
    const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token ?? "");
    expect(refreshed.claims()).toMatchObject({
      sub: "user-refresh-claims",
      tenant: "agency-7",
      roles: ["reader", "approver"],
      at_hash: atHash(refreshed.access_token),
    });
    expect(await introspect(service, refreshed.access_token)).toMatchObject({
      active: true,
      ext: { tenant: "agency-7", roles: ["reader", "approver"] },
    });
    const userinfo = await oidc.fetchUserInfo(rp, refreshed.access_token, "user-refresh-claims");
    expect(userinfo).toMatchObject({ tenant: "agency-7" });
  });
});

describe("claims named like Object.prototype members", () => {
  // Found in issue 15: a `constructor` claim made oidc-provider's "plain object" checks throw at
  // the token endpoint (500, and the code was spent), and `hasOwnProperty` or `toString` were
  // taken for claims already set and left out of ID tokens. Hydra copies every key.
  const odd = { constructor: "x", hasOwnProperty: "h", toString: "t", valueOf: 1 };

  it("reach the ID token, userinfo and introspection like any other claim", async () => {
    const { tokens } = await signIn(service, service.browser(), rp, {
      scope: "openid offline_access email",
      subject: "user-odd-claims",
      consent: { session: { id_token: { ...odd, tenant: "t" }, access_token: odd } },
    });
    const idToken = JSON.parse(
      Buffer.from(tokens.id_token?.split(".")[1] ?? "", "base64url").toString(),
    ) as Record<string, unknown>;
    expect(idToken).toMatchObject({ ...odd, tenant: "t", sub: "user-odd-claims" });
    expect(idToken.at_hash).toBe(atHash(tokens.access_token));

    const userinfo = await fetch(`${service.issuer}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toMatchObject({ ...odd, tenant: "t", sub: "user-odd-claims" });

    expect(await introspect(service, tokens.access_token)).toMatchObject({
      active: true,
      ext: odd,
    });

    const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token ?? "");
    expect(await introspect(service, refreshed.access_token)).toMatchObject({ ext: odd });
  });
});
