import { hash, verify } from "@node-rs/argon2";

// A fixed hash to verify against when the identifier is unknown, so a login attempt for a missing
// account costs the same argon2 time as one with a wrong password and timing reveals nothing.
let dummyHash: Promise<string> | undefined;

/** argon2id with the library defaults (m=19456 KiB, t=2, p=1); `algorithm` is omitted on purpose. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export function isArgon2Hash(value: string): boolean {
  return /^\$argon2(id|i|d)\$/.test(value);
}

/** Verifies in constant time (inside argon2); a malformed stored hash simply does not match. */
export async function verifyPassword(password: string, hashed: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

export async function spendDummyVerification(password: string): Promise<void> {
  dummyHash ??= hash("not-a-real-password-used-only-for-timing");
  await verifyPassword(password, await dummyHash);
}
