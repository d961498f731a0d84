/**
 * The handed cases PG-01 … PG-06 (shared/cases/postgres.md), through the built server over stdio,
 * against a real PostgreSQL, connected as a role that CAN write.
 */
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { USERS } from './fixtures.js';
import { asAdmin, startServer } from './support.js';

let conn: Connection;
beforeAll(async () => {
  conn = await startServer(['--statement-timeout', '1500']);
});
afterAll(() => conn.close());

const userCount = () =>
  asAdmin(async (c) => Number((await c.query('SELECT count(*) FROM users')).rows[0].count));
const tableExists = (name: string) =>
  asAdmin(async (c) => (await c.query('SELECT to_regclass($1) AS r', [name])).rows[0].r !== null);

/** How many of this server's backends are running a statement now (pg_stat_activity), as text. */
const activeServerQueries = () =>
  asAdmin(
    async (c) =>
      (
        await c.query(
          "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'mcp-server-postgres' AND state = 'active' AND datname = current_database()",
        )
      ).rows[0].count as string,
  );

/** The session is still read-only: a plain write fails in the database with the read-only error. */
async function stillReadOnly(): Promise<void> {
  const r = await callChecked(conn, 'query', {
    sql: 'INSERT INTO users (id, name) VALUES (424242, $1)',
    params: ['x'],
  });
  expect(r.isError).toBe(true);
  expect(resultText(r)).toMatch(/read-only transaction/);
}

