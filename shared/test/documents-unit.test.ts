// Document cursors (documents/render.ts) and parser failure reasons (documents/errors.ts): a cursor names its document and a position from page 1,
// offset 0; anything else (another document, a forged negative or fractional position) is refused.
import { describe, expect, it } from 'vitest';
import { parserReason } from '../src/documents/errors.js';
import { decodeDocumentCursor, encodeDocumentCursor } from '../src/documents/render.js';
import { encodeCursor } from '../src/server/budget.js';

describe('decodeDocumentCursor', () => {
  it('round-trips what encodeDocumentCursor issued', () => {
    const cursor = encodeDocumentCursor('/r/a.pdf', { part: 3, offset: 120 }, 5);
    expect(decodeDocumentCursor(cursor, '/r/a.pdf')).toEqual({
      start: { part: 3, offset: 120 },
      lastPart: 5,
    });
  });

  it('refuses a cursor of another document', () => {
    const cursor = encodeDocumentCursor('/r/a.pdf', { part: 2, offset: 0 });
    expect(() => decodeDocumentCursor(cursor, '/r/b.pdf')).toThrow(/issued for another document/);
  });

  it('refuses forged positions: negative, zero page, fractional, a last page before the first (hostile run)', () => {
    for (const forged of [
      { doc: 'd', p: -5, o: -3 },
      { doc: 'd', p: 0, o: 0 },
      { doc: 'd', p: 1.5, o: 0 },
      { doc: 'd', p: 1, o: -1 },
      { doc: 'd', p: 4, o: 0, l: 2 },
    ]) {
      expect(() => decodeDocumentCursor(encodeCursor(forged), 'd'), JSON.stringify(forged)).toThrow(
        /not a cursor this server issued/,
      );
    }
  });
});

describe('parserReason (hostile run: no library internals in a result)', () => {
  it('a runtime error inside a parser says only that the content is malformed', () => {
    expect(parserReason(new RangeError('Maximum call stack size exceeded'))).toBe(
      'malformed content the parser could not follow',
    );
    expect(parserReason(new TypeError("Cannot read properties of null (reading 'tagName')"))).toBe(
      'malformed content the parser could not follow',
    );
  });

  it("a parser's own message is kept, on one line and bounded", () => {
    expect(parserReason(new Error('[xmldom error]\tentity not found:&g;\n@#[line:1]'))).toBe(
      '[xmldom error] entity not found:&g; @#[line:1]',
    );
    expect(parserReason(new Error('x'.repeat(500)))).toHaveLength(160);
  });
});
