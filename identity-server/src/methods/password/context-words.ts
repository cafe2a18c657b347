/**
 * NIST SP 800-63B's "context-specific words": the product's name and the parts of the person's
 * e-mail address, and their look-alike spellings ("J4n3" for "jane").
 */

import { isIP } from "node:net";

/** Words shorter than this are not looked for (they would match inside too many passwords). */
const minContextWordLength = 3;

// Look-alike characters folded to one letter on both sides of a comparison, so "j4n3" matches
// "jane" and "1ola" matches "lola" (l and 1 both fold to i).
const folds: Record<string, string> = {
  "0": "o",
  "1": "i",
  "!": "i",
  "|": "i",
  l: "i",
  "3": "e",
  "4": "a",
  "@": "a",
  "5": "s",
  $: "s",
  "7": "t",
  "+": "t",
  "8": "b",
};

/** The lower-cased code points with look-alikes folded (same length as the input's code points). */
function foldLookAlikes(chars: readonly string[]): string[] {
  return chars.map((char) => folds[char] ?? char);
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => [...word].length >= minContextWordLength);
}

/**
 * The e-mail's context words: the whole local part, its pieces ("jane.doe+x" → "jane", "doe") and
 * the domain's labels but the last ("example" of "example.gov"). A phone number or other
 * identifier gives none (Kratos' similarity check already covers it).
 */
export function emailContextWords(identifier: string): string[] {
  const at = identifier.lastIndexOf("@");
  if (at <= 0) return [];
  const local = identifier.slice(0, at).toLowerCase();
  const labels = identifier
    .slice(at + 1)
    .toLowerCase()
    .split(".")
    .slice(0, -1);
  const found = [local, ...words(local), ...labels.flatMap(words)];
  return [...new Set(found)].filter((word) => [...word].length >= minContextWordLength);
}

/**
 * The product words: each configured entry whole ("sign in" → "signin", since separators are
 * skipped when comparing) and split into its words.
 */
export function productContextWords(configured: readonly string[]): string[] {
  return [...new Set(configured.flatMap((entry) => [entry.toLowerCase(), ...words(entry)]))];
}

/**
 * The names people see of this deployment: the host names of the UI and the public API ("portal"
 * and "agency" of portal.agency.gov, without the top-level label; a single-label host such as
 * "localhost" whole; IP addresses give none) and the authenticator apps' issuer.
 */
export function deploymentContextWords(urls: readonly string[], issuer: string): string[] {
  const found = [issuer];
  for (const url of urls) {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      continue;
    }
    if (isIP(host.replace(/^\[|\]$/g, "")) !== 0) continue;
    const labels = host.toLowerCase().split(".");
    found.push(...(labels.length > 1 ? labels.slice(0, -1) : labels));
  }
  return found;
}

const isLetterOrDigit = (char: string) => /[\p{L}\p{N}]/u.test(char);

/**
 * Marks every code point of `chars` that lies in an occurrence of one of the words (compared with
 * look-alikes folded). Separators are skipped on both sides, so "sign-in" and "sign.in" match
 * "signin", and the separators inside a match are marked with it. Returns whether anything matched.
 */
export function markContextWords(
  chars: readonly string[],
  contextWords: readonly string[],
  marks: boolean[],
): boolean {
  const folded = foldLookAlikes(chars);
  // The letters and digits (after folding "@" to "a" etc.) and where each one stands.
  const at = folded.flatMap((char, index) => (isLetterOrDigit(char) ? [index] : []));
  const compact = at.map((index) => folded[index] ?? "");
  let matched = false;
  for (const word of contextWords) {
    const target = foldLookAlikes([...word]).filter(isLetterOrDigit);
    if (target.length < minContextWordLength) continue;
    for (let start = 0; start + target.length <= compact.length; start++) {
      if (!target.every((char, offset) => compact[start + offset] === char)) continue;
      const from = at[start] ?? 0;
      const to = at[start + target.length - 1] ?? 0;
      for (let index = from; index <= to; index++) marks[index] = true;
      matched = true;
    }
  }
  return matched;
}
