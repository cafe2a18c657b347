import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  introspect,
  registerClient,
  relyingParty,
  tokenRequest,
  type RegisteredClient,
} from "./test-support/portal-role.ts";

const grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const trustPath = "/admin/trust/grants/jwt-bearer/issuers";
const idp = "https://jwt-idp.example.com";

let service: OAuth2TestService;
let client: RegisteredClient;
let signingKey: CryptoKey;
let publicJwk: JWK;

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = await registerClient(service, {
    grant_types: [grantType],
    scope: "api:read api:write",
  });
  const pair = await generateKeyPair("ES256");
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "idp-key-1", alg: "ES256" };
});

afterAll(() => service.stop());

function assertion(
  claims: Record<string, unknown>,
  kid = "idp-key-1",
  key = signingKey,
  clockOffsetMs = 0,
) {
  const now = Math.floor((Date.now() + clockOffsetMs) / 1000);
  return new SignJWT({ jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: "ES256", kid })
    .setIssuer(idp)
    .setAudience(`${service.issuer}/oauth2/token`)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(key);
}

function exchange(token: string, scope?: string) {
  return tokenRequest(
    service,
    { grant_type: grantType, assertion: token, ...(scope ? { scope } : {}) },
    { id: client.client_id, secret: client.client_secret ?? "" },
  );
}

async function trust(body: Record<string, unknown>) {
  return service.admin("POST", trustPath, { json: body });
}

describe("trusted jwt-bearer issuers (admin API)", () => {
  it("are created, read, listed and deleted in Hydra's shape", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await trust({
      issuer: "https://other-idp.example.com",
      subject: "alice",
      scope: ["api:read"],
      jwk: publicJwk,
      expires_at: expiresAt,
    });
    expect(created.status).toBe(201);
    const issuer = created.body as { id: string };
    expect(created.body).toMatchObject({
      issuer: "https://other-idp.example.com",
      subject: "alice",
      allow_any_subject: false,
      scope: ["api:read"],
      public_key: { set: "https://other-idp.example.com", kid: "idp-key-1" },
    });

    const read = await service.admin("GET", `${trustPath}/${issuer.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const list = await service.admin("GET", `${trustPath}?issuer=https://other-idp.example.com`);
    expect(list.body).toEqual([created.body]);

    const duplicate = await trust({
      issuer: "https://other-idp.example.com",
      subject: "alice",
      scope: [],
      jwk: publicJwk,
      expires_at: expiresAt,
    });
    expect(duplicate.status).toBe(409);

    expect((await service.admin("DELETE", `${trustPath}/${issuer.id}`)).status).toBe(204);
    expect((await service.admin("GET", `${trustPath}/${issuer.id}`)).status).toBe(404);
    expect((await service.admin("DELETE", `${trustPath}/${issuer.id}`)).status).toBe(404);
    expect((await service.admin("GET", `${trustPath}/not-a-uuid`)).status).toBe(400);
  });

  it("are validated as Hydra validates them", async () => {
    const expires_at = new Date(Date.now() + 3_600_000).toISOString();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ subject: "a", jwk: publicJwk, expires_at, scope: [] }, /'issuer' is required/],
      [{ issuer: idp, jwk: publicJwk, expires_at, scope: [] }, /'subject' or 'allow_any_subject'/],
      [
        {
          issuer: idp,
          subject: "a",
          allow_any_subject: true,
          jwk: publicJwk,
          expires_at,
          scope: [],
        },
        /cannot be set at the same time/,
      ],
      [{ issuer: idp, subject: "a", jwk: publicJwk, scope: [] }, /'expires_at' is required/],
      [
        { issuer: idp, subject: "a", jwk: { ...publicJwk, kid: undefined }, expires_at, scope: [] },
        /JWK with kid/,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await trust(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: "missing_required_parameter" });
      expect((answer.body as { error_description: string }).error_description).toMatch(message);
    }
  });
});

describe("the jwt-bearer grant", () => {
  beforeAll(async () => {
    const answer = await trust({
      issuer: idp,
      subject: "service-user",
      scope: ["api:read"],
      jwk: publicJwk,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(answer.status).toBe(201);
  });

  it("issues an access token for the assertion's subject", async () => {
    const rp = await relyingParty(service, client);
    const tokens = await oidc.genericGrantRequest(rp, grantType, {
      assertion: await assertion({ sub: "service-user" }),
      scope: "api:read",
    });
    expect(tokens.scope).toBe("api:read");
    expect(tokens.refresh_token).toBeUndefined();
    expect(await introspect(service, tokens.access_token)).toMatchObject({
      active: true,
      sub: "service-user",
      client_id: client.client_id,
      scope: "api:read",
    });
  });

  it("refuses a replayed jti", async () => {
    const token = await assertion({ sub: "service-user" });
    expect((await exchange(token, "api:read")).status).toBe(200);
    const replay = await exchange(token, "api:read");
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect(replay.body.error_description).toMatch(/jti/);
  });

  it("refuses assertions that do not match a trust relationship", async () => {
    const other = await generateKeyPair("ES256");
    const refused = [
      await assertion({ sub: "someone-else" }),
      await assertion({ sub: "service-user" }, "unknown-key"),
      await assertion({ sub: "service-user" }, "idp-key-1", other.privateKey),
      await new SignJWT({ jti: randomUUID(), sub: "service-user" })
        .setProtectedHeader({ alg: "ES256", kid: "idp-key-1" })
        .setIssuer(idp)
        .setAudience("https://somewhere-else.example.com/token")
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(signingKey),
      await new SignJWT({ sub: "service-user" })
        .setProtectedHeader({ alg: "ES256", kid: "idp-key-1" })
        .setIssuer(idp)
        .setAudience(`${service.issuer}/oauth2/token`)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(signingKey),
    ];
    for (const token of refused) {
      const answer = await exchange(token);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("invalid_grant");
    }
  });

  it("grants only scopes the trust relationship and the client allow", async () => {
    const answer = await exchange(await assertion({ sub: "service-user" }), "api:write");
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_scope");
  });

  it("accepts any subject when the issuer is trusted for any", async () => {
    const key = await generateKeyPair("ES256");
    await trust({
      issuer: idp,
      allow_any_subject: true,
      scope: ["api:read"],
      jwk: { ...(await exportJWK(key.publicKey)), kid: "any-subject-key", alg: "ES256" },
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const answer = await exchange(
      await assertion({ sub: "whoever" }, "any-subject-key", key.privateKey),
      "api:read",
    );
    expect(answer.status).toBe(200);
    expect(await introspect(service, String(answer.body.access_token))).toMatchObject({
      sub: "whoever",
    });
  });

  it("stops once the trust relationship expires", async () => {
    service.advanceClock(2 * 3_600_000);
    try {
      const later = await assertion(
        { sub: "service-user" },
        "idp-key-1",
        signingKey,
        2 * 3_600_000,
      );
      const answer = await exchange(later, "api:read");
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("invalid_grant");
      expect(answer.body.error_description).toMatch(/No public JWK/);
    } finally {
      service.advanceClock(-2 * 3_600_000);
    }
  });
});
