/**
 * What results look like: exact types, the text table, paging with cursors (server-side cursor and
 * portal paths), and execute's results.
 */
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, startServer } from './support.js';

interface Page {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  nextCursor?: string;
  moreRows?: number;
  truncated: boolean;
  command?: string;
  rowCount?: number;
  firstRow: number;
}

let conn: Connection;
beforeAll(async () => {
  conn = await startServer(['--allow-writes']);
});
afterAll(() => conn.close());

describe('exact types', () => {
  it('bigint, numeric, dates, intervals, bytea, json, arrays, NaN come back without loss', async () => {
    const r = await callChecked(conn, 'query', { sql: 'SELECT * FROM exact_types' });
    expect(r.isError, resultText(r)).toBeFalsy();
    const page = structured<Page>(r);
    const row = Object.fromEntries(page.columns.map((c, i) => [c.name, page.rows[0]?.[i]]));
    expect(row).toMatchObject({
      big: '9223372036854775807',
      num: '12345678901234567890.123456789',
      small_num: '123.45',
      d: '2024-02-29',
      ts: '2024-02-29 13:14:15.123456',
      iv: '1 year 2 mons 3 days 04:05:06',
      raw: Buffer.from('deadbeef00', 'hex').toString('base64'),
      // A number a JS double would round: kept as the exact JSON text.
      j: '{"a": 1, "big": 12345678901234567890}',
      jb: { b: [1, 2.5, null], s: 'x' },
      arr: [1, 2, 3],
      nums: ['1.10', '99999999999999999999.5'],
      f: 'NaN',
      flag: true,
      u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      note: 'line one\nline two | with a pipe',
    });
    expect(String(row.tstz)).toMatch(/^2024-02-29 \d\d:14:15[+-]\d\d/);
    const types = Object.fromEntries(page.columns.map((c) => [c.name, c.type]));
    expect(types).toMatchObject({
      big: 'bigint',
      num: 'numeric',
      small_num: 'numeric(5,2)',
      tstz: 'timestamp with time zone',
      raw: 'bytea',
      jb: 'jsonb',
      arr: 'integer[]',
      nums: 'numeric[]',
    });
    // The text table keeps each row on one line.
    expect(resultText(r)).toContain('line one\\nline two \\| with a pipe');
  });

  it('parameters are bound, not spliced: exact big values in, exact values out', async () => {
    const r = await callChecked(conn, 'query', {
      sql: 'SELECT $1::bigint + 1 AS next, $2::numeric * 2 AS twice, $3::text AS quote, $4::int IS NULL AS isnull',
      params: ['9223372036854775806', '0.1', "Robert'); DROP TABLE users;--", null],
    });
    expect(r.isError, resultText(r)).toBeFalsy();
    expect(structured<Page>(r).rows[0]).toEqual([
      '9223372036854775807',
      '0.2',
      "Robert'); DROP TABLE users;--",
      true,
    ]);
    const missing = await callChecked(conn, 'query', { sql: 'SELECT $1::int' });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toMatch(/params/);
  });
});

describe('paging', () => {
  it('a query pages through a cursor: every row once, in order, then no cursor', async () => {
    const sql = 'SELECT id FROM users WHERE id <= $1 ORDER BY id';
    const params = [1000];
    const ids: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await callChecked(conn, 'query', {
        sql,
        params,
        maxRows: 300,
        ...(cursor ? { cursor } : {}),
      });
      expect(r.isError, resultText(r)).toBeFalsy();
      const page = structured<Page>(r);
      expect(page.firstRow).toBe(ids.length + 1);
      ids.push(...page.rows.map((row) => row[0]));
      if (page.nextCursor) expect(page.moreRows).toBe(1000 - ids.length);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => String(i + 1)));
  });

  it('statements that are not queries page through a portal (SHOW ALL)', async () => {
    const whole = await callChecked(conn, 'query', { sql: 'SHOW ALL' });
    const all = structured<Page>(whole).rows.length;
    expect(structured<Page>(whole).truncated).toBe(false);
    expect(all).toBeGreaterThan(250);
    const names: unknown[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const r = await callChecked(conn, 'query', {
        sql: 'SHOW ALL',
        maxRows: 100,
        ...(cursor ? { cursor } : {}),
      });
      expect(r.isError, resultText(r)).toBeFalsy();
      const page = structured<Page>(r);
      names.push(...page.rows.map((row) => row[0]));
      cursor = page.nextCursor;
      if (!cursor) break;
      expect(resultText(r)).toMatch(/\[truncated: rows \d+–\d+ shown, \d+ more;/);
    }
    expect(names.length).toBe(all);
    expect(new Set(names).size).toBe(all);
  });

  it('a cursor only continues the statement it came from', async () => {
    const first = await callChecked(conn, 'query', { sql: 'SELECT id FROM users', maxRows: 5 });
    const cursor = structured<Page>(first).nextCursor;
    expect(cursor).toBeTruthy();
    const other = await callChecked(conn, 'query', { sql: 'SELECT name FROM users', cursor });
    expect(other.isError).toBe(true);
    expect(resultText(other)).toMatch(/^cursor: /);
    const forged = await callChecked(conn, 'query', {
      sql: 'SELECT id FROM users',
      cursor: 'bm90LWEtY3Vyc29y',
    });
    expect(forged.isError).toBe(true);
    expect(resultText(forged)).toMatch(/cursor/);
  });
});

describe('execute', () => {
  it('commits one statement and reports the affected rows; RETURNING is bounded with an exact count', async () => {
    await callChecked(conn, 'execute', { sql: 'CREATE TABLE exec_t (id int PRIMARY KEY, v text)' });
    const ins = await callChecked(conn, 'execute', {
      sql: 'INSERT INTO exec_t SELECT g, $1 FROM generate_series(1, 2500) g',
      params: ['v'],
    });
    expect(ins.isError, resultText(ins)).toBeFalsy();
    expect(structured<Page>(ins)).toMatchObject({ command: 'INSERT', rowCount: 2500 });
    expect(resultText(ins)).toMatch(/2500 row\(s\) affected/);
    const upd = await callChecked(conn, 'execute', { sql: "UPDATE exec_t SET v = 'w' RETURNING id" });
    const page = structured<Page>(upd);
    expect(page.rows.length).toBe(1000);
    expect(page).toMatchObject({ command: 'UPDATE', rowCount: 2500, moreRows: 1500, truncated: true });
    expect(page.nextCursor).toBeUndefined(); // a write is never re-run to page
    const committed = await asAdmin(
      async (c) => (await c.query("SELECT count(*) FROM exec_t WHERE v = 'w'")).rows[0].count,
    );
    expect(committed).toBe('2500');
    const failed = await callChecked(conn, 'execute', {
      sql: 'INSERT INTO exec_t VALUES (1, $1)',
      params: ['dup'],
    });
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toMatch(
      /duplicate key value violates unique constraint "exec_t_pkey" \[SQLSTATE 23505\]/,
    );
    await callChecked(conn, 'execute', { sql: 'DROP TABLE exec_t' });
  });
});
