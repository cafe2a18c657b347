/**
 * The forms of a password the policy checks (src/methods/password/policy.ts). Each undoes a trick
 * that keeps a weak password looking new to the checks without changing what a guesser types:
 * invisible characters, combining marks, look-alike letters from other scripts, doubled letters.
 * Only for the checks: the password is hashed as typed, as Kratos does.
 */

/**
 * Characters that show nothing: default-ignorable code points (zero-width spaces and joiners, soft
 * hyphens, variation selectors, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0), the other
 * format characters (\p{Cf}) and the Braille blank U+2800, which renders as a space-sized nothing.
 */
const invisible = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]/gu;

/**
 * NIST SP 800-63B's normalisation (NFKC, so full-width "ｐａｓｓ" is "pass") without invisible
 * characters. The policy counts the length on this form.
 */
export function normalizedForPolicy(password: string): string {
  return password.replace(invisible, "").normalize("NFKC").replace(invisible, "");
}

// Cyrillic and Greek letters (lower case) that look like a Latin one: "раssword" with a Cyrillic р
// and а reads as "password". A small table of the common ones, not Unicode's whole confusables list.
const homoglyphs: Record<string, string> = {
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  з: "3",
  и: "u",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  п: "n",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ь: "b",
  α: "a",
  β: "b",
  γ: "y",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
};

/**
 * The normalised password lower-cased, decomposed (NFKD) without its combining marks ("p̲a̲s̲s̲",
 * "pássẃórd" → "pass", "password"), with look-alike Cyrillic and Greek letters read as Latin.
 */
function skeletonForPolicy(normalized: string): string {
  const bare = normalized.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  return [...bare].map((char) => homoglyphs[char] ?? char).join("");
}

/** Runs of one character collapsed to one ("aabbccddeeff" → "abcdef", "ppaassww" → "pasw"). */
function collapsedRuns(text: string): string {
  return text.replace(/(.)\1+/gsu, "$1");
}

/**
 * The distinct forms the content checks look at: the normalised password, its skeleton, and the
 * skeleton with runs collapsed. The policy checks each one and its reverse.
 */
export function policyForms(normalized: string): string[] {
  const skeleton = skeletonForPolicy(normalized);
  return [...new Set([normalized, skeleton, collapsedRuns(skeleton)])];
}
