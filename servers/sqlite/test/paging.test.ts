/**
 * Bounded results (ALL-05 for this server's own lists): read_query pages by rows and by bytes with
 * an explicit truncation marker and a cursor; following it yields every row once; big values are
 * cut with their full size; list_tables and resources/list page through many tables.
 */
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  type Connection,
  callChecked,
  findDuplicates,
  followPages,
  resultText,
  structured,
  tempDir,
} from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDb, startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
let conn: Connection;

interface Page {
  rows: unknown[][];
  truncated: boolean;
  nextCursor?: string;
  offset: number;
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  const file = join(dir, 'paging.db');
  const tables = Array.from({ length: 8 }, (_, i) => `CREATE TABLE t${i} (a);`).join('\n');
  makeDb(
    file,
    `CREATE TABLE n (i INTEGER PRIMARY KEY, s TEXT);
     WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50)
       INSERT INTO n SELECT x, printf('row %d', x) FROM c;
     CREATE TABLE big (b TEXT, z BLOB);
     INSERT INTO big VALUES (printf('%.*c', 300000, 'x'), zeroblob(300000));
     ${tables}`,
  );
  conn = await startServer(['--db-path', file, '--max-rows', '7', '--max-bytes', '4096']);
});
afterAll(async () => {
  await conn?.close();
  await cleanup();
});

const pageOf = (r: CallToolResult) => {
  expect(r.isError, resultText(r)).toBeFalsy();
  return structured<Page>(r);
};

describe('read_query pages', () => {
  it('ALL-05 a row-budget page says truncated with a cursor, and following it yields every row once', async () => {
    const query = 'SELECT i, s FROM n ORDER BY i';
    const first = await callChecked(conn, 'read_query', { query });
    expect(pageOf(first)).toMatchObject({ truncated: true, offset: 0 });
    expect(pageOf(first).rows).toHaveLength(7);
    expect(resultText(first)).toMatch(
      /\[truncated: the page ended at the row budget after row 7; more rows exist — call read_query again .*"cursor": "/,
    );
    const walk = await followPages(
      async (cursor: string | undefined) =>
        pageOf(await callChecked(conn, 'read_query', { query, ...(cursor ? { cursor } : {}) })),
      (page) => page.nextCursor,
    );
    const rows = walk.pages.flatMap((p) => p.rows);
    expect(rows).toHaveLength(50);
    expect(findDuplicates(rows, (r) => String(r[0]))).toEqual([]);
    expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const last = walk.pages.at(-1) as Page;
    expect(last).toMatchObject({ truncated: false, offset: 49 });
    expect(last.nextCursor).toBeUndefined();
  });

  it('ALL-05 a page ends at the byte budget with a marker saying so', async () => {
    const r = await callChecked(conn, 'read_query', {
      query: "SELECT i, printf('%.*c', 500, 'a'), printf('%.*c', 500, 'b'), printf('%.*c', 500, 'c') FROM n",
    });
    const page = pageOf(r);
    expect(page.truncated).toBe(true);
    expect(page.rows.length).toBeLessThan(7);
    expect(resultText(r)).toContain('the page ended at the byte budget');
  });

  it('cuts a value over the cell budget and states its full size', async () => {
    const r = await callChecked(conn, 'read_query', { query: 'SELECT b, z FROM big' });
    const [text, blob] = pageOf(r).rows[0] as [
      { text: string; bytes: number },
      { base64: string; bytes: number },
    ];
    expect(text).toMatchObject({ truncated: true, bytes: 300000 });
    expect(text.text.length).toBeLessThan(4096);
    expect(blob).toMatchObject({ truncated: true, bytes: 300000 });
    expect(Buffer.byteLength(resultText(r))).toBeLessThan(8192);
  });

  it('refuses a cursor issued for another query, and one it never issued', async () => {
    const first = pageOf(await callChecked(conn, 'read_query', { query: 'SELECT i FROM n ORDER BY i' }));
    const other = await callChecked(conn, 'read_query', {
      query: 'SELECT s FROM n',
      cursor: first.nextCursor,
    });
    expect(other.isError).toBe(true);
    expect(resultText(other)).toContain('cursor: it was issued for a different query');
    const forged = await callChecked(conn, 'read_query', {
      query: 'SELECT i FROM n ORDER BY i',
      cursor: 'bogus',
    });
    expect(forged.isError).toBe(true);
    expect(resultText(forged)).toContain('cursor');
  });
});

describe('list pages', () => {
  it('ALL-05 list_tables pages through every table once', async () => {
    const walk = await followPages(
      async (cursor: string | undefined) =>
        structured<{ tables: { name: string }[]; nextCursor?: string }>(
          await callChecked(conn, 'list_tables', cursor ? { cursor } : {}),
        ),
      (page) => page.nextCursor,
    );
    const names = walk.pages.flatMap((p) => p.tables.map((t) => t.name));
    expect(names).toEqual(['big', 'n', 't0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
    expect(walk.pages.length).toBe(2);
  });

  it('ALL-05 resources/list pages through the memo and every schema resource once', async () => {
    const walk = await followPages(
      (cursor: string | undefined) => conn.client.listResources(cursor ? { cursor } : {}),
      (page) => page.nextCursor,
    );
    const uris = walk.pages.flatMap((p) => p.resources.map((r) => r.uri));
    expect(uris[0]).toBe('memo://insights');
    expect(uris).toHaveLength(11);
    expect(findDuplicates(uris, (u) => u)).toEqual([]);
    await expect(conn.client.listResources({ cursor: 'bogus' })).rejects.toThrow(/cursor/i);
  });
});
