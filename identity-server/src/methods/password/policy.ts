import { uiText, type UiText } from "../../text/messages.ts";
import { isCommonPassword } from "./common-passwords.ts";

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

/**
 * Kratos' password policy, in its order: minimum length in bytes (4000032), similarity to the
 * identifier (4000031), then the breached-password list (4000034). Returns the first violation.
 */
export function passwordPolicyViolation(
  password: string,
  identifier: string,
  minLength: number,
): UiText | undefined {
  const length = Buffer.byteLength(password, "utf8");
  if (length < minLength) return uiText(4000032, { min_length: minLength, actual_length: length });

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

  if (isCommonPassword(password)) return uiText(4000034, {}, { breaches: 1 });
  return undefined;
}
