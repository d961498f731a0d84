/**
 * directory_tree through the built server over stdio: FS-10 (50k files under node_modules:
 * excludePatterns and hard budgets with an explicit marker), ALL-05 pagination of the tree,
 * maxDepth, the time budget, and symlinks leading outside.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
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
import { makeGrid, makeNodeModules } from './fixtures/trees.js';
import { startServer } from './support.js';

interface Node {
  name: string;
  type: string;
  children?: Node[];
  continued?: true;
  maxDepthReached?: true;
}
interface TreeResult {
  tree: Node[];
  entries: number;
  truncated?: { reason: string; moreEstimate: number };
  timedOut?: boolean;
  depthLimited: number;
  skippedLinks: number;
  nextCursor?: string;
}

let big: string;
let grid: string;
let gridPaths: string[];
let conn: Connection;
let paged: Connection;
let smallBytes: Connection;
let slow: Connection;
const cleanups: (() => Promise<void>)[] = [];

/** Relative paths of the nodes a page shows (ancestors marked `continued` were shown before). */
function pathsOf(nodes: Node[], prefix = ''): string[] {
  return nodes.flatMap((n) => {
    const rel = prefix ? `${prefix}/${n.name}` : n.name;
    return [...(n.continued ? [] : [rel]), ...pathsOf(n.children ?? [], rel)];
  });
}

