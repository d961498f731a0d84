import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { escapeLineSeparators, escapeLineSeparatorsOn } from '../src/transport/stdio/stdout.js';

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
