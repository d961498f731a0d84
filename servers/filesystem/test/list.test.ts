/**
 * list_directory and list_directory_with_sizes through the built server over stdio: the official
 * text shape, structured entries and totals, ALL-05 pagination, and symlink containment (FS-02).
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Connection,
  callChecked,
  findDuplicates,
  followPages,
  resultText,
  tempDir,
} from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, startUnprivileged } from './support.js';

interface Entry {
  name: string;
  type: string;
  size?: number;
  target?: string;
}
interface Listing {
  entries: Entry[];
  total: number;
  files: number;
  directories: number;
  totalSize?: number;
  skippedLinks: number;
  nextCursor?: string;
}

let dir: string;
let outside: string;
let conn: Connection;
let paged: Connection;
let modern: Connection;
const cleanups: (() => Promise<void>)[] = [];
const NAMES = Array.from({ length: 57 }, (_, i) => `file-${String(i).padStart(2, '0')}.txt`);

beforeAll(async () => {
  const a = await tempDir('refmcp-list-');
  const b = await tempDir('refmcp-list-outside-');
  cleanups.push(a.cleanup, b.cleanup);
  dir = a.dir;
  outside = b.dir;
  mkdirSync(join(dir, 'big'));
  for (const [i, n] of NAMES.entries()) writeFileSync(join(dir, 'big', n), 'x'.repeat(i * 10));
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'a.txt'), 'hello');
  writeFileSync(join(dir, 'sub', 'inner.txt'), 'inner');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  symlinkSync(outside, join(dir, 'etc-like'));
  symlinkSync(join(outside, 'secret.txt'), join(dir, 'passwd-like'));
  symlinkSync(join(dir, 'sub'), join(dir, 'sub-link'));
  [conn, paged, modern] = await Promise.all([
    startServer([dir]),
    startServer([dir, '--max-entries', '10']),
    startServer([dir], 'modern'),
  ]);
});

afterAll(async () => {
  await Promise.all([conn?.close(), paged?.close(), modern?.close()]);
  for (const c of cleanups) await c();
});

describe('list_directory', () => {
  it('prints [FILE]/[DIR] lines as the official server does, sorted by name', async () => {
    const r = await callChecked(conn, 'list_directory', { path: dir });
    expect(r.isError).toBeFalsy();
    const lines = resultText(r).split('\n');
    expect(lines).toContain('[FILE] a.txt');
    expect(lines).toContain('[DIR] big');
    expect(lines).toContain('[DIR] sub');
    expect(lines).toContain('[LINK] sub-link (link to a directory)');
    const s = r.structuredContent as unknown as Listing;
    expect(s.entries.map((e) => e.name)).toEqual(['a.txt', 'big', 'sub', 'sub-link']);
    expect(s).toMatchObject({ total: 4, files: 1, directories: 2, skippedLinks: 2 });
    expect(s.nextCursor).toBeUndefined();
  });

  it('FS-02: leaves out symlinks pointing outside, and refuses to list through one', async () => {
    const r = await callChecked(conn, 'list_directory', { path: dir });
    expect(resultText(r)).not.toContain('etc-like');
    expect(resultText(r)).not.toContain('passwd-like');
    expect(resultText(r)).toContain('2 symlink(s) not shown');
    const through = await callChecked(conn, 'list_directory', { path: join(dir, 'etc-like') });
    expect(through.isError).toBe(true);
    expect(resultText(through)).toMatch(/outside the allowed directories/);
    expect(resultText(through)).not.toContain('secret.txt');
  });

  it('ALL-08: answers the same on the 2026-07-28 era', async () => {
    expect(modern.era).toBe('modern');
    const legacy = await callChecked(conn, 'list_directory', { path: dir });
    const current = await callChecked(modern, 'list_directory', { path: dir });
    expect(current.structuredContent).toEqual(legacy.structuredContent);
    expect(resultText(current)).toBe(resultText(legacy));
  });

  it('refuses a file path, naming the argument', async () => {
    const r = await callChecked(conn, 'list_directory', { path: join(dir, 'a.txt') });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(/^path: .* is not a directory/);
  });

  it('ALL-05: pages through a big directory with nextCursor, no duplicates, union equals the directory', async () => {
    const walk = await followPages(
      async (cursor: string | undefined) =>
        (
          await callChecked(paged, 'list_directory', {
            path: join(dir, 'big'),
            ...(cursor ? { cursor } : {}),
          })
        ).structuredContent as unknown as Listing,
      (page) => page.nextCursor,
    );
    expect(walk.pages).toHaveLength(6);
    const names = walk.pages.flatMap((p) => p.entries.map((e) => e.name));
    expect(findDuplicates(names, (n) => n)).toEqual([]);
    expect(names).toEqual(NAMES);
    expect(walk.pages.every((p) => p.total === NAMES.length)).toBe(true);
  });

  it('ALL-05: a cut page says so in text, with how to continue', async () => {
    const r = await callChecked(paged, 'list_directory', { path: join(dir, 'big') });
    const text = resultText(r);
    const cursor = (r.structuredContent as unknown as Listing).nextCursor;
    expect(text).toContain(
      `[truncated: entries 1–10 of 57 shown, 47 more; call list_directory again with the same path and cursor "${cursor}"]`,
    );
  });

  it('refuses a cursor from another query', async () => {
    const first = (await callChecked(paged, 'list_directory', { path: join(dir, 'big') }))
      .structuredContent as unknown as Listing;
    const r = await callChecked(paged, 'list_directory', { path: dir, cursor: first.nextCursor });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(/^cursor: .*different query/);
  });
});

describe('list_directory_with_sizes', () => {
  it('shows sizes and totals like the official server, sorted by size when asked', async () => {
    const r = await callChecked(conn, 'list_directory_with_sizes', {
      path: join(dir, 'big'),
      sortBy: 'size',
    });
    const s = r.structuredContent as unknown as Listing;
    expect(s.entries[0]).toEqual({ name: 'file-56.txt', type: 'file', size: 560 });
    expect(s.entries.map((e) => e.size)).toEqual(
      [...s.entries.map((e) => e.size ?? 0)].sort((x, y) => y - x),
    );
    const total = NAMES.reduce((sum, _, i) => sum + i * 10, 0);
    expect(s.totalSize).toBe(total);
    const text = resultText(r);
    expect(text).toMatch(/^\[FILE\] file-56\.txt +560 B$/m);
    expect(text).toContain('Total: 57 files, 0 directories');
    expect(text).toContain('Combined size: 15.59 KB');
  });

  it('ALL-05: pages by size order with no duplicates and the same totals on every page', async () => {
    const walk = await followPages(
      async (cursor: string | undefined) =>
        (
          await callChecked(paged, 'list_directory_with_sizes', {
            path: join(dir, 'big'),
            sortBy: 'size',
            ...(cursor ? { cursor } : {}),
          })
        ).structuredContent as unknown as Listing,
      (page) => page.nextCursor,
    );
    const names = walk.pages.flatMap((p) => p.entries.map((e) => e.name));
    expect(names).toEqual([...NAMES].reverse());
    expect(new Set(walk.pages.map((p) => p.totalSize)).size).toBe(1);
  });
});

describe('a directory with read but no search permission', () => {
  it('list_directory_with_sizes lists every name, with "size unknown" where the size cannot be read', async () => {
    const { dir, cleanup } = await tempDir('refmcp-fs-noexec-');
    try {
      chmodSync(dir, 0o755);
      mkdirSync(join(dir, 'names-only'));
      writeFileSync(join(dir, 'names-only', 'f.txt'), 'hello');
      chmodSync(join(dir, 'names-only'), 0o644); // r but no x for owner, group and others
      const server = await startUnprivileged([dir]);
      try {
        const plain = await callChecked(server, 'list_directory', { path: join(dir, 'names-only') });
        expect(resultText(plain)).toContain('f.txt');
        const sized = await callChecked(server, 'list_directory_with_sizes', {
          path: join(dir, 'names-only'),
        });
        expect(sized.isError).toBeFalsy();
        expect(sized.structuredContent).toMatchObject({ entries: [{ name: 'f.txt', type: 'file' }] });
        expect(resultText(sized)).toMatch(/f\.txt\s+\(size unknown\)/);
      } finally {
        await server.close();
      }
    } finally {
      chmodSync(join(dir, 'names-only'), 0o755);
      await cleanup();
    }
  });
});
