import { walkLength } from "./keyboard-walks.ts";

/**
 * NIST SP 800-63B's "repetitive or sequential characters" (and years, as zxcvbn counts them): the parts of a password a guesser tries
 * first. `unpredictableCount` counts the characters left once every such run is taken out; the
 * policy refuses a password (or what is left of it around a dictionary or context word) when too
 * few remain.
 */

// Sequences people type: the alphabet, digits, keyboard rows (digits row with its 9→0 wrap, and
// its shifted symbols). Read in both directions.
const sequences = [
  "abcdefghijklmnopqrstuvwxyz",
  "0123456789",
  "1234567890",
  "qwertyuiop",
  "asdfghjkl",
  "zxcvbnm",
  "!@#$%^&*()",
];

/** For each character, the characters that may follow it in some sequence (either direction). */
const followers = new Map<string, Set<string>>();
for (const sequence of sequences) {
  for (const line of [sequence, [...sequence].reverse().join("")]) {
    for (let i = 0; i + 1 < line.length; i++) {
      const from = line[i] ?? "";
      const set = followers.get(from) ?? new Set<string>();
      set.add(line[i + 1] ?? "");
      followers.set(from, set);
    }
  }
}

/** A run has to be this long before it counts as predictable ("ll" in "hello" does not). */
const minRunLength = 3;
/** Longest repeated unit looked for: "aaaa" (1), "abab" (2) … "Pass1!Pass1!" (6). */
const maxUnitLength = 6;

/** Length of the repetition starting at `start` whose unit is `unit` characters long. */
function repeatLength(chars: readonly string[], start: number, unit: number): number {
  let end = start + unit;
  while (end < chars.length && chars[end] === chars[end - unit]) end++;
  const length = end - start;
  // A unit has to occur at least twice ("abcabc"), and single characters three times ("aaa").
  return length >= 2 * unit && length >= minRunLength ? length : 0;
}

/** Length of the keyboard/alphabet sequence starting at `start`, in one direction only. */
function sequenceLength(chars: readonly string[], start: number): number {
  if (start + 1 >= chars.length) return 0;
  // Fix the direction with the first step, so "abcba" is "abc" then "ba", not one run.
  const first = chars[start] ?? "";
  const second = chars[start + 1] ?? "";
  if (!followers.get(first)?.has(second)) return 0;
  let end = start + 2;
  while (end < chars.length) {
    const previous = chars[end - 1] ?? "";
    const beforePrevious = chars[end - 2] ?? "";
    const next = chars[end] ?? "";
    if (!followers.get(previous)?.has(next)) break;
    // Same direction as before: a step back would make "aba" a sequence.
    if (next === beforePrevious) break;
    end++;
  }
  const length = end - start;
  return length >= minRunLength ? length : 0;
}

/** A year people pick (1900–2099) starting at `start`: 4, else 0. */
function yearLength(chars: readonly string[], start: number): number {
  const digits = chars.slice(start, start + 4).join("");
  return /^(?:19|20)\d\d$/.test(digits) ? 4 : 0;
}

/**
 * How many of the characters (code points, lower-cased by the caller) are not part of a repetition
 * ("aaaa", "abab", "xyzxyz"), a sequence ("1234", "abcd", "qwerty", "9876"), a keyboard walk
 * ("1q2w3e", "qazwsx") or a year ("2024"). Characters marked
 * in `skip` (already accounted for, e.g. a context word) count for neither. Greedy left to right:
 * at each position the longest predictable run is taken out.
 */
export function unpredictableCount(chars: readonly string[], skip?: readonly boolean[]): number {
  let count = 0;
  // Runs are looked for inside each stretch between skipped characters.
  let stretch: string[] = [];
  const flush = () => {
    let i = 0;
    while (i < stretch.length) {
      let longest = Math.max(
        sequenceLength(stretch, i),
        walkLength(stretch, i),
        yearLength(stretch, i),
      );
      for (let unit = 1; unit <= maxUnitLength; unit++) {
        longest = Math.max(longest, repeatLength(stretch, i, unit));
      }
      if (longest > 0) {
        i += longest;
      } else {
        count++;
        i++;
      }
    }
    stretch = [];
  };
  chars.forEach((char, index) => {
    if (skip?.[index]) flush();
    else stretch.push(char);
  });
  flush();
  return count;
}
