import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkLine, StdinGuard } from '../src/transport/stdio/guard.js';

/** Runs `chunks` through a guard; returns what passes through and what is answered. */
async function guard(chunks: string[], maxLineBytes?: number) {
  const replies: unknown[] = [];
  const passed: string[] = [];
  const g = new StdinGuard((line) => replies.push(JSON.parse(line)), maxLineBytes);
  g.on('data', (d: Buffer) => passed.push(d.toString()));
  await new Promise<void>((resolve, reject) => {
    Readable.from(chunks.map((c) => Buffer.from(c)))
      .pipe(g)
      .on('finish', resolve)
      .on('error', reject);
  });
  await new Promise((r) => setImmediate(r));
  return { passed: passed.join(''), replies };
}

describe('StdinGuard', () => {
  it('passes well-formed messages through unchanged, one per line, across chunk boundaries', async () => {
    const a = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const b = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
    const { passed, replies } = await guard([a.slice(0, 10), `${a.slice(10)}\n\n${b}`, '\n']);
    expect(passed).toBe(`${a}\n${b}\n`);
    expect(replies).toEqual([]);
  });

  it('answers what the SDK would drop silently, with the JSON-RPC error codes', async () => {
    const { passed, replies } = await guard([
      '{not json\n',
      '[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]\n',
      '{"jsonrpc":"1.0","id":3,"method":"tools/list"}\n',
      '{"jsonrpc":"2.0","id":null,"method":"tools/list"}\n',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}\n',
      '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}\n',
      '"just a string"\n',
    ]);
    expect(passed).toBe('');
    expect(
      replies.map((r) => [(r as { id: unknown }).id, (r as { error: { code: number } }).error.code]),
    ).toEqual([
      [null, -32700],
      [null, -32600],
      [3, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  it('refuses a line over the limit with the id it carried, and goes on with the next line', async () => {
    const big = `{"jsonrpc":"2.0","id":"w-7","method":"tools/call","params":{"x":"${'a'.repeat(5000)}"}}`;
    const next = '{"jsonrpc":"2.0","id":8,"method":"tools/list"}';
    const { passed, replies } = await guard([big.slice(0, 3000), big.slice(3000), `\n${next}\n`], 1024);
    expect(passed).toBe(`${next}\n`);
    expect(replies).toEqual([
      {
        jsonrpc: '2.0',
        id: 'w-7',
        error: {
          code: -32600,
          message: `Invalid Request: message of ${big.length} bytes is over the 1024-byte limit`,
        },
      },
    ]);
  });

  it('checks the last line even without a trailing newline', async () => {
    const { passed } = await guard(['{"jsonrpc":"2.0","id":1,"method":"ping"}']);
    expect(passed).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(checkLine('{"jsonrpc":"2.0","method":"x"}')).toBeUndefined();
  });

  it('answers every request the SDK message schema refuses, with its id: -32602 for params, -32600 else', async () => {
    const lines = [
      ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}', -32602],
      ['{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}', -32602],
      ['{"jsonrpc":"2.0","id":3,"method":"ping","params":null}', -32602],
      ['{"jsonrpc":"2.0","id":"four","method":"tools/list","params":5}', -32602],
      ['{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":7}}', -32602],
      ['{"jsonrpc":"2.0","id":6}', -32600],
      ['{"jsonrpc":"2.0","id":7,"method":7}', -32600],
      ['{"jsonrpc":"2.0","id":8,"method":null,"params":{}}', -32600],
      ['{"jsonrpc":"2.0","id":9,"method":"ping","extra":true}', -32600],
    ] as const;
    const { passed, replies } = await guard(lines.map(([l]) => `${l}\n`));
    expect(passed).toBe('');
    expect(
      replies.map((r) => [(r as { id: unknown }).id, (r as { error: { code: number } }).error.code]),
    ).toEqual(lines.map(([l, code]) => [JSON.parse(l).id, code]));
  });

  it('passes on what it must not answer: notifications and responses, even malformed, and valid requests', async () => {
    const lines = [
      '{"jsonrpc":"2.0","method":"notifications/x","params":"bad"}',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":2,"error":5}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{}}}',
      '{"jsonrpc":"2.0","id":4,"method":"ping"}',
    ];
    const { passed, replies } = await guard(lines.map((l) => `${l}\n`));
    expect(replies).toEqual([]);
    expect(passed).toBe(lines.map((l) => `${l}\n`).join(''));
  });
});
