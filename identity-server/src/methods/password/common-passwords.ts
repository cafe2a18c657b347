import { createRequire } from "node:module";
import path from "node:path";

/**
 * The offline blocklist that stands in for Have I Been Pwned (which Kratos asks over the network;
 * this server must work offline and leak nothing): zxcvbn-ts' breached-password list
 * (`@zxcvbn-ts/language-common`, about 49,000 passwords from public breaches) plus its English
 * dictionary, name and Wikipedia word lists (`@zxcvbn-ts/language-en`, NIST SP 800-63B's
 * "dictionary words"). Both are MIT-licensed and maintained.
 *
 * Kept small: the lists are read on first use only (a password being set, never a login), each
 * entry is kept as a 53-bit hash in one sorted Float64Array (about 1.5 MB for ~190,000 entries, a
 * false match once in ~10^10 look-ups), and the packages' modules are dropped from the require
 * cache afterwards so their arrays of strings can be collected.
 */

const packages = ["@zxcvbn-ts/language-common", "@zxcvbn-ts/language-en"] as const;

/** Entries shorter than this are never looked up (whole passwords and base words are longer). */
export const minBlocklistEntryLength = 4;

/** A 53-bit string hash (two multiplicative 32-bit lanes, mixed at the end); exact as a double. */
function hash53(text: string): number {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 0x9e3779b1);
    h2 = Math.imul(h2 ^ code, 0x5bd1e995);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return 0x100000000 * (h2 & 0x1fffff) + (h1 >>> 0);
}

type WordLists = { dictionary: Record<string, readonly string[]> };

function loadHashes(): Float64Array {
  // A require of its own, dropped with this call: its module keeps every loaded child listed.
  const require = createRequire(import.meta.url);
  const hashes: number[] = [];
  for (const name of packages) {
    const { dictionary } = require(name) as WordLists;
    for (const list of Object.values(dictionary)) {
      for (const word of list) {
        if (word.length >= minBlocklistEntryLength) hashes.push(hash53(word.toLowerCase()));
      }
    }
  }
  // The packages' modules (and the arrays they export) are needed no longer: every module of the
  // @zxcvbn-ts scope leaves the require cache, the shared decompressor too (its first parent would
  // keep the word lists reachable).
  const scope = path.dirname(path.dirname(require.resolve(`${packages[0]}/package.json`)));
  for (const file of Object.keys(require.cache)) {
    if (file.startsWith(scope + path.sep)) delete require.cache[file];
  }
  const sorted = Float64Array.from(hashes).sort();
  // Duplicates (a word in several lists) out.
  let size = 0;
  for (const value of sorted) {
    if (size === 0 || sorted[size - 1] !== value) sorted[size++] = value;
  }
  return sorted.slice(0, size);
}

let table: Float64Array | undefined;

/** Loads the lists now (tests, or a warm-up); otherwise the first look-up does. */
export function blocklistSize(): number {
  table ??= loadHashes();
  return table.length;
}

/** Whether the (already lower-cased) word is on the blocklist. */
export function isBlocklisted(word: string): boolean {
  if ([...word].length < minBlocklistEntryLength) return false;
  table ??= loadHashes();
  const wanted = hash53(word);
  let low = 0;
  let high = table.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = table[middle] ?? 0;
    if (value === wanted) return true;
    if (value < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Whether the password (case-insensitively) is on the offline list of breached/common passwords. */
export function isCommonPassword(password: string): boolean {
  return isBlocklisted(password.toLowerCase());
}
