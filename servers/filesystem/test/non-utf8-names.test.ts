/**
 * Issue 12, item 5: file names that are not valid UTF-8 (Linux names are bytes). A listing shows
 * each raw byte as \xHH and says the name was not UTF-8; passing the listed name back reaches that
 * very file in every path-taking tool. Such names are made here with Buffer paths.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, serverBin, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
let conn: Connection;
/** Raw bytes of `dir/name` where `name` holds bytes that are not valid UTF-8. */
const raw = (...parts: (string | number[])[]) =>
  Buffer.concat([
    Buffer.from(`${dir}/`),
    ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))),
  ]);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  writeFileSync(raw('caf', [0xe9], '.txt'), 'latin-1 name\n'); // "café" in Latin-1
  writeFileSync(raw('bad', [0xff, 0xfe], 'x.txt'), 'two bad bytes\n');
  mkdirSync(raw('dir', [0xc3, 0x28]));
  writeFileSync(Buffer.concat([raw('dir', [0xc3, 0x28]), Buffer.from('/inner.txt')]), 'inside\n');
  writeFileSync(join(dir, 'café.txt'), 'utf-8 name\n');
  conn = await startServer([dir]);
});
afterAll(async () => {
  await conn?.close();
  await cleanup();
});

const text = async (name: string, args: Record<string, unknown>) => {
  const r = await callChecked(conn, name, args);
  return { text: resultText(r), isError: r.isError === true, data: r.structuredContent };
};

describe('names that are not valid UTF-8 round-trip (issue 12, item 5)', () => {
  it('the listing shows raw bytes as \\xHH, says so, and no U+FFFD', async () => {
    const r = await text('list_directory', { path: dir });
    expect(r.text).not.toContain('\uFFFD');
    expect(r.text).toContain('caf\\xe9.txt');
    expect(r.text).toContain('bad\\xff\\xfex.txt');
    expect(r.text).toContain('dir\\xc3(');
    expect(r.text).toMatch(/caf\\xe9\.txt.*not valid UTF-8/);
    expect(r.text).toMatch(/\[FILE\] café\.txt$/m);
    const names = (r.data as { entries: { name: string }[] }).entries.map((e) => e.name);
    expect(names).toContain('caf\\xe9.txt');
  });

  it('each listed name works in the path-taking tools', async () => {
    const read = await text('read_text_file', { path: join(dir, 'caf\\xe9.txt') });
    expect(read.isError, read.text).toBe(false);
    expect(read.text).toContain('latin-1 name');
    const utf8 = await text('read_text_file', { path: join(dir, 'café.txt') });
    expect(utf8.text).toContain('utf-8 name');
    const info = await text('get_file_info', { path: join(dir, 'bad\\xff\\xfex.txt') });
    expect(info.isError, info.text).toBe(false);
    const inner = await text('list_directory', { path: join(dir, 'dir\\xc3(') });
    expect(inner.isError, inner.text).toBe(false);
    expect(inner.text).toContain('inner.txt');
    const nested = await text('read_text_file', { path: join(dir, 'dir\\xc3(', 'inner.txt') });
    expect(nested.text).toContain('inside');
    const many = await text('read_multiple_files', {
      paths: [join(dir, 'caf\\xe9.txt'), join(dir, 'bad\\xff\\xfex.txt')],
    });
    expect(many.text).toContain('latin-1 name');
    expect(many.text).toContain('two bad bytes');
  });

  it('writes, edits and moves reach the same file', async () => {
    const edit = await text('edit_file', {
      path: join(dir, 'bad\\xff\\xfex.txt'),
      edits: [{ oldText: 'two bad bytes', newText: 'edited' }],
    });
    expect(edit.isError, edit.text).toBe(false);
    expect(readFileSync(raw('bad', [0xff, 0xfe], 'x.txt'), 'utf8')).toBe('edited\n');
    const write = await text('write_file', { path: join(dir, 'caf\\xe9.txt'), content: 'rewritten\n' });
    expect(write.isError, write.text).toBe(false);
    expect(readFileSync(raw('caf', [0xe9], '.txt'), 'utf8')).toBe('rewritten\n');
    const move = await text('move_file', {
      source: join(dir, 'caf\\xe9.txt'),
      destination: join(dir, 'cafe.txt'),
    });
    expect(move.isError, move.text).toBe(false);
    expect(readdirSync(dir)).toContain('cafe.txt');
  });

  it('trees, searches and file info show the same \\xHH form', async () => {
    for (const [tool, args] of [
      ['directory_tree', { path: dir }],
      ['search_files', { path: dir, pattern: '**/*.txt' }],
      ['get_file_info', { path: join(dir, 'dir\\xc3(') }],
    ] as const) {
      const r = await text(tool, args);
      expect(r.isError, `${tool}: ${r.text}`).toBe(false);
      expect(JSON.stringify(r), tool).not.toMatch(/\\udc[89a-f][0-9a-f]|\uFFFD/i);
      expect(r.text, tool).toContain('\\x');
    }
  });

  it('a name that is literally "\\xe9" is still itself', async () => {
    writeFileSync(join(dir, 'lit\\xe9.txt'), 'literal\n');
    const r = await text('read_text_file', { path: join(dir, 'lit\\xe9.txt') });
    expect(r.text).toContain('literal');
  });
});

describe('an allowed directory that is not valid UTF-8', () => {
  it('is refused at startup instead of confining the server to the U+FFFD directory Node decodes it to', async () => {
    // Node turns the invalid byte of argv into U+FFFD; a directory really named that way exists.
    mkdirSync(join(dir, 'ad\uFFFD'));
    writeFileSync(join(dir, 'ad\uFFFD', 'f.txt'), 'not the allowed directory\n');
    const bin = serverBin('filesystem');
    const run = spawnSync(bin.command, [...bin.args, raw('ad', [0xe9]).toString('utf8')], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/not valid UTF-8/);
  });
});
