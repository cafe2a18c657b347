import { generateKeyPairSync } from "node:crypto";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import type * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import { redirectUri, registerClient, relyingParty, signIn } from "./test-support/portal-role.ts";

// OIDC signing-key rotation through Hydra's JSON Web Key admin API (jwk/handler.go) on the admin
// listener: every answer is checked against the Hydra OpenAPI spec by `service.admin`.

const set = "/admin/keys/hydra.openid.id-token";
const privateMembers = ["d", "p", "q", "dp", "dq", "qi"];

type Jwk = Record<string, unknown> & { kid: string; alg: string };

let service: OAuth2TestService;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  const client = await registerClient(service, {
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code"],
    scope: "openid",
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

async function listed(): Promise<Jwk[]> {
  const answer = await service.admin("GET", set);
  expect(answer.status).toBe(200);
  return (answer.body as { keys: Jwk[] }).keys;
}

async function publicJwks(): Promise<JSONWebKeySet> {
  return (await (await fetch(`${service.issuer}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
}

async function idToken(): Promise<string> {
  const { tokens } = await signIn(service, service.browser(), rp, { scope: "openid" });
  return String(tokens.id_token);
}

async function verifies(token: string): Promise<boolean> {
  try {
    await jwtVerify(token, createLocalJWKSet(await publicJwks()));
    return true;
  } catch {
    return false;
  }
}

function withoutPrivateParts(keys: Jwk[]): void {
  for (const key of keys)
    for (const member of privateMembers) expect(key).not.toHaveProperty(member);
}

describe("the ID token signing keys (Hydra's JWK admin API)", () => {
  it("rotate: a new key signs new ID tokens, old tokens verify until their key is deleted", async () => {
    const initial = await listed();
    expect(initial.map((k) => k.alg)).toEqual(["RS256", "ES256"]);
    withoutPrivateParts(initial);
    const oldKid = String(initial[0]?.kid);
    const oldToken = await idToken();
    expect(decodeProtectedHeader(oldToken).kid).toBe(oldKid);

    const created = await service.admin("POST", set, {
      json: { alg: "RS256", kid: "rotated-1", use: "sig" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`${service.issuer}/keys/hydra.openid.id-token`);
    const createdKeys = (created.body as { keys: Jwk[] }).keys;
    expect(createdKeys).toEqual([
      expect.objectContaining({ kid: "rotated-1", alg: "RS256", use: "sig", kty: "RSA" }),
    ]);
    withoutPrivateParts(createdKeys);
    expect((await listed()).map((k) => k.kid)).toEqual(["rotated-1", ...initial.map((k) => k.kid)]);
    const one = await service.admin("GET", `${set}/rotated-1`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ keys: createdKeys });

    const published = (await publicJwks()).keys.map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining(["rotated-1", oldKid]));
    const newToken = await idToken();
    expect(decodeProtectedHeader(newToken).kid).toBe("rotated-1");
    expect(await verifies(newToken)).toBe(true);
    expect(await verifies(oldToken)).toBe(true);

    const deleted = await service.admin("DELETE", `${set}/${oldKid}`);
    expect(deleted.status).toBe(204);
    expect((await publicJwks()).keys.map((k) => k.kid)).not.toContain(oldKid);
    expect(await verifies(oldToken)).toBe(false);
    expect(await verifies(newToken)).toBe(true);

    // Stored: after a restart the newest key still signs.
    service = await service.restart();
    expect((await listed()).map((k) => k.kid)).toEqual(["rotated-1", String(initial[1]?.kid)]);
    expect(decodeProtectedHeader(await idToken()).kid).toBe("rotated-1");
  });

  it("answers bad requests in Hydra's error shape", async () => {
    const unsupported = await service.admin("POST", set, { json: { alg: "HS256", use: "sig" } });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toMatchObject({ error: "Bad Request" });
    const encryption = await service.admin("POST", set, { json: { alg: "RS256", use: "enc" } });
    expect(encryption.status).toBe(400);
    const malformed = await fetch(`${service.adminUrl}${set}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      error_description: expect.stringContaining("Unable to decode the request body") as unknown,
    });

    const [newest] = await listed();
    const again = await service.admin("POST", set, {
      json: { alg: "ES256", kid: String(newest?.kid), use: "sig" },
    });
    expect(again.status).toBe(409);

    expect((await service.admin("GET", "/admin/keys/hydra.jwt.access-token")).status).toBe(404);
    expect((await service.admin("GET", `${set}/no-such-key`)).status).toBe(404);
    expect((await service.admin("DELETE", `${set}/no-such-key`)).status).toBe(404);
    // Importing keys and dropping the whole set are not offered (README).
    expect((await service.admin("PUT", set, { json: { keys: [] } })).status).toBe(404);
    expect((await service.admin("DELETE", set)).status).toBe(404);

    // ID tokens are RS256 unless a client asks otherwise: the last RS256 key stays.
    const rs256 = (await listed()).filter((k) => k.alg === "RS256");
    expect(rs256).toHaveLength(1);
    const last = await service.admin("DELETE", `${set}/${String(rs256[0]?.kid)}`);
    expect(last.status).toBe(400);
    expect((await listed()).map((k) => k.kid)).toContain(rs256[0]?.kid);

    // An ES512 key is generated as asked (kid: a fresh id when none is given).
    const es512 = await service.admin("POST", set, { json: { alg: "ES512" } });
    expect(es512.status).toBe(201);
    expect((es512.body as { keys: Jwk[] }).keys[0]).toMatchObject({
      alg: "ES512",
      crv: "P-521",
      use: "sig",
    });
    expect((await publicJwks()).keys.map((k) => k.alg)).toContain("ES512");
  });

  it("imports a key the operator brings (PUT …/{kid}), which then signs, and shows its public half", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = privateKey.export({ format: "jwk" });
    const imported = await service.admin("PUT", `${set}/imported-1`, {
      json: { ...jwk, alg: "RS256", use: "sig" },
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({
      ...publicKey.export({ format: "jwk" }),
      kid: "imported-1",
      alg: "RS256",
      use: "sig",
    });
    expect((await listed())[0]?.kid).toBe("imported-1");
    const token = await idToken();
    expect(decodeProtectedHeader(token).kid).toBe("imported-1");
    const own = createLocalJWKSet({
      keys: [{ ...publicKey.export({ format: "jwk" }), kid: "imported-1", alg: "RS256" }],
    });
    await expect(jwtVerify(token, own)).resolves.toBeDefined();

    const publicOnly = await service.admin("PUT", `${set}/imported-2`, {
      json: { ...publicKey.export({ format: "jwk" }), alg: "RS256", use: "sig" },
    });
    expect(publicOnly.status).toBe(400);
    const otherKid = await service.admin("PUT", `${set}/imported-3`, {
      json: { ...jwk, kid: "not-3", alg: "RS256", use: "sig" },
    });
    expect(otherKid.status).toBe(400);
    const wrongCurve = await service.admin("PUT", `${set}/imported-4`, {
      json: { ...jwk, alg: "ES256", use: "sig" },
    });
    expect(wrongCurve.status).toBe(400);
  });

  it("refuses a key whose private and public members come from two keys, and kids with markup", async () => {
    const rsa = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const [a, b] = [rsa().export({ format: "jwk" }), rsa().export({ format: "jwk" })];
    // B's private members with A's public ones: tokens it signed would not verify with the JWKS.
    const mixed = await service.admin("PUT", `${set}/mixed`, {
      json: { ...b, n: a.n, e: a.e, alg: "RS256", use: "sig" },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({
      error_description: expect.stringContaining("do not belong together") as unknown,
    });
    const ec = (curve: string) =>
      generateKeyPairSync("ec", { namedCurve: curve }).privateKey.export({ format: "jwk" });
    const [p, q] = [ec("prime256v1"), ec("prime256v1")];
    const mixedEc = await service.admin("PUT", `${set}/mixed-ec`, {
      json: { ...p, x: q.x, y: q.y, alg: "ES256", use: "sig" },
    });
    expect(mixedEc.status).toBe(400);
    expect((await listed()).map((k) => k.kid)).not.toContain("mixed");

    const markup = await service.admin("POST", set, {
      json: { alg: "ES256", kid: "<script>", use: "sig" },
    });
    expect(markup.status).toBe(400);
    const control = await service.admin("PUT", `${set}/a%00b`, {
      json: { ...p, alg: "ES256", use: "sig" },
    });
    expect(control.status).toBe(400);
  });
});
