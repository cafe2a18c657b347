import { uiText, type UiText } from "../../text/messages.ts";
import { isBlocklisted } from "./common-passwords.ts";
import { emailContextWords, markContextWords, productContextWords } from "./context-words.ts";
import { normalizedForPolicy, policyForms } from "./policy-forms.ts";
import { unpredictableCount } from "./predictable.ts";

const maxSimilarityCheckLength = 256;
const minIdentifierDistance = 5;
const maxSubstringShare = 0.5;

function levenshtein(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] ?? 0;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[b.length] ?? 0;
}

function longestCommonSubstring(a: string, b: string): number {
  let best = 0;
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        current[j] = (previous[j - 1] ?? 0) + 1;
        if ((current[j] ?? 0) > best) best = current[j] ?? 0;
      }
    }
    previous = current;
  }
  return best;
}

/** What the policy needs besides the password and the identifier. */
export interface PasswordPolicyOptions {
  /** Kratos' `min_password_length`, in bytes (as Kratos counts) and in code points (as NIST does). */
  minLength: number;
  /** The product's own words (its name…), refused as the backbone of a password. */
  productWords?: readonly string[];
}

/**
 * Of a password's characters, at least this many must be neither part of a repetition or
 * sequence, nor of a context word, nor the affixes around a blocklisted base word: half the
 * minimum length ("aaaaaaaaaaaa", "jane.doe12345678", "Password2024!" all fail at 12).
 */
function minUnpredictable(minLength: number): number {
  return Math.ceil(minLength / 2);
}

const plainFor: Record<string, string> = {
  "0": "o",
  "@": "a",
  "4": "a",
  $: "s",
  "5": "s",
  "3": "e",
  "7": "t",
  "+": "t",
  "8": "b",
  "!": "i",
};

/** Undoes the usual character swaps ("p@ssw0rd"); `1` and `|` may stand for i or l. */
function plainSpellings(word: string): string[] {
  const swapped = [...word].map((char) => plainFor[char] ?? char).join("");
  return [...new Set([word, swapped.replace(/[1|]/g, "i"), swapped.replace(/[1|]/g, "l")])];
}

const isLetter = (char: string) => /\p{L}/u.test(char);

/**
 * A blocklisted word dressed up with a few characters around it ("Password2024!", "!!Dragon12"):
 * the letters between the first and the last letter are the base word, the rest its affixes.
 */
function isBlocklistedDerivative(chars: readonly string[], required: number): boolean {
  const first = chars.findIndex(isLetter);
  const last = chars.findLastIndex(isLetter);
  if (first < 0) return false;
  const base = chars.slice(first, last + 1).join("");
  if (!plainSpellings(base).some(isBlocklisted)) return false;
  const marks = chars.map((_, index) => index >= first && index <= last);
  return unpredictableCount(chars, marks) < required;
}

/**
 * Kratos' password policy, in its order: minimum length (4000032), similarity to the identifier
 * (4000031), the breached-password list (4000034); then NIST SP 800-63B's rules, each answered
 * with the closest Kratos id: repetitive or sequential characters and keyboard walks (4000034, as a
 * breach list would), the e-mail's parts as the password's backbone (4000031, too similar to the
 * identifier), the product's name (4000034), a dictionary word or breached password with a few
 * characters around it (4000034). Returns the first violation.
 *
 * The length is counted in bytes as Kratos does (Go's len) and in code points of the normalised
 * password as NIST does; both must reach the minimum, so "éèêëàâ" (12 bytes) is 6 long. The other
 * checks see the normalised password, its skeleton (no combining marks, Cyrillic and Greek
 * look-alikes read as Latin), the skeleton with doubled characters collapsed, and each of these
 * reversed ("moc.elpmaxe@enaj", "4321drowssap"); see src/methods/password/policy-forms.ts.
 */
export function passwordPolicyViolation(
  password: string,
  identifier: string,
  options: PasswordPolicyOptions,
): UiText | undefined {
  const { minLength } = options;
  const normalized = normalizedForPolicy(password);
  const length = Math.min(Buffer.byteLength(password, "utf8"), [...normalized].length);
  if (length < minLength) return uiText(4000032, { min_length: minLength, actual_length: length });
  for (const form of policyForms(normalized)) {
    const reversed = [...form].reverse().join("");
    const violation =
      contentViolation(form, identifier, options) ??
      contentViolation(reversed, identifier, options);
    if (violation) return violation;
  }
  return undefined;
}

function contentViolation(
  password: string,
  identifier: string,
  options: PasswordPolicyOptions,
): UiText | undefined {
  const { minLength } = options;
  const length = Buffer.byteLength(password, "utf8");
  if (
    identifier.length > 0 &&
    Buffer.byteLength(identifier) <= maxSimilarityCheckLength &&
    length <= maxSimilarityCheckLength
  ) {
    const id = identifier.toLowerCase();
    const pw = password.toLowerCase();
    const share = longestCommonSubstring(id, pw) / pw.length;
    if (levenshtein(id, pw) < minIdentifierDistance || share > maxSubstringShare) {
      return uiText(4000031);
    }
  }

  const breached = uiText(4000034, {}, { breaches: 1 });
  const lower = password.toLowerCase();
  if (plainSpellings(lower).some(isBlocklisted)) return breached;

  const chars = [...lower];
  const required = minUnpredictable(minLength);
  if (unpredictableCount(chars) < required) return breached;

  const emailMarks = chars.map(() => false);
  if (
    markContextWords(chars, emailContextWords(identifier), emailMarks) &&
    unpredictableCount(chars, emailMarks) < required
  ) {
    return uiText(4000031);
  }
  const productMarks = [...emailMarks];
  if (
    markContextWords(chars, productContextWords(options.productWords ?? []), productMarks) &&
    unpredictableCount(chars, productMarks) < required
  ) {
    return breached;
  }

  if (isBlocklistedDerivative(chars, required)) return breached;
  return undefined;
}
