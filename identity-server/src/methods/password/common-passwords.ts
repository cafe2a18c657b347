import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The offline blocklist that stands in for Have I Been Pwned (which Kratos asks over the network;
 * this server must work offline and leak nothing): zxcvbn-ts' breached-password list
 * (`@zxcvbn-ts/language-common`, about 49,000 passwords from public breaches) plus its English
 * dictionary, name and Wikipedia word lists (`@zxcvbn-ts/language-en`, NIST SP 800-63B's
 * "dictionary words"). Both are MIT-licensed, maintained, and pinned to exact versions.
 *
 * Kept small: read on first use only (a password being set, never a login), each entry kept as a
 * 53-bit hash in one sorted Float64Array (about 1.4 MB for ~180,000 entries; a false match once
 * in ~10^10 look-ups). The packages' modules are not loaded: requiring them decompresses every
 * list into arrays of strings, which grew the server's RSS by about 20 MB for good (measured).
 * Instead their compressed lists are read as text and decoded one entry at a time into a reused
 * buffer that is hashed in place.
 */

/** The lists: `dist/<name>.json.cjs` of each package, one compressed string literal each. */
const sources = [
  { name: "@zxcvbn-ts/language-common", lists: ["passwords", "diceware"] },
  {
    name: "@zxcvbn-ts/language-en",
    lists: ["commonWords", "firstnames", "lastnames", "wikipedia"],
  },
] as const;

/** Entries shorter than this are never looked up (whole passwords and base words are longer). */
const minBlocklistEntryLength = 4;

/** A 53-bit hash of UTF-16 code units (two multiplicative 32-bit lanes mixed at the end). */
function hashUnits(units: ArrayLike<number>, length: number): number {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  for (let i = 0; i < length; i++) {
    const unit = units[i] ?? 0;
    h1 = Math.imul(h1 ^ unit, 0x9e3779b1);
    h2 = Math.imul(h2 ^ unit, 0x5bd1e995);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  return 0x100000000 * (h2 & 0x1fffff) + (h1 >>> 0);
}

function hashString(text: string): number {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return hashUnits(units, text.length);
}

/** The compressed string literal of one list file. */
function encodedList(packageDir: string, list: string): string {
  const text = readFileSync(path.join(packageDir, "dist", `${list}.json.cjs`), "utf8");
  const start = text.indexOf('("');
  const end = text.lastIndexOf('")');
  if (start < 0 || end <= start) throw new Error(`no compressed list in ${list}.json.cjs`);
  return text.slice(start + 2, end);
}

/**
 * zxcvbn-ts' front coding: each entry is an upper-case letter giving how many leading characters
 * it shares with the previous entry ('A' = 0), then the rest of it (entries have no A–Z).
 */
function hashEntries(encoded: string, into: number[]): void {
  const word = new Uint16Array(256);
  let length = -1;
  const finish = () => {
    if (length >= minBlocklistEntryLength) into.push(hashUnits(word, length));
  };
  for (let i = 0; i < encoded.length; i++) {
    const unit = encoded.charCodeAt(i);
    if (unit >= 65 && unit <= 90) {
      finish();
      length = Math.min(unit - 65, Math.max(length, 0));
    } else if (length >= 0 && length < word.length) {
      word[length++] = unit;
    }
  }
  finish();
}

function loadTable(): Float64Array {
  const require = createRequire(import.meta.url);
  const hashes: number[] = [];
  for (const source of sources) {
    const dir = path.dirname(require.resolve(`${source.name}/package.json`));
    for (const list of source.lists) hashEntries(encodedList(dir, list), hashes);
  }
  const sorted = Float64Array.from(hashes).sort();
  let size = 0;
  for (const value of sorted) {
    if (size === 0 || sorted[size - 1] !== value) sorted[size++] = value;
  }
  return sorted.slice(0, size);
}

let table: Float64Array | undefined;

/** Loads the lists now (tests, diagnostics); otherwise the first look-up does. Returns the size. */
export function loadBlocklist(): number {
  table ??= loadTable();
  return table.length;
}

/** Whether the (already lower-cased) word is on the blocklist. */
export function isBlocklisted(word: string): boolean {
  if (word.length < minBlocklistEntryLength) return false;
  table ??= loadTable();
  const wanted = hashString(word);
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
