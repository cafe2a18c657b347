import { createHmac, randomBytes } from "node:crypto";

// Verifying a client secret costs one scrypt (N=16384, about 16 MiB and tens of milliseconds), on
// every token, introspection-by-client or revocation request of a confidential client. A
// successful verification is remembered so that a client presenting the same secret again is not
// re-hashed, until a few minutes after it was last presented: a client that keeps calling keeps its
// entry (sliding), so guessers using up the client's budget of hashed checks
// (clients/client-auth-limits.ts) cannot stop it. An idle entry expires because it is a
// fast-to-test fingerprint of the secret (an HMAC, not a scrypt), kept no longer than it is used.
// Nothing stored here reveals the secret: the key of an entry is an HMAC, under a random key that
// exists only in this process's memory, of the client id, the stored hash the secret matched and
// the presented secret. Failed verifications are never remembered, so guessing a secret costs a
// full scrypt per guess as before.

/** How long a successful verification is remembered after the secret was last presented. */
export const verifiedSecretTtlMs = 5 * 60_000;
/** At most this many remembered verifications; the least recently used goes first. */
export const verifiedSecretMaxEntries = 1000;

const hmacKey = randomBytes(32);
const remembered = new Map<string, { clientId: string; expiresAt: number }>();

function fingerprint(clientId: string, hash: string, secret: string): string {
  // JSON keeps the three parts apart whatever characters they contain.
  return createHmac("sha256", hmacKey)
    .update(JSON.stringify([clientId, hash, secret]))
    .digest("base64url");
}

/**
 * Whether `secret` was verified against `hash` for this client and presented within the last few
 * minutes; a hit renews the entry and makes it the most recently used.
 */
export function wasVerified(clientId: string, hash: string, secret: string, now: number): boolean {
  const key = fingerprint(clientId, hash, secret);
  const entry = remembered.get(key);
  if (!entry) return false;
  remembered.delete(key);
  if (entry.expiresAt <= now) return false;
  remembered.set(key, { clientId: entry.clientId, expiresAt: now + verifiedSecretTtlMs });
  return true;
}

/** Remembers that `secret` matched `hash` for this client. */
export function rememberVerified(
  clientId: string,
  hash: string,
  secret: string,
  now: number,
): void {
  const key = fingerprint(clientId, hash, secret);
  remembered.delete(key);
  while (remembered.size >= verifiedSecretMaxEntries) {
    const oldest = remembered.keys().next();
    if (oldest.done) break;
    remembered.delete(oldest.value);
  }
  remembered.set(key, { clientId, expiresAt: now + verifiedSecretTtlMs });
}

/** Drops every remembered verification of the client (it was created, changed or deleted). */
export function forgetVerifiedSecrets(clientId: string): void {
  for (const [key, entry] of remembered) {
    if (entry.clientId === clientId) remembered.delete(key);
  }
}

/** How many verifications are remembered (for tests). */
export function verifiedSecretCount(): number {
  return remembered.size;
}
