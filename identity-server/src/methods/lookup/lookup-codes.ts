import { randomInt } from "node:crypto";
import { credentialOf, type Identity } from "../../identity/identity.ts";
import { hmacCode, sameHmac } from "../code/one-time-code.ts";

/** One backup code as stored: its HMAC (never the code itself) and when it was used. */
export interface StoredLookupCode {
  code: string;
  used_at: string | null;
}

export function lookupCodesOf(identity: Identity): StoredLookupCode[] {
  const codes = credentialOf(identity, "lookup_secret")?.config.recovery_codes;
  if (!Array.isArray(codes)) return [];
  return codes.filter(
    (c): c is StoredLookupCode =>
      typeof c === "object" && c !== null && typeof (c as StoredLookupCode).code === "string",
  );
}

/** Kratos' lookup strategy: 12 codes of 8 lowercase letters and digits. */
export const lookupCodeCount = 12;
const codeLength = 8;
const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

export function generateLookupCodes(): string[] {
  return Array.from({ length: lookupCodeCount }, () => {
    let code = "";
    for (let i = 0; i < codeLength; i++) code += alphabet[randomInt(alphabet.length)];
    return code;
  });
}

/** Codes are kept only as an HMAC under the server secret, like every other one-time secret. */
export function hashLookupCode(secret: string, code: string): string {
  return hmacCode(secret, `lookup_secret:${code.trim().toLowerCase()}`);
}

/**
 * The stored entry the typed code belongs to, if any. Codes made before a secret rotation are
 * HMACs under an older secret, so each of `secrets` is tried.
 */
export function findLookupCode(
  secrets: readonly string[],
  codes: readonly StoredLookupCode[],
  typed: string,
): StoredLookupCode | undefined {
  const hashes = secrets.map((secret) => hashLookupCode(secret, typed));
  return codes.find((stored) => hashes.some((hash) => sameHmac(stored.code, hash)));
}
