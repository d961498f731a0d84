import { describe, expect, it } from 'vitest';
import {
  BinaryContentError,
  type ByteSource,
  bufferSource,
  CHUNK_BYTES,
  PastEndError,
  readBytes,
  readLines,
  readTail,
  utf8SafeEnd,
  wholeLines,
} from '../src/lines.js';

const src = (text: string | Buffer) => bufferSource(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
const big = { maxBytes: 1 << 20 };

/** A source that counts the bytes read from it, to prove reads stay near the end/start. */
function counting(data: Buffer): ByteSource & { bytesRead: number } {
  const inner = bufferSource(data);
  const counted = {
    size: inner.size,
    bytesRead: 0,
    async read(buffer: Buffer, position: number) {
      const n = await inner.read(buffer, position);
      counted.bytesRead += n;
      return n;
    },
  };
  return counted;
}

describe('readLines (head, offset/limit, whole file)', () => {
  it('returns the first N lines with their newlines', async () => {
    const slice = await readLines(src('a\nb\nc\nd\n'), { ...big, startLine: 1, maxLines: 2 });
    expect(slice).toMatchObject({
      text: 'a\nb\n',
      firstLine: 1,
      lineCount: 2,
      startByte: 0,
      endByte: 4,
      cut: 'none',
    });
  });

  it('starts at a 1-based line offset and counts a last line without newline', async () => {
    const slice = await readLines(src('a\nb\nc\nd'), { ...big, startLine: 3, maxLines: Infinity });
    expect(slice).toMatchObject({ text: 'c\nd', firstLine: 3, lineCount: 2, startByte: 4, endByte: 7 });
  });

  it('reports an offset past the end with the line count', async () => {
    await expect(readLines(src('a\nb\n'), { ...big, startLine: 3, maxLines: 1 })).rejects.toMatchObject({
      unit: 'line',
      available: 2,
    });
    await expect(readLines(src('a\nb'), { ...big, startLine: 4, maxLines: 1 })).rejects.toBeInstanceOf(
      PastEndError,
    );
  });

  it('reads an empty file as empty text', async () => {
    expect(await readLines(src(''), { ...big, startLine: 1, maxLines: Infinity })).toMatchObject({
      text: '',
      lineCount: 0,
    });
  });

  it('cuts at a line boundary when the budget ends', async () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const slice = await readLines(src(text), { maxBytes: 30, startLine: 1, maxLines: Infinity });
    expect(slice.cut).toBe('lines');
    expect(slice.text).toBe('line 1\nline 2\nline 3\nline 4\n');
    expect(Buffer.byteLength(slice.text)).toBeLessThanOrEqual(30);
  });

  it('cuts a line longer than the budget at a character boundary', async () => {
    const slice = await readLines(src('€€€€€€'), { maxBytes: 8, startLine: 1, maxLines: 1 });
    expect(slice).toMatchObject({ text: '€€', cut: 'bytes', endByte: 6 });
  });

  it('refuses binary content (NUL in the first 8000 bytes read)', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    await expect(readLines(src(png), { ...big, startLine: 1, maxLines: 1 })).rejects.toBeInstanceOf(
      BinaryContentError,
    );
  });

  it('returns text lines just before a NUL region, but not lines of a file that starts binary', async () => {
    const textThenHole = Buffer.concat([Buffer.from(`${'x'.repeat(9000)}\nok\n`), Buffer.alloc(100)]);
    const slice = await readLines(src(textThenHole), { ...big, startLine: 2, maxLines: 1 });
    expect(slice.text).toBe('ok\n');
    const holeThenText = Buffer.concat([Buffer.alloc(100), Buffer.from('\na\nb\n')]);
    await expect(readLines(src(holeThenText), { ...big, startLine: 2, maxLines: 1 })).rejects.toMatchObject({
      nulAt: 0,
    });
  });

  it('reads the first lines of a huge file without reading the rest', async () => {
    const data = Buffer.alloc(8 * CHUNK_BYTES, 'x');
    data.write('one\ntwo\n', 0);
    const source = counting(data);
    const slice = await readLines(source, { ...big, startLine: 1, maxLines: 2 });
    expect(slice.text).toBe('one\ntwo\n');
    expect(source.bytesRead).toBeLessThanOrEqual(CHUNK_BYTES + 8000);
  });
});

