/**
 * Keyboard walks (zxcvbn's "spatial" patterns): runs of keys that touch each other on one keyboard
 * layout, along a row or zigzagging across rows ("1q2w3e4r", "qazwsx", "zaq1xsw2", "poiuy"), on
 * QWERTY, Dvorak ("aoeuidhtns") and the numeric keypad ("147258369", "789456123", "159357").
 * Shifted symbols stand for their key ("!" is "1").
 */

interface Row {
  keys: string;
  /** Where the row's first key sits, in key widths from the left. */
  offset: number;
}

/** The main block's rows with each one's offset, as the keys sit under each other. */
const qwerty: Row[] = [
  { keys: "`1234567890-=", offset: 0 },
  { keys: "qwertyuiop[]\\", offset: 1.5 },
  { keys: "asdfghjkl;'", offset: 1.75 },
  { keys: "zxcvbnm,./", offset: 2.25 },
];

const dvorak: Row[] = [
  { keys: "`1234567890[]", offset: 0 },
  { keys: "',.pyfgcrl/=\\", offset: 1.5 },
  { keys: "aoeuidhtns-", offset: 1.75 },
  { keys: ";qjkxbmwvz", offset: 2.25 },
];

/**
 * The numeric keypad (7 8 9 over 4 5 6 over 1 2 3, 0 under 1 and 2). A phone's pad has 1 2 3 on
 * top, but its keys 1 to 9 touch the same neighbours, so this grid covers its walks too (but 0's).
 */
const keypad: Row[] = [
  { keys: "789", offset: 0 },
  { keys: "456", offset: 0 },
  { keys: "123", offset: 0 },
  { keys: "0", offset: 0.5 },
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

interface Layout {
  /** Key → [row, horizontal position]. */
  positions: Map<string, [number, number]>;
  /** Largest horizontal distance between touching keys on neighbouring rows. */
  across: number;
}

function layoutOf(rows: readonly Row[], across: number): Layout {
  const positions = new Map<string, [number, number]>();
  rows.forEach((row, index) => {
    [...row.keys].forEach((key, column) => positions.set(key, [index, row.offset + column]));
  });
  return { positions, across };
}

// Staggered rows touch keys less than a key width apart; the keypad's grid touches diagonals too.
const layouts = [layoutOf(qwerty, 0.75), layoutOf(dvorak, 0.75), layoutOf(keypad, 1)];

/** Keys on the same row side by side, or on neighbouring rows close enough, on this layout. */
function touching(layout: Layout, a: string, b: string): boolean {
  const from = layout.positions.get(shifted[a] ?? a);
  const to = layout.positions.get(shifted[b] ?? b);
  if (!from || !to || (from[0] === to[0] && from[1] === to[1])) return false;
  const rowsApart = Math.abs(from[0] - to[0]);
  const across = Math.abs(from[1] - to[1]);
  return rowsApart === 0 ? across === 1 : rowsApart === 1 && across <= layout.across;
}

/** A walk has to be this long to count (as a sequence does: "qaz", "wsx"). */
const minWalkLength = 3;

/**
 * Length of the keyboard walk starting at `start` (lower-cased code points), or 0: the longest on
 * any one layout. It may turn ("1q2w"), but a step straight back ("wew") ends it, so ordinary words
 * rarely make long walks.
 */
export function walkLength(chars: readonly string[], start: number): number {
  return Math.max(...layouts.map((layout) => walkLengthOn(layout, chars, start)));
}

function walkLengthOn(layout: Layout, chars: readonly string[], start: number): number {
  let end = start + 1;
  while (end < chars.length) {
    const previous = chars[end - 1] ?? "";
    const next = chars[end] ?? "";
    if (!touching(layout, previous, next)) break;
    if (end - 2 >= start && next === chars[end - 2]) break;
    end++;
  }
  const length = end - start;
  return length >= minWalkLength ? length : 0;
}
