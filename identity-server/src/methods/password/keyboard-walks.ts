/**
 * Keyboard walks (zxcvbn's "spatial" patterns): runs of keys that touch each other on a QWERTY
 * keyboard, along a row or zigzagging across rows ("1q2w3e4r", "qazwsx", "zaq1xsw2", "poiuy").
 * Shifted symbols stand for their key ("!" is "1").
 */

/** The rows with each one's offset in key widths, as the keys sit under each other. */
const rows = [
  { keys: "`1234567890-=", offset: 0 },
  { keys: "qwertyuiop[]\\", offset: 1.5 },
  { keys: "asdfghjkl;'", offset: 1.75 },
  { keys: "zxcvbnm,./", offset: 2.25 },
];

const shifted: Record<string, string> = {
  "~": "`",
  "!": "1",
  "@": "2",
  "#": "3",
  $: "4",
  "%": "5",
  "^": "6",
  "&": "7",
  "*": "8",
  "(": "9",
  ")": "0",
  _: "-",
  "+": "=",
  "{": "[",
  "}": "]",
  "|": "\\",
  ":": ";",
  '"': "'",
  "<": ",",
  ">": ".",
  "?": "/",
};

/** Key → [row, horizontal position]. */
const positions = new Map<string, [number, number]>();
rows.forEach((row, index) => {
  [...row.keys].forEach((key, column) => positions.set(key, [index, row.offset + column]));
});

/** Keys on the same row side by side, or on neighbouring rows less than a key width apart. */
function touching(a: string, b: string): boolean {
  const from = positions.get(shifted[a] ?? a);
  const to = positions.get(shifted[b] ?? b);
  if (!from || !to || (from[0] === to[0] && from[1] === to[1])) return false;
  const rowsApart = Math.abs(from[0] - to[0]);
  const across = Math.abs(from[1] - to[1]);
  return rowsApart === 0 ? across === 1 : rowsApart === 1 && across <= 0.75;
}

/** A walk has to be this long to count (as a sequence does: "qaz", "wsx"). */
const minWalkLength = 3;

/**
 * Length of the keyboard walk starting at `start` (lower-cased code points), or 0. It may turn
 * ("1q2w"), but a step straight back ("wew") ends it, so ordinary words rarely make long walks.
 */
export function walkLength(chars: readonly string[], start: number): number {
  let end = start + 1;
  while (end < chars.length) {
    const previous = chars[end - 1] ?? "";
    const next = chars[end] ?? "";
    if (!touching(previous, next)) break;
    if (end - 2 >= start && next === chars[end - 2]) break;
    end++;
  }
  const length = end - start;
  return length >= minWalkLength ? length : 0;
}
