import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, truncateUtf8 } from '../src/server/budget.js';

describe('truncateUtf8', () => {
  it('keeps text within the budget untouched', () => {
    expect(truncateUtf8('hello', 5)).toEqual({ text: 'hello', truncated: false, omittedBytes: 0 });
  });

  it('cuts on a character boundary and counts the omitted bytes', () => {
    // "é" is 2 bytes, "😀" 4 bytes: a 3-byte budget cannot hold half of the emoji.
    const cut = truncateUtf8('é😀x', 3);
    expect(cut.text).toBe('é');
    expect(cut.truncated).toBe(true);
    expect(cut.omittedBytes).toBe(5);
  });
});

describe('cursors', () => {
  it('round-trip their state', () => {
    expect(decodeCursor(encodeCursor({ offset: 1000, path: '/a' }))).toMatchObject({
      offset: 1000,
      path: '/a',
    });
  });

  it('refuse strings the server did not issue, naming the argument', () => {
    expect(() => decodeCursor('not-a-cursor', 'cursor')).toThrow(/cursor: not a cursor this server issued/);
    expect(() => decodeCursor(Buffer.from('{"x":1}').toString('base64url'))).toThrow(/not a cursor/);
  });
});
