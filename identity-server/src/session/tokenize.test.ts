import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type JSONWebKeySet,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../config/config.ts";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { generatedKeyFile } from "./tokenizer.ts";

const templates = JSON.stringify({ short: { ttl: "10m" }, "default-ttl": {} });

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_SESSION_TOKENIZER_TEMPLATES: templates });
});
afterAll(async () => {
  await ts.stop();
});

async function jwks(server: TestServer): Promise<JSONWebKeySet> {
  const response = await fetch(`${server.publicUrl}/.well-known/ory/session-tokenizer/jwks.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as JSONWebKeySet;
}

describe("GET /sessions/whoami?tokenize_as=", () => {
  it("adds the session as a JWT signed with the generated key, verifiable with the public JWKS", async () => {
    const { token, identityId } = await registerNative(ts, "tokenized@example.com");
    const session = await ts.native().toSession({ xSessionToken: token, tokenizeAs: "short" });
    expect(typeof session.tokenized).toBe("string");
    const keys = await jwks(ts);
    expect(keys.keys).toHaveLength(1);
    // Nothing private is published.
    expect(keys.keys[0]).not.toHaveProperty("d");
    expect(keys.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });

    const { payload, protectedHeader } = await jwtVerify(
      session.tokenized ?? "",
      createLocalJWKSet(keys),
      { issuer: "http://localhost:3000/api/kratos" },
    );
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "JWT", kid: keys.keys[0]?.kid });
    expect(payload.sub).toBe(identityId);
    expect(payload.sid).toBe(session.id);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload.nbf).toBe(payload.iat);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);

    const other = await ts.native().toSession({ xSessionToken: token, tokenizeAs: "default-ttl" });
    const otherPayload = (await jwtVerify(other.tokenized ?? "", createLocalJWKSet(keys))).payload;
    expect((otherPayload.exp ?? 0) - (otherPayload.iat ?? 0)).toBe(60);
    expect(otherPayload.jti).not.toBe(payload.jti);

    const plain = await ts.native().toSession({ xSessionToken: token });
    expect(plain.tokenized).toBeUndefined();
  });

  it("answers 400 for a template that is not configured, 401 without a session", async () => {
    const { token } = await registerNative(ts, "tokenize-errors@example.com");
    const unknown = await call(`${ts.publicUrl}/sessions/whoami?tokenize_as=nope`, {
      headers: { "x-session-token": token },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      error: {
        code: 400,
        status: "Bad Request",
        reason: 'Unable to find tokenizer template "nope".',
        message: "The request was malformed or contained invalid parameters",
      },
    });
    const inherited = await call(`${ts.publicUrl}/sessions/whoami?tokenize_as=constructor`, {
      headers: { "x-session-token": token },
    });
    expect(inherited.status).toBe(400);
    const anonymous = await call(`${ts.publicUrl}/sessions/whoami?tokenize_as=short`);
    expect(anonymous.status).toBe(401);
  });

  it("keeps the generated key in the data dir (mode 0600) across restarts", async () => {
    const file = path.join(ts.dataDir, generatedKeyFile);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const before = await jwks(ts);
    const again = await startTestServer(
      { IDENTITY_SESSION_TOKENIZER_TEMPLATES: templates },
      mkdtempSync(path.join(tmpdir(), "tokenizer-copy-")),
    );
    try {
      // Another data dir: another key.
      expect((await jwks(again)).keys[0]?.kid).not.toBe(before.keys[0]?.kid);
    } finally {
      await again.stop();
      rmSync(again.dataDir, { recursive: true, force: true });
    }
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ kid: before.keys[0]?.kid });
  });

  it("publishes no key when no template is configured", async () => {
    const bare = await startTestServer();
    try {
      expect(await jwks(bare)).toEqual({ keys: [] });
    } finally {
      await bare.stop();
    }
  });
});

describe("IDENTITY_SESSION_TOKENIZER_KEY_FILE", () => {
  it("signs with the configured key and its own alg and kid", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tokenizer-key-"));
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), alg: "RS256", kid: "configured-key" };
    const file = path.join(dir, "key.json");
    writeFileSync(file, JSON.stringify({ keys: [jwk] }));
    const server = await startTestServer({
      IDENTITY_SESSION_TOKENIZER_TEMPLATES: templates,
      IDENTITY_SESSION_TOKENIZER_KEY_FILE: file,
    });
    try {
      const { token } = await registerNative(server, "configured-key@example.com");
      const session = await server
        .native()
        .toSession({ xSessionToken: token, tokenizeAs: "short" });
      expect(decodeProtectedHeader(session.tokenized ?? "")).toMatchObject({
        alg: "RS256",
        kid: "configured-key",
      });
      const keys = await jwks(server);
      expect(keys.keys[0]).not.toHaveProperty("d");
      expect(keys.keys[0]).not.toHaveProperty("p");
      await jwtVerify(session.tokenized ?? "", createLocalJWKSet(keys));
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops the start with an error naming the variable for an unusable key file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tokenizer-bad-key-"));
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const files = {
      missing: path.join(dir, "missing.json"),
      garbled: path.join(dir, "garbled.json"),
      publicOnly: path.join(dir, "public.json"),
      noAlg: path.join(dir, "no-alg.json"),
    };
    writeFileSync(files.garbled, "{not json");
    writeFileSync(
      files.publicOnly,
      JSON.stringify({ ...(await exportJWK(publicKey)), alg: "ES256" }),
    );
    writeFileSync(files.noAlg, JSON.stringify(await exportJWK(privateKey)));
    try {
      for (const file of Object.values(files)) {
        const started = startTestServer(
          {
            IDENTITY_SESSION_TOKENIZER_TEMPLATES: templates,
            IDENTITY_SESSION_TOKENIZER_KEY_FILE: file,
          },
          path.join(dir, "data"),
        );
        await expect(started, file).rejects.toBeInstanceOf(ConfigError);
        await expect(started).rejects.toThrow("IDENTITY_SESSION_TOKENIZER_KEY_FILE");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
