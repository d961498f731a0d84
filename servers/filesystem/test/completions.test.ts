/**
 * Completion of file://{+path} through the built server: the allowed directories, then the entries
 * of the directory typed so far (directories with a trailing "/"); nothing outside the allowed
 * directories completes — not a sibling directory, not "..", not through a symlink leading out;
 * at most 100 values with the total and hasMore. In both protocol eras.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { type Connection, RecordingStdioTransport, serverBin, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let dir: string;
let outside: string;
let legacy: Connection;
let modern: Connection;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const a = await tempDir('refmcp-complete-');
  const b = await tempDir('refmcp-complete-outside-');
  cleanups.push(a.cleanup, b.cleanup);
  dir = a.dir;
  outside = b.dir;
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
  writeFileSync(join(dir, 'src', 'app.ts'), 'x');
  writeFileSync(join(dir, 'README.md'), 'x');
  mkdirSync(join(dir, 'many'));
  for (let i = 0; i < 150; i++) writeFileSync(join(dir, 'many', `f${String(i).padStart(3, '0')}.txt`), '');
  writeFileSync(join(outside, 'secret.txt'), 'x');
  symlinkSync(outside, join(dir, 'escape'));
  [legacy, modern] = await Promise.all([startServer([dir]), startServer([dir], 'modern')]);
});
afterAll(async () => {
  await Promise.all([legacy?.close(), modern?.close()]);
  for (const c of cleanups) await c();
});

const complete = (conn: Connection, value: string) =>
  conn.client.complete({
    ref: { type: 'ref/resource', uri: 'file://{+path}' },
    argument: { name: 'path', value },
  });

describe.each([
  ['legacy', () => legacy],
  ['modern', () => modern],
])('file://{+path} completion (%s era)', (_era, conn) => {
  it('declares the completions capability', () => {
    expect(conn().client.getServerCapabilities()?.completions).toEqual({});
  });

  it('offers the allowed directories, then the entries of the typed directory', async () => {
    expect((await complete(conn(), '')).completion.values).toEqual([`${dir}/`]);
    expect((await complete(conn(), dir)).completion.values).toEqual([`${dir}/`]);
    expect((await complete(conn(), `${dir}/`)).completion.values).toEqual([
      `${dir}/README.md`,
      `${dir}/many/`,
      `${dir}/src/`,
    ]);
    expect((await complete(conn(), `${dir}/src/`)).completion.values).toEqual([
      `${dir}/src/app.ts`,
      `${dir}/src/lib/`,
    ]);
    expect((await complete(conn(), `${dir}/src/a`)).completion.values).toEqual([`${dir}/src/app.ts`]);
  });

  it('never completes outside the allowed directories', async () => {
    for (const value of [
      `${outside}/`,
      `${outside}/s`,
      `${dir}/escape/`,
      `${dir}/../`,
      `${dir}/src/../../`,
      '/etc/',
    ])
      expect((await complete(conn(), value)).completion.values, value).toEqual([]);
    // The symlink leading out is not offered among the entries either.
    expect((await complete(conn(), `${dir}/e`)).completion.values).toEqual([]);
  });

  it('sends at most 100 values, with the total and hasMore', async () => {
    const { completion } = await complete(conn(), `${dir}/many/f`);
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 150, hasMore: true });
    expect(completion.values[0]).toBe(`${dir}/many/f000.txt`);
  });
});

describe('a client that declares roots', () => {
  it('completes only inside its roots (narrowing the allowed directories), once they are applied', async () => {
    const bin = serverBin('filesystem');
    const transport = new RecordingStdioTransport({
      command: bin.command,
      args: [...bin.args, dir],
      env: getDefaultEnvironment(),
    });
    const client = new Client({ name: 'roots-completion', version: '0' }, { capabilities: { roots: {} } });
    client.setRequestHandler('roots/list', async () => ({
      roots: [{ uri: pathToFileURL(join(dir, 'src')).href }],
    }));
    await client.connect(transport);
    try {
      const complete = async (value: string) =>
        (
          await client.complete({
            ref: { type: 'ref/resource', uri: 'file://{+path}' },
            argument: { name: 'path', value },
          })
        ).completion.values;
      // The first completion waits for the roots the server asked for on initialization.
      expect(await complete('')).toEqual([`${dir}/src/`]);
      expect(await complete(`${dir}/`)).toEqual([`${dir}/src/`]);
      expect(await complete(`${dir}/R`)).toEqual([]);
      expect(await complete(`${dir}/many/`)).toEqual([]);
      expect(await complete(`${dir}/src/`)).toEqual([`${dir}/src/app.ts`, `${dir}/src/lib/`]);
    } finally {
      await client.close();
    }
  });
});
