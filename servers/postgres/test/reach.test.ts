/**
 * Outside reach is refused in every mode — proven against a role that CAN do all of it (it holds
 * pg_execute_server_program, pg_read_server_files, pg_write_server_files and pg_signal_backend),
 * so the refusal is our server's (PostgreSQL's parse tree, checked before anything is sent).
 */
import { existsSync, rmSync } from 'node:fs';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, db, startServer } from './support.js';

const MARKER = `/tmp/refmcp-reach-${process.pid}`;

let readOnly: Connection;
let writer: Connection;
beforeAll(async () => {
  [readOnly, writer] = await Promise.all([startServer(), startServer(['--allow-writes'])]);
});
afterAll(async () => {
  await Promise.all([readOnly.close(), writer.close()]);
  rmSync(MARKER, { force: true });
});

const OUTSIDE = [
  `COPY (SELECT 1) TO PROGRAM 'touch ${MARKER}'`,
  `COPY users TO '${MARKER}'`,
  "SELECT pg_read_file('/etc/hostname')",
  'SELECT "pg_read_file"(\'/etc/hostname\')',
  "/* x */ SELECT pg_catalog.pg_read_binary_file('/etc/hostname')",
  "SELECT * FROM pg_ls_dir('.')",
  "WITH a AS (SELECT * FROM (SELECT pg_read_file('/etc/hostname')) s) SELECT * FROM a",
  'SELECT U&"\\0070g_read_file"(\'/etc/hostname\')',
  "SELECT lo_import('/etc/hostname')",
  `SELECT lo_export(1, '${MARKER}')`,
  "SELECT query_to_xml('SELECT pg_read_file(''/etc/hostname'')', true, true, '')",
  "SELECT set_config('role', 'postgres', false)",
  'SET ROLE postgres',
  'SET SESSION AUTHORIZATION postgres',
  'DO $$ BEGIN PERFORM 1; END $$',
  "LOAD 'plpgsql'",
  'SELECT pg_terminate_backend(pg_backend_pid())',
  "PREPARE TRANSACTION 'refmcp'",
  "ALTER SYSTEM SET work_mem = '1MB'",
  'CREATE EXTENSION IF NOT EXISTS dblink',
];

describe('outside reach', () => {
  it('the test role really could reach outside (so the refusals below are ours)', async () => {
    await asAdmin(async (c) => {
      await c.query(`SET ROLE ${db().role}`);
      await c.query(`COPY (SELECT 1) TO PROGRAM 'cat >/dev/null'`);
      const file = await c.query("SELECT length(pg_read_file('PG_VERSION')) > 0 AS ok");
      expect(file.rows[0].ok).toBe(true);
      const dir = await c.query("SELECT count(*) > 0 AS ok FROM pg_ls_dir('.')");
      expect(dir.rows[0].ok).toBe(true);
    });
  });

  it('is refused by query in the default (read-only) mode, before reaching the database', async () => {
    for (const sql of OUTSIDE) {
      const r = await callChecked(readOnly, 'query', { sql });
      expect(r.isError, sql).toBe(true);
      expect(resultText(r), sql).toMatch(/^refused before it reached the database: .+PostgreSQL docs: /);
    }
    expect(existsSync(MARKER)).toBe(false);
  });

  it('is refused by execute and query with --allow-writes too, including through function bodies', async () => {
    const definitions = [
      "CREATE FUNCTION reach1() RETURNS text LANGUAGE sql AS $$ SELECT pg_read_file('/etc/hostname') $$",
      `CREATE FUNCTION reach2() RETURNS void LANGUAGE plpgsql AS $f$ BEGIN EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch ${MARKER}'''; END $f$`,
      "CREATE FUNCTION reach3() RETURNS void LANGUAGE plpython3u AS 'pass'",
      `CREATE FUNCTION reach4(c text) RETURNS void LANGUAGE plpgsql AS $f$ BEGIN EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', c); END $f$`,
      "CREATE FUNCTION reach5() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT length(pg_read_file('/etc/hostname')); END",
    ];
    for (const sql of [...OUTSIDE, ...definitions]) {
      for (const tool of ['execute', 'query']) {
        const r = await callChecked(writer, tool, { sql });
        expect(r.isError, `${tool}: ${sql}`).toBe(true);
        expect(resultText(r), `${tool}: ${sql}`).toMatch(/^refused before it reached the database/);
      }
    }
    expect(existsSync(MARKER)).toBe(false);
    const made = await asAdmin(
      async (c) => (await c.query("SELECT count(*) FROM pg_proc WHERE proname LIKE 'reach%'")).rows[0].count,
    );
    expect(made).toBe('0');
  });

  it('warns on stderr that the role can reach outside, advising a least-privilege role', async () => {
    await callChecked(readOnly, 'query', { sql: 'SELECT 1' });
    expect(readOnly.stderr()).toMatch(/pg_execute_server_program.*least-privilege role/s);
  });

  it('ordinary SQL that mentions such names as data is not refused', async () => {
    const r = await callChecked(readOnly, 'query', {
      sql: "SELECT 'pg_read_file' AS name, 'COPY x TO PROGRAM' AS text -- pg_ls_dir",
    });
    expect(r.isError, resultText(r)).toBeFalsy();
  });
});
