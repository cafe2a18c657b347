import { generateKeyPair, type JsonWebKey, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import type { Logger } from "pino";
import type { Transaction } from "kysely";
import type { OAuth2Db, OAuth2Tables } from "../store/oauth2-tables.ts";
import { deriveKey, seal, unseal } from "./derived-keys.ts";
import { randomId } from "./random.ts";
import { withWriteLock } from "../../store/write-lock.ts";

export interface PrivateJwk extends JsonWebKey {
  kid: string;
  alg: string;
  use: "sig";
}

const generatePair = promisify(generateKeyPair);

/** The signing algorithms a key can be generated for (Hydra's asymmetric ones). */
export const generatedAlgorithms = ["RS256", "ES256", "ES512"] as const;
export type GeneratedAlgorithm = (typeof generatedAlgorithms)[number];

/** Generated off the main thread: an RSA key takes long enough to stall requests otherwise. */
export async function generateSigningKey(
  alg: GeneratedAlgorithm,
  kid: string = randomId(12),
): Promise<PrivateJwk> {
  const { privateKey } = (
    alg === "RS256"
      ? await generatePair("rsa", { modulusLength: 2048 })
      : await generatePair("ec", { namedCurve: alg === "ES256" ? "P-256" : "P-521" })
  ) as { privateKey: KeyObject };
  return { ...privateKey.export({ format: "jwk" }), kid, alg, use: "sig" };
}

/**
 * Stores a new key sealed with the first secret, ahead of every other key: oidc-provider signs with
 * the first key of an algorithm, so the newest key signs new ID tokens while older ones still
 * verify what they signed.
 */
export async function insertSigningKey(
  db: OAuth2Db | Transaction<OAuth2Tables>,
  secret: string,
  jwk: PrivateJwk,
  now: Date,
): Promise<void> {
  const first = await db
    .selectFrom("oauth2_signing_keys")
    .select((eb) => eb.fn.min("position").as("position"))
    .executeTakeFirst();
  await db
    .insertInto("oauth2_signing_keys")
    .values({
      kid: jwk.kid,
      alg: jwk.alg,
      sealed_jwk: seal(sealingKeyOf(secret), JSON.stringify(jwk)),
      position: Number(first?.position ?? 0) - 1,
      created_at: now.toISOString(),
    })
    .execute();
}

/** Removes one key; false when there was none with that id. */
export async function deleteSigningKey(
  db: OAuth2Db | Transaction<OAuth2Tables>,
  kid: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom("oauth2_signing_keys")
    .where("kid", "=", kid)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The key that seals signing keys, derived from one server secret. */
function sealingKeyOf(secret: string): Buffer {
  return deriveKey(secret, "signing keys");
}

/** The row opened with the first of `keys` that fits, and that key's position; undefined: none. */
function openWithAny(
  keys: readonly Buffer[],
  sealed: string,
): { jwk: PrivateJwk; by: number } | undefined {
  for (const [by, key] of keys.entries()) {
    try {
      return { jwk: JSON.parse(unseal(key, sealed)) as PrivateJwk, by };
    } catch {
      // Sealed under another secret (or damaged): try the next one.
    }
  }
  return undefined;
}

/**
 * The provider's signing keys: RS256 first (the default ID token algorithm, as in Hydra), then
 * ES256. Generated once and kept sealed in the database, so tokens stay verifiable across
 * restarts. They are sealed with a key derived from the first server secret and opened with any
 * of them; a key opened with an older secret is sealed again with the first, so the older secret
 * can be dropped at the next start. None of the secrets opening them is a start-up error rather
 * than a silent key change.
 */
export async function loadOrCreateSigningKeys(
  db: OAuth2Db,
  secrets: readonly [string, ...string[]],
  now: () => Date,
  logger?: Logger,
): Promise<PrivateJwk[]> {
  // Under the write lock: two processes starting on a new data dir must end with one key set.
  return withWriteLock(db, (locked) => loadOrCreate(locked, secrets, now, logger));
}

async function loadOrCreate(
  db: OAuth2Db,
  secrets: readonly [string, ...string[]],
  now: () => Date,
  logger?: Logger,
): Promise<PrivateJwk[]> {
  const sealingKeys = secrets.map(sealingKeyOf);
  const key = sealingKeys[0] as Buffer;
  const rows = await db.selectFrom("oauth2_signing_keys").selectAll().orderBy("position").execute();
  if (rows.length > 0) {
    const opened = rows.map((row) => ({ row, opened: openWithAny(sealingKeys, row.sealed_jwk) }));
    if (opened.some((entry) => entry.opened === undefined)) {
      throw new Error(
        "The OAuth2 signing keys cannot be opened: none of IDENTITY_SECRETS is the secret they were stored with (keep the old secret in the list, after the new one).",
      );
    }
    const resealed = opened.filter((entry) => entry.opened && entry.opened.by > 0);
    for (const { row, opened: entry } of resealed) {
      await db
        .updateTable("oauth2_signing_keys")
        .set({ sealed_jwk: seal(key, JSON.stringify(entry?.jwk)) })
        .where("kid", "=", row.kid)
        .execute();
    }
    if (resealed.length > 0) {
      logger?.info(
        { keys: resealed.length },
        "OAuth2 signing keys opened with an older secret were sealed again with the first one.",
      );
    }
    return opened.map((entry) => entry.opened?.jwk as PrivateJwk);
  }
  const keys = await Promise.all([generateSigningKey("RS256"), generateSigningKey("ES256")]);
  await db
    .insertInto("oauth2_signing_keys")
    .values(
      keys.map((jwk, position) => ({
        kid: jwk.kid,
        alg: jwk.alg,
        sealed_jwk: seal(key, JSON.stringify(jwk)),
        position,
        created_at: now().toISOString(),
      })),
    )
    .execute();
  return keys;
}
