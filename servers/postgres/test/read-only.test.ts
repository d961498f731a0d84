/**
 * Read-only in effect, not only in name: statements PostgreSQL still allows in a READ ONLY
 * transaction that lock tables, leave persistent changes or do heavy maintenance I/O are refused
 * by the read tools (query, explain_query) in every mode; every call waits at most --lock-timeout
 * for a lock; shutting down with a query running prints no driver deprecation warning.
 * Through the built server, against a role that CAN do all of it (so the refusals are ours).
 */
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured } from '@refmcp/test-harness';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, db, startServer } from './support.js';

let readOnly: Connection;
let writer: Connection;
beforeAll(async () => {
  [readOnly, writer] = await Promise.all([
    startServer(),
    startServer(['--allow-writes', '--lock-timeout', '300']),
  ]);
});
afterAll(async () => {
  await Promise.all([readOnly.close(), writer.close()]);
});

const REFUSED = /^refused before it reached the database: /;

async function expectRefused(conn: Connection, tool: string, args: Record<string, unknown>, reason: RegExp) {
  const r = await callChecked(conn, tool, args);
  expect(r.isError, `${tool} ${JSON.stringify(args)}: ${resultText(r)}`).toBe(true);
  expect(resultText(r), String(args.sql)).toMatch(REFUSED);
  expect(resultText(r), String(args.sql)).toMatch(reason);
}

const analyzeCount = (table: string) =>
  asAdmin(async (c) => {
    const { rows } = await c.query(
      'SELECT analyze_count, last_analyze FROM pg_stat_user_tables WHERE relname = $1',
      [table],
    );
    return JSON.stringify(rows[0]);
  });

describe('read calls refuse what a READ ONLY transaction still allows', () => {
  it('LOCK TABLE is refused by query in the default mode and with --allow-writes', async () => {
    for (const sql of [
      'LOCK TABLE users IN ACCESS EXCLUSIVE MODE',
      'lock users',
      '/* x */ LOCK TABLE ONLY users IN ACCESS SHARE MODE NOWAIT',
    ]) {
      for (const conn of [readOnly, writer]) await expectRefused(conn, 'query', { sql }, /LOCK/);
    }
  });

  it('ANALYZE and VACUUM are refused by query and leave no trace; execute may run ANALYZE', async () => {
    const before = await analyzeCount('t');
    for (const sql of ['ANALYZE', 'ANALYZE t', 'analyze verbose t (d)', 'VACUUM t', 'VACUUM (ANALYZE) t']) {
      await expectRefused(readOnly, 'query', { sql }, /VACUUM|ANALYZE/);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(await analyzeCount('t')).toBe(before);
    const ran = await callChecked(writer, 'execute', { sql: 'ANALYZE t' });
    expect(ran.isError, resultText(ran)).toBeFalsy();
  });

  it('CLUSTER, REINDEX and CHECKPOINT are refused by query', async () => {
    await expectRefused(readOnly, 'query', { sql: 'CLUSTER orders USING orders_user_id_idx' }, /CLUSTER/);
    await expectRefused(readOnly, 'query', { sql: 'REINDEX TABLE t' }, /REINDEX/);
    await expectRefused(readOnly, 'query', { sql: 'REINDEX INDEX orders_user_id_idx' }, /REINDEX/);
    await expectRefused(readOnly, 'query', { sql: 'CHECKPOINT' }, /CHECKPOINT/);
  });

  it('advisory locks are refused by query and explain_query (they would block the application’s own locking)', async () => {
    for (const sql of [
      'SELECT pg_advisory_lock(4243)',
      'SELECT pg_try_advisory_xact_lock(1, 2)',
      'SELECT id FROM users WHERE pg_catalog.pg_advisory_xact_lock_shared(id) IS NULL LIMIT 1',
    ]) {
      await expectRefused(readOnly, 'query', { sql }, /advisory/);
    }
    await expectRefused(
      readOnly,
      'explain_query',
      { sql: 'SELECT pg_advisory_lock(4243)', analyze: true },
      /advisory/,
    );
  });

  it('SELECT … FOR UPDATE/SHARE is refused by PostgreSQL itself in the READ ONLY transaction', async () => {
    for (const strength of ['UPDATE', 'NO KEY UPDATE', 'SHARE', 'KEY SHARE']) {
      const r = await callChecked(readOnly, 'query', {
        sql: `SELECT id FROM users WHERE id = 1 FOR ${strength}`,
      });
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        new RegExp(`cannot execute SELECT FOR ${strength} in a read-only transaction \\[SQLSTATE 25006\\]`),
      );
    }
  });

  it('ordinary reads and statements undone by the rollback still run', async () => {
    for (const sql of [
      'SELECT count(*) FROM users',
      "SET work_mem = '8MB'",
      'SHOW lock_timeout',
      "NOTIFY refmcp_channel, 'x'",
      'EXPLAIN SELECT * FROM users WHERE id = 1',
    ]) {
      const r = await callChecked(readOnly, 'query', { sql });
      expect(r.isError, `${sql}: ${resultText(r)}`).toBeFalsy();
    }
  });
});

