import { describe, expect, it } from 'vitest';
import { decodeEscapes, displayPath, fromFsName, hasRawBytes, pathBytes } from '../src/paths/fs-names.js';

describe('names that are not valid UTF-8 (issue 12, item 5)', () => {
  const cases: [string, number[]][] = [
    ['latin-1', [0x63, 0x61, 0x66, 0xe9]],
    ['lone continuation', [0x61, 0x80, 0x62]],
    ['truncated sequence', [0x61, 0xe2, 0x82]],
    ['overlong', [0xc0, 0xaf]],
    ['encoded surrogate', [0xed, 0xa0, 0x80]],
    ['over U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['valid then invalid', [...Buffer.from('📸 é'), 0xff]],
  ];
  it.each(cases)('%s: bytes → string → bytes is exact, shown as \\xHH', (_what, bytes) => {
    const b = Buffer.from(bytes);
    const s = fromFsName(b);
    expect(hasRawBytes(s)).toBe(true);
    expect(pathBytes(s).equals(b)).toBe(true);
    const shown = displayPath(s);
    expect(shown).toMatch(/\\x[89a-f][0-9a-f]/);
    expect(hasRawBytes(shown)).toBe(false);
    expect(shown).not.toContain('\uFFFD');
    expect(decodeEscapes(shown)).toBe(s);
  });
  it('valid UTF-8 (astral characters too) is untouched', () => {
    for (const name of ['café', '9.52.38\u202fAM 📸', 'snap 🧪.txt', 'a\\xe9b']) {
      const s = fromFsName(Buffer.from(name));
      expect(s).toBe(name);
      expect(hasRawBytes(s)).toBe(false);
      expect(displayPath(s)).toBe(name);
    }
    // Escapes that spell valid UTF-8 are a literal name, not bytes.
    expect(decodeEscapes('caf\\xc3\\xa9')).toBeUndefined();
    expect(decodeEscapes('plain')).toBeUndefined();
  });
});
