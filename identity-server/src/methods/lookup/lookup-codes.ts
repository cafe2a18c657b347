import { randomInt } from "node:crypto";
import type { StoredLookupCode } from "../../identity/second-factors.ts";
import { hmacCode, sameHmac } from "../code/one-time-code.ts";

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

/** The stored entry the typed code belongs to, if any. */
export function findLookupCode(
  secret: string,
  codes: readonly StoredLookupCode[],
  typed: string,
): StoredLookupCode | undefined {
  const hash = hashLookupCode(secret, typed);
  return codes.find((stored) => sameHmac(stored.code, hash));
}
