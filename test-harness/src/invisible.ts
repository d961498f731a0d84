// ALL-06 helper: find characters that hide text from a human reader but not from a model.

/** One invisible or direction-changing character found in a text. */
export interface InvisibleChar {
  /** Index in UTF-16 code units. */
  index: number;
  /** The code point as "U+XXXX". */
  codePoint: string;
  name: string;
}

// Zero-width joiners (U+200C/U+200D) are left out on purpose: emoji sequences need them.
const RANGES: Array<[number, number, string]> = [
  [0x200b, 0x200b, 'ZERO WIDTH SPACE'],
  [0x200e, 0x200f, 'LEFT-TO-RIGHT/RIGHT-TO-LEFT MARK'],
  [0x202a, 0x202e, 'BIDI EMBEDDING/OVERRIDE'],
  [0x2060, 0x2064, 'WORD JOINER/INVISIBLE OPERATOR'],
  [0x2066, 0x2069, 'BIDI ISOLATE'],
  [0xfeff, 0xfeff, 'ZERO WIDTH NO-BREAK SPACE'],
  [0xe0000, 0xe007f, 'TAG CHARACTER'],
];

/** Every invisible/bidi/tag character in `text` (U+200B, U+202A–U+202E, U+2066–U+2069, U+E0000–U+E007F, …). */
export function findInvisible(text: string): InvisibleChar[] {
  const found: InvisibleChar[] = [];
  let index = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const range = RANGES.find(([lo, hi]) => cp >= lo && cp <= hi);
    if (range)
      found.push({ index, codePoint: `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`, name: range[2] });
    index += ch.length;
  }
  return found;
}

/**
 * Throws an Error naming each invisible character (code point and UTF-16 index) if `text` contains
 * any; returns normally otherwise. For servers' ALL-06 tests of sanitised upstream text.
 */
export function assertNoInvisible(text: string, label = 'text'): void {
  const found = findInvisible(text);
  if (found.length === 0) return;
  const list = found
    .slice(0, 10)
    .map((f) => `${f.codePoint} ${f.name} at ${f.index}`)
    .join(', ');
  throw new Error(`${label} contains ${found.length} invisible character(s): ${list}`);
}
