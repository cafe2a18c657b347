/**
 * NIST SP 800-63B's "context-specific words": the product's name and the parts of the person's
 * e-mail address, and their look-alike spellings ("J4n3" for "jane").
 */

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
export function foldLookAlikes(chars: readonly string[]): string[] {
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

/** The configured product words, split into single words as they are compared. */
export function productContextWords(configured: readonly string[]): string[] {
  return [...new Set(configured.flatMap(words))];
}

/**
 * Marks every code point of `chars` that lies in an occurrence of one of the words (compared with
 * look-alikes folded). Returns the marks and whether anything matched.
 */
export function markContextWords(
  chars: readonly string[],
  contextWords: readonly string[],
  marks: boolean[],
): boolean {
  const folded = foldLookAlikes(chars);
  let matched = false;
  for (const word of contextWords) {
    const target = foldLookAlikes([...word]);
    for (let start = 0; start + target.length <= folded.length; start++) {
      if (target.every((char, offset) => folded[start + offset] === char)) {
        for (let offset = 0; offset < target.length; offset++) marks[start + offset] = true;
        matched = true;
      }
    }
  }
  return matched;
}
