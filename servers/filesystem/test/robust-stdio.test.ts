/**
 * Issue 12, items 2 and 3, through the built server: every request with an id gets exactly one
 * answer (params that are not an object, a method that is not a string…), and U+2028/U+2029 in
 * file text never reach stdout raw (hosts that split stdout on line terminators cut the message).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeFile(join(dir, 'seps.txt'), 'one\u2028two\u2029three\n');
});
afterAll(() => cleanup());

/** Parsed stdout lines of `conn` answering `id`, once they appear (or after `ms`). */
async function answers(conn: Connection, id: string, ms = 5000): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + ms;
  const find = () =>
    conn
      .stdoutLines()
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((m) => m.id === id);
  while (find().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 100));
  return find();
}

describe.each(['legacy', 'modern'] as const)('robust stdio (%s era)', (era) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([dir], era);
    await conn.client.request({ method: 'tools/list', params: {} });
  });
  afterAll(() => conn.close());

  it.each([
    ['params a string', { method: 'tools/call', params: 'x' }, -32602],
    ['params an array', { method: 'tools/call', params: [{ name: 'read_text_file' }] }, -32602],
    ['params null', { method: 'tools/list', params: null }, -32602],
    ['params a number', { method: 'ping', params: 3 }, -32602],
    ['_meta not an object', { method: 'tools/list', params: { _meta: 'x' } }, -32602],
    ['cursor not a string', { method: 'tools/list', params: { cursor: 1 } }, -32602],
    ['uri not a string', { method: 'resources/read', params: { uri: 1 } }, -32602],
    ['method missing', { params: {} }, -32600],
    ['method a number', { method: 1, params: {} }, -32600],
  ])('answers a request with %s once, with its id and code %s', async (what, message, code) => {
    const id = `${era}-${what}`;
    // Object params carry the client's envelope (the modern era's claim), as a real client's do.
    const { params } = message as { params?: unknown };
    const meta = conn.lastRequestMeta();
    const withMeta =
      meta && params && typeof params === 'object' && !Array.isArray(params) && !('_meta' in params)
        ? { ...message, params: { ...params, _meta: meta } }
        : message;
    await conn.sendLine(JSON.stringify({ jsonrpc: '2.0', id, ...withMeta }));
    const got = await answers(conn, id);
    expect(got).toHaveLength(1);
    expect((got[0]?.error as { code?: number } | undefined)?.code).toBe(code);
  });

  it('reads a file holding U+2028/U+2029: the text arrives intact, stdout never carries them raw', async () => {
    const result = await callChecked(conn, 'read_text_file', { path: join(dir, 'seps.txt') });
    expect(resultText(result)).toContain('one\u2028two\u2029three');
    const raw = conn.stdoutLines().filter((l) => /[\u2028\u2029]/.test(l));
    expect(raw).toEqual([]);
    expect(conn.stdoutLines().some((l) => l.includes('one\\u2028two\\u2029three'))).toBe(true);
  });
});