describe('readTail', () => {
  it('returns the last N lines; a final newline ends the last line', async () => {
    expect((await readTail(src('a\nb\nc\n'), { ...big, maxLines: 1 })).text).toBe('c\n');
    expect((await readTail(src('a\nb\nc'), { ...big, maxLines: 2 })).text).toBe('b\nc');
    expect((await readTail(src('a\nb\n'), { ...big, maxLines: 10 })).text).toBe('a\nb\n');
  });

  it('finds lines across chunk boundaries, reading only near the end', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `row ${i}`);
    const source = counting(Buffer.from(`${lines.join('\n')}\n`));
    const slice = await readTail(source, { ...big, maxLines: 3 });
    expect(slice.text).toBe('row 49997\nrow 49998\nrow 49999\n');
    expect(slice.lineCount).toBe(3);
    expect(source.bytesRead).toBeLessThanOrEqual(CHUNK_BYTES);
  });

  it('cuts at a line boundary within the budget', async () => {
    const slice = await readTail(src('aaaa\nbbbb\ncccc\n'), { maxBytes: 11, maxLines: 3 });
    expect(slice).toMatchObject({ text: 'bbbb\ncccc\n', cut: 'lines', startByte: 5 });
  });

  it('cuts inside one long last line at a character boundary', async () => {
    const slice = await readTail(src('ü'.repeat(10)), { maxBytes: 5, maxLines: 1 });
    expect(slice.cut).toBe('bytes');
    expect(slice.text).toBe('üü');
  });

  it('shows the text after a sparse (NUL) region and marks it', async () => {
    const data = Buffer.concat([Buffer.alloc(3 * CHUNK_BYTES), Buffer.from('first\nsecond\n')]);
    const source = counting(data);
    const slice = await readTail(source, { ...big, maxLines: 20 });
    expect(slice).toMatchObject({
      text: 'first\nsecond\n',
      droppedNul: true,
      startByte: 3 * CHUNK_BYTES,
      lineCount: 2,
    });
    expect(source.bytesRead).toBeLessThanOrEqual(CHUNK_BYTES);
  });

  it("refuses a binary file's tail (nothing after the last NUL, or not UTF-8)", async () => {
    await expect(
      readTail(src(Buffer.from([0x41, 0x0a, 0x00])), { ...big, maxLines: 2 }),
    ).rejects.toBeInstanceOf(BinaryContentError);
    const pngEnd = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
    await expect(readTail(src(pngEnd), { ...big, maxLines: 5 })).rejects.toBeInstanceOf(BinaryContentError);
  });
});

describe('readTail against a byte-by-byte reference', () => {
  /** Where the tail starts, scanning back one byte at a time: the definition readTail implements with native searches. */
  function reference(data: Buffer, maxLines: number, maxBytes: number) {
    const size = data.length;
    let newlines = 0;
    let boundary: number | undefined;
    for (let at = size - 1; at >= 0; at--) {
      if (size - at > maxBytes)
        return { start: boundary ?? size - maxBytes, cut: boundary === undefined ? 'bytes' : 'lines' };
      if (data[at] === 0) return { start: at + 1, nul: true };
      if (data[at] === 0x0a && at !== size - 1) {
        newlines++;
        boundary = at + 1;
        if (newlines >= maxLines) return { start: boundary };
      }
    }
    return { start: 0 };
  }

  it('finds the same start for random text, newlines, NULs and budgets, across chunk edges', async () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const size = rand(3) === 0 ? rand(200) : rand(3 * CHUNK_BYTES);
      const data = Buffer.alloc(size, 0x61);
      for (let i = 0; i < size; i++) {
        const r = rand(1000);
        if (r < 40) data[i] = 0x0a;
        else if (r < 41 && rand(4) === 0) data[i] = 0;
      }
      const maxLines = 1 + rand(rand(2) ? 30 : 3000);
      const maxBytes = 1 + rand(rand(2) ? 500 : 2 * CHUNK_BYTES);
      const want = reference(data, maxLines, maxBytes);
      const got = await readTail(bufferSource(data), { maxLines, maxBytes }).catch((e: unknown) => e);
      const where = `round ${round}: size ${size}, maxLines ${maxLines}, maxBytes ${maxBytes}`;
      if (got instanceof BinaryContentError) {
        expect(want.nul, where).toBe(true);
        continue;
      }
      const slice = got as Awaited<ReturnType<typeof readTail>>;
      // A "bytes" cut may move forward over UTF-8 continuation bytes; this data is ASCII.
      expect(slice.startByte, where).toBe(want.start);
      expect(slice.droppedNul === true, where).toBe(want.nul === true);
      expect(slice.cut, where).toBe(want.cut ?? 'none');
    }
  }, 60_000); // ~3 s of byte-by-byte reference work when idle; many times that on a loaded machine
});