describe('EXPLAIN of a write or of SELECT … FOR UPDATE/SHARE takes no lock in a read call', () => {
  // A table of this describe's own: holding a lock on it stalls no other test.
  const TABLE = 'plan_lock';
  const WRITES = [
    `UPDATE ${TABLE} SET v = 'x'`,
    `DELETE FROM ${TABLE}`,
    `INSERT INTO ${TABLE} VALUES (2, 'b')`,
    `MERGE INTO ${TABLE} p USING (VALUES (1)) s(id) ON p.id = s.id WHEN MATCHED THEN DELETE`,
    `SELECT * FROM ${TABLE} FOR UPDATE`,
    `SELECT * FROM ${TABLE} FOR NO KEY UPDATE`,
    `SELECT * FROM ${TABLE} FOR SHARE`,
    `SELECT * FROM ${TABLE} FOR KEY SHARE`,
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM ${TABLE} FOR UPDATE)`,
    `WITH x AS (SELECT * FROM ${TABLE} FOR SHARE) SELECT * FROM x`,
    `WITH d AS (DELETE FROM ${TABLE} RETURNING *) SELECT * FROM d`,
  ];
  const EXPLAINING =
    /explaining (INSERT|UPDATE|DELETE|MERGE|SELECT … FOR [A-Z ]+) plans it, and planning it takes the write's table locks/;

  beforeAll(async () => {
    await asAdmin(async (c) => {
      await c.query(`CREATE TABLE ${TABLE} (id int PRIMARY KEY, v text)`);
      await c.query(`INSERT INTO ${TABLE} VALUES (1, 'a')`);
      await c.query(`ALTER TABLE ${TABLE} OWNER TO ${db().role}`);
    });
  });
  afterAll(async () => {
    await asAdmin((c) => c.query(`DROP TABLE IF EXISTS ${TABLE}`));
  });

  it('explain_query refuses them on a read-only server (with or without analyze), and plans them with --allow-writes', async () => {
    for (const sql of WRITES) {
      await expectRefused(readOnly, 'explain_query', { sql }, EXPLAINING);
      await expectRefused(
        readOnly,
        'explain_query',
        { sql },
        /needs --allow-writes: this server is read-only/,
      );
    }
    await expectRefused(readOnly, 'explain_query', { sql: WRITES[0], analyze: true }, EXPLAINING);
    for (const sql of [`UPDATE ${TABLE} SET v = 'x'`, `SELECT * FROM ${TABLE} FOR UPDATE`]) {
      const planned = await callChecked(writer, 'explain_query', { sql });
      expect(planned.isError, `${sql}: ${resultText(planned)}`).toBeFalsy();
    }
    const plain = await callChecked(readOnly, 'explain_query', {
      sql: `SELECT * FROM ${TABLE} WHERE id = 1`,
    });
    expect(plain.isError, resultText(plain)).toBeFalsy();
    expect(await asAdmin(async (c) => (await c.query(`SELECT v FROM ${TABLE}`)).rows)).toEqual([{ v: 'a' }]);
  });

  it('query refuses an EXPLAIN of them in every mode, pointing to explain_query where writes are enabled', async () => {
    for (const target of WRITES) {
      for (const sql of [`EXPLAIN ${target}`, `explain (analyze, costs off) ${target}`]) {
        await expectRefused(readOnly, 'query', { sql }, EXPLAINING);
        await expectRefused(writer, 'query', { sql }, /explain_query explains writes on this server/);
      }
    }
    const plain = await callChecked(readOnly, 'query', { sql: `EXPLAIN SELECT * FROM ${TABLE}` });
    expect(plain.isError, resultText(plain)).toBeFalsy();
  });

  it('a refused EXPLAIN answers at once while another session holds LOCK TABLE … IN SHARE MODE', async () => {
    const holder = await asAdminClient();
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${TABLE} IN SHARE MODE`);
      // Control: planning the UPDATE does take ROW EXCLUSIVE, so where it is allowed it waits for
      // the SHARE lock (here until the writer's 300 ms lock timeout).
      const waited = await callChecked(writer, 'explain_query', { sql: `UPDATE ${TABLE} SET v = 'x'` });
      expect(waited.isError).toBe(true);
      expect(resultText(waited)).toMatch(/lock timeout \[SQLSTATE 55P03\]/);
      // The read-only server's calls wait up to 5 s for a lock: a refusal never waits at all.
      for (const [tool, sql] of [
        ['explain_query', `UPDATE ${TABLE} SET v = 'x'`],
        ['explain_query', `SELECT * FROM ${TABLE} FOR UPDATE`],
        ['query', `EXPLAIN DELETE FROM ${TABLE}`],
        ['query', `EXPLAIN INSERT INTO ${TABLE} VALUES (3, 'c')`],
        ['query', `EXPLAIN SELECT * FROM ${TABLE} FOR KEY SHARE`],
      ] as const) {
        const r = await callChecked(readOnly, tool, { sql });
        expect(r.isError, sql).toBe(true);
        expect(resultText(r), sql).toMatch(REFUSED);
        expect(resultText(r), sql).not.toMatch(/55P03/);
      }
      // Nothing of ours is left waiting on the table: only the holder has locks on it.
      const others = await asAdmin(async (c) => {
        const { rows } = await c.query(
          'SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND pid <> $2',
          [TABLE, (holder as unknown as { processID: number }).processID],
        );
        return rows[0].n as number;
      });
      expect(others).toBe(0);
      // A read of the table is compatible with SHARE: it still runs.
      const read = await callChecked(readOnly, 'query', { sql: `SELECT v FROM ${TABLE}` });
      expect(structured(read)).toMatchObject({ rows: [['a']] });
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });
});

