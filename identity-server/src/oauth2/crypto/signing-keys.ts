import { generateKeyPair, type JsonWebKey, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { deriveKey, seal, unseal } from "./derived-keys.ts";
import { randomId } from "./random.ts";

export interface PrivateJwk extends JsonWebKey {
  kid: string;
  alg: string;
  use: "sig";
}

const generatePair = promisify(generateKeyPair);

/** Generated off the main thread: an RSA key takes long enough to stall requests otherwise. */
async function generate(alg: "RS256" | "ES256"): Promise<PrivateJwk> {
  const { privateKey } = (
    alg === "RS256"
      ? await generatePair("rsa", { modulusLength: 2048 })
      : await generatePair("ec", { namedCurve: "P-256" })
  ) as { privateKey: KeyObject };
  return { ...privateKey.export({ format: "jwk" }), kid: randomId(12), alg, use: "sig" };
}

/**
 * The provider's signing keys: RS256 first (the default ID token algorithm, as in Hydra), then
 * ES256. Generated once and kept sealed in the database, so tokens stay verifiable across
 * restarts. They are sealed with a key derived from the server secret: a changed secret is a
 * start-up error rather than a silent key change.
 */
export async function loadOrCreateSigningKeys(
  db: OAuth2Db,
  secret: string,
  now: () => Date,
): Promise<PrivateJwk[]> {
  const key = deriveKey(secret, "signing keys");
  const rows = await db.selectFrom("oauth2_signing_keys").selectAll().orderBy("position").execute();
  if (rows.length > 0) {
    try {
      return rows.map((row) => JSON.parse(unseal(key, row.sealed_jwk)) as PrivateJwk);
    } catch {
      throw new Error(
        "The OAuth2 signing keys cannot be opened: IDENTITY_SECRET differs from the one they were stored with.",
      );
    }
  }
  const keys = await Promise.all([generate("RS256"), generate("ES256")]);
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
