import { dictionary } from "@zxcvbn-ts/language-common";

// The MIT-licensed common-password dictionary stands in for Have I Been Pwned, which Kratos asks
// over the network; this server must work offline. Loaded once into a Set.
const commonPasswords = new Set(dictionary["passwords-common"].map((p) => p.toLowerCase()));

/** Whether the password (case-insensitively) is on the offline list of breached/common passwords. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}
