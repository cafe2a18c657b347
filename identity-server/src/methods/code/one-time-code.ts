import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

/** Kratos' CodeLength: six decimal digits. */
export const codeLength = 6;

/** A uniformly random code from the CSPRNG, zero-padded ("004711" is as likely as "815000"). */
export function generateCode(): string {
  return randomInt(0, 10 ** codeLength)
    .toString()
    .padStart(codeLength, "0");
}

/** Codes are stored only as an HMAC under the server secret, never in the clear. */
export function hmacCode(secret: string, code: string): string {
  return createHmac("sha256", secret).update(code).digest("hex");
}

export function sameHmac(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
