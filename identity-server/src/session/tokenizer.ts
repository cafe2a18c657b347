import { randomUUID } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type CryptoKey,
  type JWK,
} from "jose";
import { ConfigError } from "../config/config.ts";
import type { SessionTokenizerConfig } from "../config/tokenizer-config.ts";
import { badRequest } from "../http/errors.ts";
import type { Session } from "./session.ts";

/** The key file generated into the data dir when IDENTITY_SESSION_TOKENIZER_KEY_FILE is unset. */
export const generatedKeyFile = "session-tokenizer.jwk.json";

// Members of a JWK that are secret; the public JWKS never carries them.
const privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k", "priv"];

interface SigningKey {
  key: CryptoKey | Uint8Array;
  alg: string;
  kid: string;
  /** The public half (undefined for symmetric keys, which have none). */
  publicJwk: JWK | undefined;
}

function keyFileError(message: string): ConfigError {
  return new ConfigError(
    `Invalid identity server configuration: IDENTITY_SESSION_TOKENIZER_KEY_FILE: ${message}`,
  );
}

function privateJwkOf(json: unknown): JWK | undefined {
  if (json === null || typeof json !== "object") return undefined;
  const keys = (json as { keys?: unknown }).keys;
  const candidates = Array.isArray(keys) ? keys : [json];
  return candidates.find(
    (k): k is JWK => k !== null && typeof k === "object" && ("d" in k || (k as JWK).kty === "oct"),
  );
}

async function importSigningKey(jwk: JWK): Promise<SigningKey> {
  // Kratos signs with the key's own `alg` and refuses a key without one.
  if (typeof jwk.alg !== "string" || jwk.alg === "") {
    throw new Error('the JSON Web Key must include a valid "alg" parameter');
  }
  const key = await importJWK(jwk, jwk.alg);
  const kid = jwk.kid ?? (await calculateJwkThumbprint(jwk));
  const publicJwk =
    jwk.kty === "oct"
      ? undefined
      : Object.fromEntries(Object.entries(jwk).filter(([k]) => !privateMembers.includes(k)));
  return { key, alg: jwk.alg, kid, publicJwk: publicJwk && { ...publicJwk, kid, use: "sig" } };
}

async function readKeyFile(file: string): Promise<SigningKey> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw keyFileError(`cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const jwk = privateJwkOf(json);
  if (!jwk) throw keyFileError(`${file} holds no private JSON Web Key`);
  try {
    return await importSigningKey(jwk);
  } catch (error) {
    throw keyFileError(`${file}: ${(error as Error).message}`);
  }
}

/** An ES256 key made on first use and kept in the data dir (mode 0600), like the server secret. */
async function generatedKey(dataDir: string): Promise<SigningKey> {
  const file = path.join(dataDir, generatedKeyFile);
  if (existsSync(file)) return readKeyFile(file);
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), alg: "ES256", use: "sig" };
  jwk.kid = await calculateJwkThumbprint(jwk);
  mkdirSync(dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(jwk), { mode: 0o600 });
  // A link, unlike a rename, fails when another process starting at once placed its key first:
  // then that key is the one, for both.
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readKeyFile(file);
  } finally {
    unlinkSync(temporary);
  }
  return importSigningKey(jwk);
}

/**
 * Kratos' session tokenizer (session/tokenizer.go): `GET /sessions/whoami?tokenize_as=<template>`
 * adds `tokenized`, a JWT signed with the configured key, with the claims jti, iss (the public base
 * URL), exp (now + the template's ttl), sid, nbf, iat and sub (the identity id). No claims mapper.
 */
export class SessionTokenizer {
  private readonly config: SessionTokenizerConfig;
  private readonly issuer: string;
  private readonly signingKey: SigningKey | undefined;

  private constructor(config: SessionTokenizerConfig, issuer: string, key: SigningKey | undefined) {
    this.config = config;
    this.issuer = issuer;
    this.signingKey = key;
  }

  /** Loads (or generates) the key only when templates are configured; a bad key file stops start-up. */
  static async create(
    config: SessionTokenizerConfig,
    issuer: string,
    dataDir: string,
  ): Promise<SessionTokenizer> {
    const used = Object.keys(config.templates).length > 0;
    let key: SigningKey | undefined;
    if (config.keyFile) key = await readKeyFile(config.keyFile);
    else if (used) key = await generatedKey(dataDir);
    return new SessionTokenizer(config, issuer, key);
  }

  /** The public keys, for verifiers (`GET /.well-known/ory/session-tokenizer/jwks.json`). */
  publicJwks(): { keys: JWK[] } {
    const jwk = this.signingKey?.publicJwk;
    return { keys: jwk ? [jwk] : [] };
  }

  /** The session as a JWT of the template; 400 for a template that is not configured. */
  async tokenize(template: string, session: Session, now: Date): Promise<string> {
    const settings = Object.hasOwn(this.config.templates, template)
      ? this.config.templates[template]
      : undefined;
    if (!settings || !this.signingKey) {
      throw badRequest(`Unable to find tokenizer template "${template}".`);
    }
    const seconds = Math.floor(now.getTime() / 1000);
    return new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: this.signingKey.alg, kid: this.signingKey.kid, typ: "JWT" })
      .setJti(randomUUID())
      .setIssuer(this.issuer)
      .setSubject(session.identityId)
      .setIssuedAt(seconds)
      .setNotBefore(seconds)
      .setExpirationTime(seconds + Math.floor(settings.ttlMs / 1000))
      .sign(this.signingKey.key);
  }
}
