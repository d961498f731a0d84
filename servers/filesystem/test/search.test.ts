/**
 * search_files through the built server over stdio: the official glob semantics, FS-10 (50k files
 * under node_modules: bounded, paginated), ALL-05 pagination, symlinks leading outside, and a slow
 * walk timing out with partial results while another call answers promptly (ALL-07).
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

interface SearchResult {
  matches: { path: string; type: string }[];
  scanned: number;
  skippedLinks: number;
  timedOut?: boolean;
  nextCursor?: string;
}
interface GrepResult {
  matches: unknown[];
  filesSearched: number;
  timedOut?: boolean;
  nextCursor?: string;
}

let big: string;
let grid: string;
let gridPaths: string[];
let conn: Connection;
let paged: Connection;
let slow: Connection;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const a = await tempDir('refmcp-search-');
  const b = await tempDir('refmcp-search-grid-');
  const c = await tempDir('refmcp-search-outside-');
  cleanups.push(a.cleanup, b.cleanup, c.cleanup);
  big = a.dir;
  grid = b.dir;
  makeNodeModules(big);
  mkdirSync(join(big, 'src', 'lib'), { recursive: true });
  writeFileSync(join(big, 'src', 'main.js'), '');
  writeFileSync(join(big, 'src', 'lib', 'util.js'), '');
  writeFileSync(join(big, 'README.md'), '');
  writeFileSync(join(big, 'top.js'), '');
  writeFileSync(join(c.dir, 'stolen.js'), '');
  symlinkSync(c.dir, join(big, 'src', 'escape'));
  gridPaths = makeGrid(grid, { depth: 3, width: 3, filesPerDir: 2 });
  [conn, paged, slow] = await Promise.all([
    startServer([big, grid]),
    startServer([grid, big, '--max-entries', '5']),
    startServer([big, '--walk-timeout', '1500']),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([conn, paged, slow].map((c) => c?.close()));
  for (const c of cleanups) await c();
});

const search = async (c: Connection, args: Record<string, unknown>) => {
  const r = await callChecked(c, 'search_files', args);
  return { r, s: r.structuredContent as unknown as SearchResult, text: resultText(r) };
};

describe('search_files', () => {
  it('matches globs against the relative path like the official server: "*.js" top level, "**/*.js" anywhere', async () => {
    const top = await search(conn, { path: big, pattern: '*.js', excludePatterns: ['node_modules'] });
    expect(top.text.split('\n')[0]).toBe(join(big, 'top.js'));
    expect(top.s.matches).toHaveLength(1);
    const deep = await search(conn, { path: big, pattern: '**/*.js', excludePatterns: ['node_modules'] });
    expect(deep.s.matches.map((m) => m.path)).toEqual([
      join(big, 'src', 'lib', 'util.js'),
      join(big, 'src', 'main.js'),
      join(big, 'top.js'),
    ]);
    expect(deep.s.nextCursor).toBeUndefined();
  });

  it('matches a plain pattern as a case-insensitive name fragment, and says when nothing matched', async () => {
    const r = await search(conn, { path: big, pattern: 'readme', excludePatterns: ['node_modules'] });
    expect(r.s.matches).toEqual([{ path: join(big, 'README.md'), type: 'file' }]);
    const none = await search(conn, {
      path: big,
      pattern: 'no-such-name',
      excludePatterns: ['node_modules'],
    });
    expect(none.text.split('\n')[0]).toBe('No matches found');
  });

  it('never follows a symlink leading outside', async () => {
    const r = await search(conn, { path: big, pattern: 'stolen', excludePatterns: ['node_modules'] });
    expect(r.text).not.toContain('stolen.js');
    expect(r.s.skippedLinks).toBe(1);
  });

  it('FS-10: 50k files under node_modules give a bounded first page with a marker and a cursor', async () => {
    const r = await search(conn, { path: big, pattern: '**/*.js' });
    expect(r.s.matches).toHaveLength(1000);
    expect(r.s.nextCursor).toBeTruthy();
    expect(r.text).toContain(
      `[truncated: page full; 1000 matches on this page, the search is not finished; call search_files again with the same arguments and cursor "${r.s.nextCursor}"]`,
    );
    expect(Buffer.byteLength(r.text)).toBeLessThan(256 * 1024);
  });

  it('FS-10 / ALL-05: following the cursor returns all 50k matches exactly once', async () => {
    const walk = await followPages(
      async (cursor: string | undefined) =>
        (
          await search(conn, {
            path: join(big, 'node_modules'),
            pattern: '**/*.js',
            ...(cursor ? { cursor } : {}),
          })
        ).s,
      (page) => page.nextCursor,
    );
    const paths = walk.pages.flatMap((p) => p.matches.map((m) => m.path));
    expect(paths).toHaveLength(50_000);
    expect(findDuplicates(paths, (p) => p)).toEqual([]);
  }, 60_000);

  it('ALL-05: small pages over a tree: no duplicates, union equals the full set', async () => {
    const walk = await followPages(
      async (cursor: string | undefined) =>
        (await search(paged, { path: grid, pattern: '**', ...(cursor ? { cursor } : {}) })).s,
      (page) => page.nextCursor,
    );
    expect(walk.pages.every((p) => p.matches.length <= 5)).toBe(true);
    expect(walk.pages).toHaveLength(Math.ceil(gridPaths.length / 5)); // no empty last page
    const rels = walk.pages.flatMap((p) => p.matches.map((m) => m.path.slice(grid.length + 1)));
    expect(findDuplicates(rels, (p) => p)).toEqual([]);
    expect([...rels].sort()).toEqual([...gridPaths].sort());
  });

  it('refuses a cursor issued for other arguments', async () => {
    const first = await search(paged, { path: grid, pattern: '**' });
    const r = await callChecked(paged, 'search_files', {
      path: grid,
      pattern: '*.txt',
      cursor: first.s.nextCursor,
    });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(/^cursor: /);
  });
});