describe('PostgreSQL cases', () => {
  it('PG-01 multi-statement escape is refused; no state leaks; trailing comments work', async () => {
    const before = await userCount();
    for (const [sql, n] of [
      ['COMMIT; DROP TABLE users;', 2],
      ['SELECT 1; COMMIT; INSERT INTO users(id) VALUES (999)', 3],
    ] as const) {
      const r = await callChecked(conn, 'query', { sql });
      expect(r.isError, sql).toBe(true);
      // PostgreSQL's parser counts the statements before anything is sent (and the extended
      // protocol would refuse them too: protocol.test.ts proves that second layer).
      expect(resultText(r)).toMatch(new RegExp(`one statement per call: this SQL holds ${n} statements`));
      await stillReadOnly();
    }
    expect(await tableExists('users')).toBe(true);
    expect(await userCount()).toBe(before);
    const ok = await callChecked(conn, 'query', { sql: 'SELECT 1 AS one -- trailing comment' });
    expect(ok.isError).toBeFalsy();
    expect(structured<{ rows: unknown[][] }>(ok).rows).toEqual([[1]]);
  });

  it('PG-02 disguised writes fail in the database (READ ONLY transaction), not in a keyword filter', async () => {
    const before = await userCount();
    const cases: [string, RegExp][] = [
      // PostgreSQL names the top-level command of a statement with a data-modifying WITH (SELECT).
      [
        'WITH d AS (DELETE FROM users RETURNING 1) SELECT count(*) FROM d',
        /cannot execute SELECT in a read-only transaction/,
      ],
      ["/* x */ UPDATE users SET name='x'", /cannot execute UPDATE in a read-only transaction/],
      ['-- x\nDROP TABLE users', /cannot execute DROP TABLE in a read-only transaction/],
    ];
    for (const [sql, error] of cases) {
      const r = await callChecked(conn, 'query', { sql });
      expect(r.isError, sql).toBe(true);
      // PostgreSQL's own message and SQLSTATE 25006 (read_only_sql_transaction).
      expect(resultText(r), sql).toMatch(error);
      expect(resultText(r), sql).toMatch(/SQLSTATE 25006/);
    }
    expect(await userCount()).toBe(before);
    expect(
      await asAdmin(
        async (c) => (await c.query("SELECT count(*) FROM users WHERE name = 'x'")).rows[0].count,
      ),
    ).toBe('0');
  });

  it('PG-03 read-only is the default; writes need an explicit opt-in; descriptions state the mode', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('execute');
    for (const t of tools) expect(t.description, t.name).toMatch(/read-only/i);
    const r = await callChecked(conn, 'query', { sql: 'CREATE TABLE pg03 (id int)' });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(/read-only/);
    expect(await tableExists('pg03')).toBe(false);

    const writer = await startServer(['--allow-writes']);
    try {
      const list = await writer.client.listTools();
      const execute = list.tools.find((t) => t.name === 'execute');
      expect(execute?.description).toMatch(/writes enabled/);
      expect(list.tools.find((t) => t.name === 'query')?.description).toMatch(/writes enabled/);
      const created = await callChecked(writer, 'execute', { sql: 'CREATE TABLE pg03 (id int)' });
      expect(created.isError, resultText(created)).toBeFalsy();
      expect(await tableExists('pg03')).toBe(true);
      // Even with writes enabled, query stays read-only.
      const viaQuery = await callChecked(writer, 'query', { sql: 'DROP TABLE pg03' });
      expect(viaQuery.isError).toBe(true);
      expect(await tableExists('pg03')).toBe(true);
      await callChecked(writer, 'execute', { sql: 'DROP TABLE pg03' });
    } finally {
      await writer.close();
    }
  });

  it('PG-04 legitimate reads pass: ordered-set aggregates, nested CTEs, window frames', async () => {
    const percentile = await callChecked(conn, 'query', {
      sql: 'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS median FROM t',
    });
    expect(percentile.isError, resultText(percentile)).toBeFalsy();
    expect(structured<{ rows: unknown[][] }>(percentile).rows).toEqual([[5]]);

    const nested = await callChecked(conn, 'query', {
      sql: `WITH a AS (SELECT id FROM users WHERE id <= 10),
                 b AS (WITH c AS (SELECT id * 2 AS x FROM a) SELECT sum(x) AS s FROM c)
            SELECT s FROM b`,
    });
    expect(nested.isError, resultText(nested)).toBeFalsy();
    expect(structured<{ rows: unknown[][] }>(nested).rows).toEqual([['110']]); // sum(bigint) is numeric: exact string

    const window = await callChecked(conn, 'query', {
      sql: 'SELECT d, sum(d) OVER (ORDER BY d ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM t ORDER BY d',
    });
    expect(window.isError, resultText(window)).toBeFalsy();
    expect(structured<{ rows: unknown[][] }>(window).rows.slice(0, 4)).toEqual([
      [1, 1],
      [2, 3],
      [3, 6],
      [4, 9],
    ]);
  });

  it('PG-05 a runaway query stops at the statement timeout, naming it; other calls are not blocked', async () => {
    let slowSettled = false;
    const slow = callChecked(conn, 'query', { sql: 'SELECT pg_sleep(600)' }).finally(() => {
      slowSettled = true;
    });
    // The quick query goes out once the sleep is running, and is answered while it still runs.
    await vi.waitFor(async () => expect(await activeServerQueries()).toBe('1'), {
      timeout: 20_000,
      interval: 20,
    });
    const quick = await callChecked(conn, 'query', { sql: 'SELECT 42 AS answer' });
    expect(slowSettled).toBe(false);
    expect(structured<{ rows: unknown[][] }>(quick).rows).toEqual([[42]]);
    const r = await slow;
    expect(r.isError).toBe(true);
    expect(resultText(r)).toMatch(/timed out after 1500 ms/);
    expect(resultText(r)).toMatch(/statement-timeout/);
    // No backend is left running the sleep.
    expect(await activeServerQueries()).toBe('0');
  });

  it('PG-06 a big result is a bounded page with "truncated, N more", streamed (not loaded whole)', async () => {
    const r = await callChecked(conn, 'query', { sql: 'SELECT * FROM users' });
    expect(r.isError, resultText(r)).toBeFalsy();
    const page = structured<{
      rows: unknown[][];
      moreRows: number;
      moreRowsExact: boolean;
      nextCursor: string;
      truncated: boolean;
    }>(r);
    expect(page.rows.length).toBe(1000);
    expect(page.truncated).toBe(true);
    expect(page.moreRows).toBe(USERS - 1000);
    expect(page.moreRowsExact).toBe(true);
    expect(resultText(r)).toContain(`[truncated: rows 1–1000 shown, ${USERS - 1000} more;`);
    expect(Buffer.byteLength(resultText(r))).toBeLessThan(256 * 1024 * 2);
    // The byte budget binds too: wide rows stop the page early, still with an exact count.
    const wide = await callChecked(conn, 'query', { sql: "SELECT id, repeat('x', 2000) AS pad FROM users" });
    const widePage = structured<{ rows: unknown[][]; moreRows: number }>(wide);
    expect(widePage.rows.length * 2000).toBeLessThanOrEqual(256 * 1024);
    expect(widePage.rows.length).toBeGreaterThan(100);
    expect(widePage.rows.length + widePage.moreRows).toBe(USERS);
    // Streaming: the server process never held the 100k rows (~10 MB as JSON, much more as JS objects).
    const status = await import('node:fs/promises').then((fs) =>
      fs.readFile(`/proc/${conn.pid}/status`, 'utf8'),
    );
    const rssMiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
    expect(rssMiB).toBeLessThan(120);
  });
});