describe('transaction IDs', () => {
  it('txid_current() and pg_current_xact_id() are refused by read calls; _if_assigned and snapshots run', async () => {
    for (const sql of [
      'SELECT txid_current()',
      'SELECT pg_catalog.pg_current_xact_id()',
      'SELECT id FROM users WHERE id = txid_current() % 2',
    ]) {
      for (const conn of [readOnly, writer])
        await expectRefused(conn, 'query', { sql }, /transaction ID, which is used up for good/);
    }
    await expectRefused(
      readOnly,
      'explain_query',
      { sql: 'SELECT pg_current_xact_id()', analyze: true },
      /pg_current_xact_id: it assigns/,
    );
    const r = await callChecked(readOnly, 'query', {
      sql:
        'SELECT txid_current_if_assigned() AS a, pg_current_xact_id_if_assigned()::text AS b, ' +
        'txid_current_snapshot() IS NOT NULL AS c, pg_current_snapshot() IS NOT NULL AS d',
    });
    expect(r.isError, resultText(r)).toBeFalsy();
    // A read call's transaction never gets an ID of its own.
    expect(structured(r)).toMatchObject({ rows: [[null, null, true, true]] });
    // Where writes are enabled, execute (a write transaction, which gets an ID anyway) runs it.
    const executed = await callChecked(writer, 'execute', { sql: 'SELECT txid_current()' });
    expect(executed.isError, resultText(executed)).toBeFalsy();
  });
});

describe('lock timeout', () => {
  it('every call runs with lock_timeout (default 5 s; --lock-timeout sets it)', async () => {
    const show = async (conn: Connection) =>
      structured<{ rows: unknown[][] }>(await callChecked(conn, 'query', { sql: 'SHOW lock_timeout' }))
        .rows[0]?.[0];
    expect(await show(readOnly)).toBe('5s');
    expect(await show(writer)).toBe('300ms');
  });

  it('a LOCK waiting behind a slow reader gives up at the lock timeout, so other readers are not stalled', async () => {
    // A slow reader holds ACCESS SHARE on users (an open transaction that read it).
    const holder = await asAdminClient();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM users LIMIT 1');
      const lock = callChecked(writer, 'execute', { sql: 'LOCK TABLE users IN ACCESS EXCLUSIVE MODE' });
      await new Promise((r) => setTimeout(r, 100));
      // Queued behind the waiting ACCESS EXCLUSIVE request: stalled until the LOCK gives up.
      const read = await callChecked(readOnly, 'query', { sql: 'SELECT name FROM users WHERE id = 1' });
      const locked = await lock;
      expect(read.isError, resultText(read)).toBeFalsy();
      expect(locked.isError).toBe(true);
      expect(resultText(locked)).toMatch(/lock timeout \[SQLSTATE 55P03\].*300 ms.*--lock-timeout/);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
  });
});

describe('shutdown', () => {
  it('closing with a query running cancels it without a driver deprecation warning on stderr', async () => {
    const conn = await startServer();
    const pending = callChecked(conn, 'query', { sql: 'SELECT pg_sleep(5)' }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    await conn.close();
    await pending;
    expect(conn.stderr()).not.toMatch(/DeprecationWarning/);
  });
});

/** A superuser connection kept open (to hold a lock across calls). */
async function asAdminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db().adminUrl });
  await client.connect();
  return client;
}
