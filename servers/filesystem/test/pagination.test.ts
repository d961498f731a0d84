/**
 * ALL-05, the edge of a page: a page that the results fill exactly is the last one. Every paginated
 * tool must then answer without nextCursor (and without a "[truncated: …]" marker): a cursor whose
 * next page is empty is a false "more exists" that costs the model a call.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

const PAGE = 3;
let dir: string;
let conn: Connection;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const t = await tempDir('refmcp-pages-');
  cleanup = t.cleanup;
  dir = t.dir;
  // a/ holds exactly PAGE entries. Exactly PAGE files are called hit-* and contain "needle", one per
  // directory; entries come after the last one (c/z.txt) that match neither.
  mkdirSync(join(dir, 'a'));
  writeFileSync(join(dir, 'a', 'hit-1.txt'), 'needle\n');
  for (const name of ['x.txt', 'y.txt']) writeFileSync(join(dir, 'a', name), 'other\n');
  mkdirSync(join(dir, 'b'));
  writeFileSync(join(dir, 'b', 'hit-2.txt'), 'needle\n');
  mkdirSync(join(dir, 'c'));
  writeFileSync(join(dir, 'c', 'hit-3.txt'), 'needle\n');
  writeFileSync(join(dir, 'c', 'z.txt'), 'other\n');
  conn = await startServer([dir, '--max-entries', String(PAGE)]);
}, 30_000);

afterAll(async () => {
  await conn?.close();
  await cleanup?.();
});

function noMore(r: Awaited<ReturnType<typeof callChecked>>): void {
  expect(r.isError).toBeFalsy();
  expect((r.structuredContent as { nextCursor?: string }).nextCursor).toBeUndefined();
  expect(resultText(r)).not.toContain('[truncated:');
}

describe('a page filled exactly is the last page', () => {
  it('search_files: exactly a page of matches, more entries after the last one', async () => {
    const r = await callChecked(conn, 'search_files', { path: dir, pattern: '**/hit-*.txt' });
    expect((r.structuredContent as { matches: unknown[] }).matches).toHaveLength(PAGE);
    noMore(r);
  });

  it('search_files: the walk ends right after the last match', async () => {
    const r = await callChecked(conn, 'search_files', { path: join(dir, 'a'), pattern: '*.txt' });
    expect((r.structuredContent as { matches: unknown[] }).matches).toHaveLength(PAGE);
    noMore(r);
  });

  it('directory_tree and list_directory: exactly a page of entries', async () => {
    noMore(await callChecked(conn, 'directory_tree', { path: join(dir, 'a') }));
    noMore(await callChecked(conn, 'list_directory', { path: join(dir, 'a') }));
    noMore(await callChecked(conn, 'list_directory_with_sizes', { path: join(dir, 'a') }));
  });

  it('search_file_contents: exactly maxResults matches', async () => {
    const r = await callChecked(conn, 'search_file_contents', {
      path: dir,
      pattern: 'needle',
      maxResults: PAGE,
    });
    expect((r.structuredContent as { matches: unknown[] }).matches).toHaveLength(PAGE);
    noMore(r);
  });
});