beforeAll(async () => {
  const a = await tempDir('refmcp-tree-');
  const b = await tempDir('refmcp-tree-grid-');
  const c = await tempDir('refmcp-tree-outside-');
  cleanups.push(a.cleanup, b.cleanup, c.cleanup);
  big = a.dir;
  grid = b.dir;
  makeNodeModules(big);
  mkdirSync(join(big, 'src'));
  writeFileSync(join(big, 'src', 'index.ts'), 'export {};\n');
  writeFileSync(join(big, 'package.json'), '{}\n');
  writeFileSync(join(c.dir, 'secret.txt'), 'secret');
  symlinkSync(c.dir, join(big, 'src', 'escape'));
  gridPaths = makeGrid(grid, { depth: 3, width: 3, filesPerDir: 2 });
  [conn, paged, smallBytes, slow] = await Promise.all([
    startServer([big, grid]),
    startServer([grid, '--max-entries', '7']),
    startServer([big, '--max-result-bytes', '20000']),
    startServer([big, '--walk-timeout', '10', '--max-entries', '1000000', '--max-result-bytes', '100000000']),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([conn, paged, smallBytes, slow].map((c) => c?.close()));
  for (const c of cleanups) await c();
});

describe('directory_tree', () => {
  it('FS-10: excludePatterns ["node_modules"] skips the 50k files entirely and returns the official JSON shape', async () => {
    const started = performance.now();
    const r = await callChecked(conn, 'directory_tree', { path: big, excludePatterns: ['node_modules'] });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(r.isError).toBeFalsy();
    const json = JSON.parse((r.content[0] as { text: string }).text) as Node[];
    expect(json).toEqual([
      { name: 'package.json', type: 'file' },
      { name: 'src', type: 'directory', children: [{ name: 'index.ts', type: 'file' }] },
    ]);
    const s = r.structuredContent as unknown as TreeResult;
    expect(s.nextCursor).toBeUndefined();
    expect(s.truncated).toBeUndefined();
    expect(resultText(r)).not.toContain('node_modules');
  });

  it('FS-10: without exclusions the tree stops at the entry budget with an explicit marker and a cursor', async () => {
    const r = await callChecked(conn, 'directory_tree', { path: big });
    const s = r.structuredContent as unknown as TreeResult;
    expect(s.entries).toBe(1000);
    expect(s.truncated?.reason).toBe('entries');
    expect(s.truncated?.moreEstimate).toBeGreaterThan(0);
    expect(s.nextCursor).toBeTruthy();
    const marker = (r.content[1] as { text: string }).text;
    expect(marker).toMatch(
      /^\[truncated: entry budget \(1000\) reached; about \d+ more entries not shown; narrow path, add excludePatterns, lower maxDepth, or call directory_tree again with the same arguments and cursor "/,
    );
    expect(marker).toContain(s.nextCursor);
    // The first block is still valid JSON (the official shape), the marker is separate.
    expect(() => JSON.parse((r.content[0] as { text: string }).text)).not.toThrow();
  });

  it('FS-10: the byte budget bounds the text, and the next page continues inside the same directory', async () => {
    const r = await callChecked(smallBytes, 'directory_tree', { path: big });
    const s = r.structuredContent as unknown as TreeResult;
    const json = (r.content[0] as { text: string }).text;
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(20000);
    expect(s.truncated?.reason).toBe('bytes');
    const next = await callChecked(smallBytes, 'directory_tree', { path: big, cursor: s.nextCursor });
    const n = next.structuredContent as unknown as TreeResult;
    expect(n.tree[0]).toMatchObject({ name: 'node_modules', continued: true });
    const firstPage = new Set(pathsOf(s.tree));
    expect(pathsOf(n.tree).some((p) => firstPage.has(p))).toBe(false);
  });

  it('ALL-05: following nextCursor yields every entry exactly once', async () => {
    const walk = await followPages(
      async (cursor: string | undefined) =>
        (await callChecked(paged, 'directory_tree', { path: grid, ...(cursor ? { cursor } : {}) }))
          .structuredContent as unknown as TreeResult,
      (page) => page.nextCursor,
    );
    expect(walk.pages.length).toBe(Math.ceil(gridPaths.length / 7));
    const all = walk.pages.flatMap((p) => pathsOf(p.tree));
    expect(findDuplicates(all, (p) => p)).toEqual([]);
    expect([...all].sort()).toEqual([...gridPaths].sort());
    expect(walk.pages.every((p) => p.entries <= 7)).toBe(true);
  });

  it('marks directories at maxDepth instead of silently dropping their contents', async () => {
    const r = await callChecked(conn, 'directory_tree', { path: grid, maxDepth: 1 });
    const s = r.structuredContent as unknown as TreeResult;
    expect(
      s.tree
        .filter((n) => n.type === 'directory')
        .every((n) => n.maxDepthReached && n.children?.length === 0),
    ).toBe(true);
    expect(s.depthLimited).toBe(3);
    expect(resultText(r)).toContain('3 directories at maxDepth 1 not expanded');
  });

  it('leaves out a symlink pointing outside and never walks into it', async () => {
    const r = await callChecked(conn, 'directory_tree', { path: join(big, 'src') });
    expect(resultText(r)).not.toContain('escape');
    expect(resultText(r)).not.toContain('secret');
    expect((r.structuredContent as unknown as TreeResult).skippedLinks).toBe(1);
  });

  it('stops at the time budget with a partial, resumable result', async () => {
    // maxDepth 3 reaches the 50k files: the ~250 entries down to depth 2 can now be walked within 10 ms.
    const r = await callChecked(slow, 'directory_tree', { path: big, maxDepth: 3 });
    const s = r.structuredContent as unknown as TreeResult;
    expect(s.timedOut).toBe(true);
    expect(s.truncated?.reason).toBe('time');
    expect((r.content[1] as { text: string }).text).toMatch(/time budget \(10 ms\) ran out/);
    if (s.entries === 0) return; // a very slow machine: nothing to resume from
    // Under load a 10 ms page may carry no new entry; follow cursors (a bounded number of times)
    // until one does. The contract: progress is made and nothing already shown comes again.
    const firstPage = new Set(pathsOf(s.tree));
    let cursor = s.nextCursor;
    let later: string[] = [];
    for (let page = 0; page < 50 && later.length === 0 && cursor; page++) {
      const next = (await callChecked(slow, 'directory_tree', { path: big, maxDepth: 3, cursor }))
        .structuredContent as unknown as TreeResult;
      later = pathsOf(next.tree);
      cursor = next.nextCursor;
    }
    expect(later.length).toBeGreaterThan(0);
    expect(later.some((p) => firstPage.has(p))).toBe(false);
  });
});
