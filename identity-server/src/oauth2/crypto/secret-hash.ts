import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// Client secrets are stored only as scrypt hashes (Hydra stores them hashed too, so a database
// leak does not leak working client credentials). Format: scrypt$N$r$p$<salt>$<hash>, base64url.

const cost = { N: 16_384, r: 8, p: 1 };
const keyLength = 32;

function derive(secret: string, salt: Buffer, params: typeof cost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, keyLength, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, cost);
  return [
    "scrypt",
    cost.N,
    cost.r,
    cost.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** True when `secret` matches `hash`; malformed hashes never match. */
export async function verifySecret(secret: string, hash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = hash.split("$");
  if (scheme !== "scrypt" || !salt || !expected) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((value) => Number.isInteger(value) && value > 0)) {
    return false;
  }
  const key = await derive(secret, Buffer.from(salt, "base64url"), params);
  const wanted = Buffer.from(expected, "base64url");
  return wanted.length === key.length && timingSafeEqual(wanted, key);
}