describe('time budget', () => {
  it('ALL-07: a slow walk returns partial results flagged timedOut while another call answers promptly', async () => {
    const started = performance.now();
    let slowDone = 0;
    const slowCall = callChecked(slow, 'search_file_contents', {
      path: big,
      pattern: 'no such text anywhere',
      respectGitignore: false,
    }).then((r) => {
      slowDone = performance.now();
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const quickStart = performance.now();
    const quick = await callChecked(slow, 'list_directory', { path: big });
    const quickDone = performance.now();
    expect(quick.isError).toBeFalsy();
    expect(quickDone - quickStart).toBeLessThan(500);
    expect(slowDone).toBe(0); // the walk was still running when the quick call answered

    const r = await slowCall;
    const s = r.structuredContent as unknown as GrepResult;
    expect(s.timedOut).toBe(true);
    expect(s.filesSearched).toBeGreaterThan(0);
    expect(s.filesSearched).toBeLessThan(50_000);
    expect(slowDone - started).toBeLessThan(4000);
    expect(resultText(r)).toMatch(
      /\[truncated: time budget \(1500 ms\) ran out; partial result; the search is not finished; call search_file_contents again with the same arguments and cursor "/,
    );
    expect(s.nextCursor).toBeTruthy();
  });
});

describe('depth limit', () => {
  it('says when directories 128 levels deep were not searched further (search_files and search_file_contents)', async () => {
    const deep = await tempDir('refmcp-search-deep-');
    cleanups.push(deep.cleanup);
    const bottom = join(deep.dir, ...Array.from({ length: 130 }, () => 'd'));
    mkdirSync(bottom, { recursive: true });
    writeFileSync(join(bottom, 'bottom.txt'), 'needle\n');
    writeFileSync(join(deep.dir, 'top.txt'), 'needle\n');
    const server = await startServer([deep.dir]);
    try {
      const names = await callChecked(server, 'search_files', { path: deep.dir, pattern: '**/*.txt' });
      expect(names.structuredContent).toMatchObject({ depthLimited: 1 });
      expect((names.structuredContent as SearchResult).matches.map((m) => m.path)).toEqual([
        join(deep.dir, 'top.txt'),
      ]);
      expect(resultText(names)).toContain('(1 directory 128 levels deep not searched further');
      const grep = await callChecked(server, 'search_file_contents', { path: deep.dir, pattern: 'needle' });
      expect(grep.structuredContent).toMatchObject({ depthLimited: 1, filesWithMatches: 1 });
      expect(resultText(grep)).toContain('(1 directory 128 levels deep not searched further');
      // A tree within the limit: no note, no field.
      const shallow = await callChecked(conn, 'search_files', { path: big, pattern: '**/util.js' });
      expect(resultText(shallow)).not.toContain('levels deep');
      expect(shallow.structuredContent).not.toHaveProperty('depthLimited');
    } finally {
      await server.close();
    }
  });
});
