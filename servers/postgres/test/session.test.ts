/**
 * Nothing of one call reaches the next: each call runs in its own transaction on a pooled
 * connection that is reset (ROLLBACK or COMMIT, then what DISCARD ALL would do) before reuse. With --pool-size 1
 * every call below runs on the same backend, so a leak would show.
 */
import { randomBytes } from 'node:crypto';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured } from '@refmcp/test-harness';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, db, startServer } from './support.js';

let conn: Connection;
beforeAll(async () => {
  conn = await startServer(['--allow-writes', '--pool-size', '1']);
});
afterAll(() => conn.close());

async function value(sql: string): Promise<unknown> {
  const r = await callChecked(conn, 'query', { sql });
  expect(r.isError, `${sql}: ${resultText(r)}`).toBeFalsy();
  return structured<{ rows: unknown[][] }>(r).rows[0]?.[0];
}

async function run(tool: 'query' | 'execute', sql: string): Promise<void> {
  const r = await callChecked(conn, tool, { sql });
  expect(r.isError, `${tool} ${sql}: ${resultText(r)}`).toBeFalsy();
}

describe('no state leaks between calls', () => {
  it('every query runs in a READ ONLY transaction with the statement timeout set', async () => {
    expect(await value("SELECT current_setting('transaction_read_only')")).toBe('on');
    expect(await value("SELECT current_setting('statement_timeout')")).toBe('30s');
    expect(await value('SELECT now() = statement_timestamp()')).toBe(false); // inside an explicit transaction
  });

  it('settings, temp tables, prepared statements, locks, LISTEN and session characteristics do not survive', async () => {
    const pid = await value('SELECT pg_backend_pid()');
    await run('execute', 'SET search_path = sales');
    await run('execute', 'CREATE TEMP TABLE leak (x int)');
    await run('execute', 'SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE');
    await run('query', 'PREPARE leak_stmt AS SELECT 1');
    // The query tool refuses advisory locks (read-rules.ts), but an existing function can take one.
    await run(
      'execute',
      "CREATE FUNCTION take_lock() RETURNS void LANGUAGE sql AS 'SELECT pg_advisory_lock(4242)'",
    );
    await run('query', 'SELECT take_lock()');
    await run('execute', 'SELECT pg_advisory_lock(4243)');
    await run('query', 'LISTEN leak_channel');
    await run('query', "SET application_name = 'leaked'");

    expect(await value('SELECT pg_backend_pid()')).toBe(pid); // same connection throughout
    expect(await value("SELECT current_setting('search_path')")).toBe('"$user", public');
    expect(await value("SELECT to_regclass('leak')")).toBeNull();
    expect(await value('SELECT count(*) FROM pg_prepared_statements')).toBe('0');
    expect(await value('SELECT count(*) FROM pg_listening_channels()')).toBe('0');
    expect(await value("SELECT current_setting('application_name')")).toBe('mcp-server-postgres');
    expect(await value("SELECT current_setting('default_transaction_read_only')")).toBe('on');
    const locks = await asAdmin(
      async (c) =>
        (await c.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid IN (4242, 4243)"))
          .rows[0].count,
    );
    expect(locks).toBe('0');
    // And the next query is still read-only.
    const write = await callChecked(conn, 'query', { sql: 'CREATE TABLE leak2 (x int)' });
    expect(resultText(write)).toMatch(/read-only transaction/);
  });

  it('setseed is refused in both tools: the next call’s random() is not the seeded sequence', async () => {
    // What random() gives after setseed(0.5) on any backend (the seeded sequence is deterministic).
    const seeded = await asAdmin(async (c) => {
      await c.query('SELECT setseed(0.5)');
      return (await c.query('SELECT random() AS r')).rows[0].r as number;
    });
    for (const tool of ['query', 'execute'] as const) {
      const r = await callChecked(conn, tool, { sql: 'SELECT setseed(0.5)' });
      expect(r.isError, resultText(r)).toBe(true);
      expect(resultText(r)).toMatch(/setseed: sets the seed of random\(\) for the whole session/);
      expect(await value('SELECT random()')).not.toBe(seeded);
    }
  });

  it('calls waiting for the one connection (each handed the previous read unreset) see nothing of the calls before them', async () => {
    await run(
      'execute',
      "CREATE OR REPLACE FUNCTION take_burst_lock() RETURNS void LANGUAGE sql AS 'SELECT pg_advisory_lock(4244)'",
    );
    const leaks = [
      'PREPARE burst_stmt AS SELECT 1',
      'SELECT take_burst_lock()',
      "SET application_name = 'burst'",
      'LISTEN burst_channel',
      'SELECT 1/0', // a failed read: its transaction is left aborted
    ];
    const checks: [string, unknown][] = [
      ['SELECT count(*) FROM pg_prepared_statements', '0'],
      [
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND objid = 4244",
        '0',
      ],
      ["SELECT current_setting('application_name')", 'mcp-server-postgres'],
      ['SELECT count(*) FROM pg_listening_channels()', '0'],
      [
        "SELECT current_setting('transaction_isolation') || ' ' || current_setting('transaction_read_only')",
        'repeatable read on',
      ],
      ['SELECT now() = statement_timestamp()', false],
    ];
    // A next page (cursor) runs as DECLARE … MOVE … FETCH after an opening of its own (not inline).
    const paged =
      "SELECT x FROM (VALUES ('a'), ('b')) v(x) UNION ALL SELECT count(*)::text FROM pg_prepared_statements";
    const cursor = structured<{ nextCursor?: string }>(
      await callChecked(conn, 'query', { sql: paged, maxRows: 2 }),
    ).nextCursor;
    expect(cursor).toBeTruthy();
    // Sent at once: with --pool-size 1 all but one wait, so each read hands the connection over.
    const calls: Promise<[string, unknown, string | undefined]>[] = [];
    for (let round = 0; round < 4; round++) {
      for (const sql of leaks) {
        calls.push(callChecked(conn, 'query', { sql }).then((r) => [sql, undefined, resultText(r)]));
        // Sent right behind the PREPARE, so it is usually the call handed that connection.
        if (sql.startsWith('PREPARE'))
          calls.push(
            callChecked(conn, 'query', { sql: paged, maxRows: 2, cursor }).then((r) => {
              expect(r.isError, resultText(r)).toBeFalsy();
              return [`${paged} (next page)`, '0', String(structured<{ rows: unknown[][] }>(r).rows[0]?.[0])];
            }),
          );
      }
      for (const [sql, expected] of checks)
        calls.push(
          callChecked(conn, 'query', { sql }).then((r) => {
            expect(r.isError, `${sql}: ${resultText(r)}`).toBeFalsy();
            return [sql, expected, String(structured<{ rows: unknown[][] }>(r).rows[0]?.[0])];
          }),
        );
    }
    // The schema tools' catalog reads open their transaction the same way.
    const others = Array.from({ length: 4 }, () => callChecked(conn, 'list_schemas', {}));
    for (const r of await Promise.all(others)) expect(r.isError, resultText(r)).toBeFalsy();
    for (const [sql, expected, got] of await Promise.all(calls)) {
      if (expected === undefined && sql === 'SELECT 1/0') expect(got).toMatch(/division by zero/);
      else if (expected !== undefined) expect(got, sql).toBe(String(expected));
    }
    const locks = await asAdmin(
      async (c) =>
        (await c.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4244")).rows[0]
          .count,
    );
    expect(locks).toBe('0');
  });

  it('a failed call leaves no aborted transaction behind', async () => {
    const bad = await callChecked(conn, 'query', { sql: 'SELECT 1/0' });
    expect(resultText(bad)).toMatch(/division by zero \[SQLSTATE 22012\]/);
    expect(await value('SELECT 7')).toBe(7);
  });
});

describe('a session reset that fails', () => {
  it('closes its connection and the call runs again on another: every call of a burst answers', async () => {
    // A database where the reset's pg_advisory_unlock_all() is refused to every role but superusers.
    const name = `refmcp_noreset_${randomBytes(4).toString('hex')}`;
    await asAdmin((c) => c.query(`CREATE DATABASE ${name}`));
    const adminUrl = new URL(db().adminUrl);
    adminUrl.pathname = `/${name}`;
    const url = new URL(db().url);
    url.pathname = `/${name}`;
    try {
      const admin = new pg.Client({ connectionString: adminUrl.href });
      await admin.connect();
      try {
        await admin.query('REVOKE EXECUTE ON FUNCTION pg_advisory_unlock_all() FROM PUBLIC');
      } finally {
        await admin.end();
      }
      const server = await startServer(['--pool-size', '2'], { url: url.href });
      try {
        // Sent at once: most wait for a connection, so reads hand theirs over and the reset fails.
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) => callChecked(server, 'query', { sql: `SELECT ${i} AS n` })),
        );
        for (const [i, r] of results.entries()) {
          expect(r.isError, resultText(r)).toBeFalsy();
          expect(structured<{ rows: unknown[][] }>(r).rows[0]?.[0]).toBe(i);
        }
        expect(server.stderr()).toMatch(
          /the connection could not be reset: permission denied for function pg_advisory_unlock_all; reads now reset/,
        );
      } finally {
        await server.close();
      }
    } finally {
      await asAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  });
});