describe('readBytes', () => {
  it('returns a byte range', async () => {
    const slice = await readBytes(src('0123456789'), { ...big, byteOffset: 2, byteLength: 5 });
    expect(slice).toMatchObject({ text: '23456', startByte: 2, endByte: 7, cut: 'none' });
  });

  it('moves both ends inwards to character boundaries', async () => {
    // "aé€b": a(0) é(1-2) €(3-5) b(6)
    const slice = await readBytes(src('aé€b'), { ...big, byteOffset: 2, byteLength: 3 });
    expect(slice).toMatchObject({ text: '', startByte: 3, endByte: 3 });
    const whole = await readBytes(src('aé€b'), { ...big, byteOffset: 1, byteLength: 4 });
    expect(whole).toMatchObject({ text: 'é', startByte: 1, endByte: 3 });
  });

  it('is cut by the budget and says so', async () => {
    const slice = await readBytes(src('abcdefgh'), { maxBytes: 3, byteOffset: 1 });
    expect(slice).toMatchObject({ text: 'bcd', endByte: 4, cut: 'bytes' });
  });

  it('refuses a range whose bytes hold a NUL', async () => {
    await expect(readBytes(src(Buffer.from('ab\u0000cd')), { ...big, byteOffset: 1 })).rejects.toMatchObject({
      nulAt: 2,
    });
  });

  it('refuses an offset past the end', async () => {
    await expect(readBytes(src('abc'), { ...big, byteOffset: 4 })).rejects.toMatchObject({
      unit: 'byte',
      available: 3,
    });
  });
});

describe('utf8SafeEnd', () => {
  it('never splits a character and leaves complete ones', () => {
    const buf = Buffer.from('a€', 'utf8'); // 61 e2 82 ac
    expect(utf8SafeEnd(buf, 4)).toBe(4);
    expect(utf8SafeEnd(buf, 3)).toBe(1);
    expect(utf8SafeEnd(buf, 2)).toBe(1);
    expect(utf8SafeEnd(buf, 1)).toBe(1);
  });
});

describe('wholeLines (a small file read whole, from memory)', () => {
  const cases: [string, Buffer][] = [
    ['empty', Buffer.alloc(0)],
    ['one line without newline', Buffer.from('abc')],
    ['lines ending in newline', Buffer.from('a\nb\n')],
    ['last line without newline', Buffer.from('a\n\nb')],
    ['CRLF and only newlines', Buffer.from('\r\n\n\n')],
    ['invalid UTF-8', Buffer.from([0x61, 0xff, 0x0a, 0x62])],
    ['multi-byte text', Buffer.from('héllo\nwörld 🌍\n')],
  ];
  for (const [name, bytes] of cases) {
    it(`returns what readLines returns: ${name}`, async () => {
      const expected = await readLines(src(bytes), { maxBytes: 1 << 20, startLine: 1, maxLines: Infinity });
      expect(wholeLines(bytes, 1 << 20)).toEqual(expected);
    });
  }

  it('refuses binary content as readLines does (same NUL offset)', async () => {
    const bytes = Buffer.from('text\nmore\0binary');
    const expected = await readLines(src(bytes), { ...big, startLine: 1, maxLines: Infinity }).catch(
      (e) => e,
    );
    expect(expected).toBeInstanceOf(BinaryContentError);
    expect(() => wholeLines(bytes, 1 << 20)).toThrow(BinaryContentError);
    try {
      wholeLines(bytes, 1 << 20);
    } catch (error) {
      expect((error as BinaryContentError).nulAt).toBe((expected as BinaryContentError).nulAt);
    }
  });

  it('leaves bytes over the budget to readLines (null)', () => {
    expect(wholeLines(Buffer.from('a\nb\n'), 3)).toBeNull();
    expect(wholeLines(Buffer.from('a\nb\n'), 4)).not.toBeNull();
  });
});
