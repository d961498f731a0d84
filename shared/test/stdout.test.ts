import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  coalescingWrites,
  escapeLineSeparators,
  escapeLineSeparatorsOn,
} from '../src/transport/stdio/stdout.js';

describe('escapeLineSeparators (issue 12, item 3)', () => {
  it('writes U+2028 and U+2029 as JSON escapes; the JSON value is unchanged', () => {
    const message = { jsonrpc: '2.0', id: 'a\u2028b', result: { text: 'x\u2029y\u2028\u2028z' } };
    const json = escapeLineSeparators(JSON.stringify(message));
    expect(json).not.toMatch(/[\u2028\u2029]/);
    expect(json).toContain('a\\u2028b');
    expect(JSON.parse(json)).toEqual(message);
  });

  it('returns text without them as it is', () => {
    const json = JSON.stringify({ a: 'plain \n text' });
    expect(escapeLineSeparators(json)).toBe(json);
  });

  it('applies to every string written to the stream, once however often it is installed', () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    escapeLineSeparatorsOn(stream as unknown as NodeJS.WriteStream);
    escapeLineSeparatorsOn(stream as unknown as NodeJS.WriteStream);
    stream.write('{"t":"\u2028"}\n');
    stream.write(Buffer.from('{"b":1}\n'));
    expect(chunks.join('')).toBe('{"t":"\\u2028"}\n{"b":1}\n');
  });
});

describe('coalescingWrites (issue 35: one write per turn of the event loop)', () => {
  it('sends what is written in one turn as one writev, in order, and the next turn separately', async () => {
    const batches: string[][] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        batches.push([chunk.toString('utf8')]);
        done();
      },
      writev(chunks, done) {
        batches.push(chunks.map((c) => Buffer.from(c.chunk as Buffer).toString('utf8')));
        done();
      },
    });
    const coalesce = coalescingWrites(stream);
    for (const line of ['a\n', 'b\n', 'c\n']) {
      coalesce();
      stream.write(line);
    }
    expect(batches).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a\n', 'b\n', 'c\n']]);
    coalesce();
    stream.write('d\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a\n', 'b\n', 'c\n'], ['d\n']]);
    expect(stream.writableCorked).toBe(0);
  });
});
