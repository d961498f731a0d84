/**
 * The guard on PostgreSQL's own parse tree, without a database: what is refused however it is
 * spelled or wherever in the tree it sits, and what ordinary SQL must never trip. (The same
 * refusals are proven end to end, with a role that could do all of it, in reach.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { checkSql, Refusal } from '../src/guard.js';
import { SqlSyntaxError } from '../src/parser.js';

/** The refusal's message, or undefined when the SQL passes. Syntax errors are returned as "syntax: …". */
async function refused(sql: string): Promise<string | undefined> {
  try {
    await checkSql(sql);
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    if (error instanceof SqlSyntaxError) return `syntax: ${error.message} @${error.position}`;
    throw error;
  }
  return undefined;
}

describe('guard: what the parse tree says about the statement', () => {
  it('tells queries PostgreSQL can run as a cursor from other statements', async () => {
    expect(await checkSql('/* c */ ((SELECT 1))')).toEqual({ kind: 'SelectStmt', query: true });
    expect(await checkSql('-- c\nWITH x AS (SELECT 1) SELECT * FROM x')).toMatchObject({ query: true });
    expect(await checkSql('VALUES (1), (2)')).toMatchObject({ query: true });
    expect(await checkSql('TABLE users')).toMatchObject({ query: true });
    expect(await checkSql('SELECT 1 INTO t2')).toMatchObject({ kind: 'SelectStmt', query: false });
    expect(
      await checkSql('WITH d AS (DELETE FROM t RETURNING 1) INSERT INTO u SELECT * FROM d'),
    ).toMatchObject({
      kind: 'InsertStmt',
      query: false,
    });
    expect(await checkSql('SHOW work_mem')).toMatchObject({ kind: 'VariableShowStmt', query: false });
    expect(await checkSql('  -- only a comment')).toEqual({ kind: undefined, query: false });
  });

  it('exactly one statement per call, however the statements are separated or hidden', async () => {
    expect(await refused('COMMIT; DROP TABLE users;')).toMatch(
      /one statement per call: this SQL holds 2 statements/,
    );
    expect(await refused('SELECT 1; COMMIT; INSERT INTO users(id) VALUES (999)')).toMatch(
      /holds 3 statements/,
    );
    expect(await refused("SELECT ';' AS x; SELECT $q$;$q$")).toMatch(/holds 2 statements/);
    // A semicolon inside a string, a dollar quote or a comment is not a separator.
    expect(await refused("SELECT ';' AS a, $q$;$q$ AS b /* ; */ -- ;")).toBeUndefined();
    expect(await refused('SELECT 1;')).toBeUndefined();
  });

  it('refuses what does not parse with PostgreSQL’s own syntax error and position', async () => {
    expect(await refused('SELECT 1 FROM')).toBe('syntax: syntax error at end of input @14');
    expect(await refused("SELECT 'open")).toMatch(/^syntax: unterminated quoted string/);
    expect(await refused('SELECT $q$ open')).toMatch(/^syntax: unterminated dollar-quoted string/);
    expect(await refused('SELECT 1 /* open')).toMatch(/^syntax: unterminated \/\* comment/);
    expect(await refused('SELEC 1')).toBe('syntax: syntax error at or near "SELEC" @1');
  });
});

describe('guard: refused in every mode', () => {
  const cases: [string, RegExp][] = [
    ["COPY (SELECT 1) TO PROGRAM 'id'", /COPY … PROGRAM runs a program/],
    ["copy users from '/etc/passwd'", /COPY with a file name/],
    ['/* hi */ Copy users TO STDOUT', /COPY … STDIN\/STDOUT/],
    ["SELECT pg_read_file('/etc/passwd')", /^pg_read_file: reads or writes server files/],
    ['SELECT "pg_read_file"(\'/etc/passwd\')', /pg_read_file/],
    ["SELECT pg_catalog.PG_READ_BINARY_FILE('/etc/passwd')", /pg_read_binary_file/],
    // Unicode escapes are decoded by the parser: the name is seen as PostgreSQL sees it.
    ['SELECT U&"\\0070g_read_file"(\'x\')', /pg_read_file/],
    ["SELECT * FROM pg_ls_dir('.')", /pg_ls_dir/],
    ['SELECT * FROM pg_ls_waldir()', /pg_ls_waldir/],
    ["SELECT pg_stat_file('/')", /pg_stat_file/],
    ["SELECT lo_import('/etc/passwd')", /lo_import/],
    ["SELECT lo_export(1234, '/tmp/x')", /lo_export/],
    ["SELECT dblink_exec('dbname=x', 'DROP TABLE users')", /dblink_exec/],
    ["SELECT * FROM dblink('dbname=x', 'SELECT 1') AS t(x int)", /dblink/],
    ["CALL dblink_exec('x')", /dblink_exec/],
    ["SELECT query_to_xml('select 1', true, true, '')", /runs SQL given as text/],
    ["SELECT ts_stat('select to_tsvector(''x'')')", /ts_stat/],
    ["SELECT set_config('role', 'postgres', false)", /set_config/],
    // Session state that neither the ROLLBACK nor the reset after it undoes.
    ['SELECT setseed(0.5)', /^setseed: sets the seed of random\(\) for the whole session/],
    ['SELECT random() FROM users WHERE pg_catalog.SETSEED(0.5) IS NULL', /^setseed/],
    // Anywhere in the tree: CTEs, sub-selects, lateral joins, ORDER BY, defaults, EXPLAIN, views.
    ["WITH a AS (WITH b AS (SELECT pg_read_file('x')) SELECT * FROM b) SELECT * FROM a", /pg_read_file/],
    ["SELECT * FROM users WHERE EXISTS (SELECT 1 FROM (SELECT pg_ls_dir('.')) s)", /pg_ls_dir/],
    ['SELECT 1 FROM users u, LATERAL (SELECT lo_import(u.name)) x', /lo_import/],
    ["SELECT 1 ORDER BY length(pg_read_file('x'))", /pg_read_file/],
    ["EXPLAIN ANALYZE SELECT pg_read_file('x')", /pg_read_file/],
    ["CREATE VIEW v AS SELECT pg_read_file('/etc/passwd')", /pg_read_file/],
    ["CREATE TABLE t (x text DEFAULT pg_read_file('/etc/passwd'))", /pg_read_file/],
    ["PREPARE p AS SELECT pg_read_file('x')", /pg_read_file/],
    ["CREATE RULE r AS ON INSERT TO t DO ALSO SELECT pg_ls_dir('.')", /pg_ls_dir/],
    // Functions referred to without a call: triggers, casts, operators, aggregates, types, grants.
    ['CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION pg_read_file()', /pg_read_file/],
    ['CREATE CAST (text AS int) WITH FUNCTION lo_import(text)', /lo_import/],
    ['CREATE OPERATOR !!! (RIGHTARG = text, FUNCTION = pg_catalog.pg_read_file)', /pg_read_file/],
    ['CREATE AGGREGATE agg(bigint, bigint) (SFUNC = pg_read_file, STYPE = text)', /pg_read_file/],
    ['CREATE TYPE ty (INPUT = lo_import, OUTPUT = f)', /lo_import/],
    ['GRANT EXECUTE ON FUNCTION pg_read_file(text) TO public', /pg_read_file/],
    // Statements.
    ['SET ROLE postgres', /SET\/RESET ROLE/],
    ['set local role postgres', /SET\/RESET ROLE/],
    ['RESET ROLE', /SET\/RESET ROLE/],
    ['SET SESSION AUTHORIZATION postgres', /SET SESSION AUTHORIZATION/],
    ['RESET SESSION AUTHORIZATION', /SET SESSION AUTHORIZATION/],
    ["ALTER ROLE me SET session_preload_libraries = 'x'", /session_preload_libraries loads shared libraries/],
    ["ALTER DATABASE d SET local_preload_libraries = 'x'", /local_preload_libraries/],
    ['DO $$ BEGIN PERFORM 1; END $$', /DO runs procedural code/],
    ["DO LANGUAGE plpgsql 'BEGIN END'", /DO runs/],
    ["LOAD 'auto_explain'", /LOAD loads a shared library/],
    ['SELECT pg_terminate_backend(123)', /signals other backends/],
    ['SELECT pg_reload_conf()', /pg_reload_conf/],
    ['SELECT pg_stat_reset()', /pg_stat_reset/],
    ["PREPARE TRANSACTION 'x'", /PREPARE TRANSACTION/],
    ["COMMIT PREPARED 'x'", /COMMIT PREPARED/],
    ["ROLLBACK PREPARED 'x'", /ROLLBACK PREPARED/],
    ['CREATE EXTENSION dblink', /extensions install server-side code/],
    ['ALTER EXTENSION dblink UPDATE', /extensions/],
    ["ALTER SYSTEM SET work_mem = '1MB'", /ALTER SYSTEM/],
    ["CREATE TABLESPACE t LOCATION '/tmp'", /tablespaces/],
    ['CREATE OR REPLACE TRUSTED LANGUAGE plx HANDLER h', /procedural languages/],
    ['CREATE FOREIGN DATA WRAPPER w', /foreign-data wrappers/],
    ["CREATE SERVER s FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'x')", /foreign servers/],
    ['CREATE FOREIGN TABLE f (x int) SERVER s', /foreign tables/],
    ["ALTER FOREIGN TABLE f OPTIONS (SET filename '/etc/passwd')", /foreign tables/],
    ["CREATE USER MAPPING FOR me SERVER s OPTIONS (password 'x')", /user mappings/],
    ['IMPORT FOREIGN SCHEMA public FROM SERVER s INTO x', /IMPORT FOREIGN SCHEMA/],
    ["CREATE SUBSCRIPTION s CONNECTION 'host=x' PUBLICATION p", /subscriptions/],
    ['DROP SUBSCRIPTION s', /subscriptions/],
    // Transaction control: the call is the server's transaction.
    ['BEGIN', /BEGIN: each call runs in its own transaction/],
    ['COMMIT', /COMMIT: each call/],
    ['END', /COMMIT: each call/],
    ['ROLLBACK', /ROLLBACK: each call/],
    ['SAVEPOINT s', /SAVEPOINT/],
    // Routine definitions: the language, and the body however it is written or quoted.
    [
      "CREATE FUNCTION f() RETURNS void LANGUAGE plpython3u AS 'import os'",
      /LANGUAGE plpython3u: C, internal and untrusted/,
    ],
    ["CREATE FUNCTION f() RETURNS void AS 'lib', 'sym' LANGUAGE C", /LANGUAGE c: C, internal/],
    [
      "CREATE FUNCTION f() RETURNS int LANGUAGE plperl AS 'return 1'",
      /LANGUAGE plperl: only sql and plpgsql/,
    ],
    ["CREATE FUNCTION f() RETURNS int LANGUAGE sql SET role = 'postgres' AS 'SELECT 1'", /SET\/RESET ROLE/],
    [
      "CREATE FUNCTION f() RETURNS text LANGUAGE sql AS $$ SELECT pg_read_file('/etc/passwd') $$",
      /pg_read_file.*\(found in a function body\)/,
    ],
    [
      "CREATE FUNCTION f() RETURNS text LANGUAGE sql AS E'SELECT pg_ls_dir(''/'')'",
      /pg_ls_dir.*function body/,
    ],
    [
      "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT pg_read_file('x'); END",
      /pg_read_file/,
    ],
    ["CREATE FUNCTION f() RETURNS int LANGUAGE sql RETURN length(pg_read_file('x'))", /pg_read_file/],
    [
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELEC 1 $$',
      /the function body could not be checked: syntax error/,
    ],
    [
      "CREATE OR REPLACE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $f$ BEGIN EXECUTE 'COPY users TO PROGRAM ''id'''; END $f$",
      /COPY … PROGRAM.*function body/,
    ],
    [
      "CREATE FUNCTION f(t text, c text) RETURNS void LANGUAGE plpgsql AS $f$ BEGIN EXECUTE format('COPY %I TO PROGRAM %L', t, c); END $f$",
      /COPY … PROGRAM/,
    ],
    [
      'CREATE PROCEDURE p() LANGUAGE plpgsql AS $$ BEGIN SET ROLE postgres; END $$',
      /SET\/RESET ROLE.*function body/,
    ],
    [
      "CREATE FUNCTION f() RETURNS text LANGUAGE plpgsql AS $$ DECLARE x text := pg_read_file('a'); BEGIN RETURN x; END $$",
      /pg_read_file/,
    ],
    [
      "CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ DECLARE x text; BEGIN x := lo_import('x'); END $$",
      /lo_import/,
    ],
    ["CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN PERFORM dblink('a'); END $$", /dblink/],
    [
      "CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN IF pg_ls_dir('.') IS NULL THEN RETURN; END IF; END $$",
      /pg_ls_dir/,
    ],
    [
      "CREATE FUNCTION f() RETURNS SETOF text LANGUAGE plpgsql AS $$ BEGIN RETURN QUERY EXECUTE 'SELECT pg_read_file(''x'')'; END $$",
      /pg_read_file/,
    ],
    [
      // A definition inside a string inside a body.
      "CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $o$ BEGIN EXECUTE $i$CREATE FUNCTION g() RETURNS void LANGUAGE c AS 'x', 'y'$i$; END $o$",
      /LANGUAGE c/,
    ],
    [
      'CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN garbage here; END $$',
      /PL\/pgSQL body could not be checked/,
    ],
  ];
  for (const [sql, reason] of cases) {
    it(sql, async () => expect(await refused(sql)).toMatch(reason));
  }
});

describe('guard: ordinary SQL passes', () => {
  const ok = [
    "SELECT 'pg_read_file' AS name, 'COPY users TO PROGRAM ''x''' AS text",
    'SELECT 1 -- pg_read_file in a comment',
    'SELECT 1 AS copy, 2 AS "load", 3 AS pg_read_file',
    'SELECT pg_read_file FROM (SELECT 1 AS pg_read_file) s',
    "UPDATE users SET role = 'admin' WHERE id = 1",
    'INSERT INTO t (x) VALUES (1) ON CONFLICT DO NOTHING',
    'SET statement_timeout = 0',
    'SET search_path TO sales, public',
    'SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY',
    'RESET ALL',
    'SELECT CASE WHEN true THEN 1 ELSE 2 END',
    'EXPLAIN ANALYZE SELECT * FROM users',
    'WITH d AS (DELETE FROM users RETURNING 1) SELECT count(*) FROM d',
    'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) FROM t',
    'SELECT d, sum(d) OVER (ORDER BY d ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t',
    'SELECT pg_size_pretty(pg_total_relation_size($1))',
    "CREATE FUNCTION f(x int DEFAULT 0) RETURNS int LANGUAGE plpgsql AS $$ BEGIN INSERT INTO t VALUES (x) ON CONFLICT DO NOTHING; UPDATE u SET role = 'x'; RETURN 1; END $$",
    "CREATE FUNCTION g() RETURNS text LANGUAGE 'sql' AS 'SELECT ''don''''t'''",
    "CREATE FUNCTION h() RETURNS text LANGUAGE plpgsql AS $$ BEGIN IF now() IS NULL THEN RETURN 'end'; END IF; RAISE NOTICE 'begin'; RETURN 'commit'; END $$",
    'CREATE FUNCTION trg() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated := now(); RETURN NEW; END $$',
    'CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION f()',
    'CREATE FUNCTION s() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END',
  ];
  for (const sql of ok) {
    it(sql, async () => expect(await refused(sql)).toBeUndefined());
  }
});

describe('guard: what read calls refuse although a READ ONLY transaction allows it', () => {
  const readRule = async (sql: string) => (await checkSql(sql)).readRule?.reason;
  const cases: [string, RegExp][] = [
    ['LOCK TABLE users IN ACCESS EXCLUSIVE MODE', /^LOCK takes a table lock/],
    ['lock users, orders in access share mode nowait', /^LOCK/],
    ['ANALYZE', /^ANALYZE /],
    ['analyze verbose t (d)', /^ANALYZE /],
    ['VACUUM (ANALYZE) t', /^VACUUM /],
    ['CLUSTER orders USING orders_user_id_idx', /^CLUSTER /],
    ['REINDEX TABLE t', /^REINDEX /],
    ['CHECKPOINT', /^CHECKPOINT /],
    ['SELECT pg_advisory_lock(1)', /^pg_advisory_lock: advisory locks/],
    ['SELECT 1 WHERE pg_catalog.PG_TRY_ADVISORY_XACT_LOCK_SHARED(1, 2)', /^pg_try_advisory_xact_lock_shared/],
    ['WITH x AS (SELECT pg_advisory_xact_lock(id) FROM users) SELECT 1', /^pg_advisory_xact_lock/],
    // Spending a transaction ID outlives the ROLLBACK.
    ['SELECT txid_current()', /^txid_current: it assigns the call a real transaction ID/],
    ['SELECT pg_catalog.PG_CURRENT_XACT_ID()', /^pg_current_xact_id: it assigns/],
    ['SELECT 1 FROM users WHERE id = (SELECT "txid_current"() % 2)', /^txid_current/],
    // EXPLAIN plans its statement, and planning a write or a locking clause takes its table locks.
    ["EXPLAIN UPDATE t SET v = 'x'", /^explaining UPDATE plans it.*ROW EXCLUSIVE/],
    ['explain (costs off) DELETE FROM t', /^explaining DELETE /],
    ['EXPLAIN INSERT INTO t VALUES (1)', /^explaining INSERT /],
    ['EXPLAIN MERGE INTO t USING u ON true WHEN MATCHED THEN DELETE', /^explaining MERGE /],
    ['EXPLAIN ANALYZE UPDATE t SET v = 1', /^explaining UPDATE /],
    ['EXPLAIN SELECT * FROM t FOR UPDATE', /^explaining SELECT … FOR UPDATE plans it.*ROW SHARE/],
    ['EXPLAIN SELECT * FROM t FOR NO KEY UPDATE SKIP LOCKED', /^explaining SELECT … FOR NO KEY UPDATE /],
    ['EXPLAIN SELECT * FROM t FOR KEY SHARE OF t', /^explaining SELECT … FOR KEY SHARE /],
    ['EXPLAIN SELECT * FROM (SELECT * FROM t FOR SHARE) s', /^explaining SELECT … FOR SHARE /],
    ['EXPLAIN SELECT 1 WHERE EXISTS (SELECT 1 FROM t FOR UPDATE)', /^explaining SELECT … FOR UPDATE /],
    ['EXPLAIN WITH x AS (SELECT * FROM t FOR UPDATE) SELECT * FROM x', /^explaining SELECT … FOR UPDATE /],
    ['EXPLAIN WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', /^explaining DELETE /],
    ['EXPLAIN SELECT 1 UNION ALL (SELECT 2 FROM t FOR SHARE)', /^explaining SELECT … FOR SHARE /],
    ['EXPLAIN CREATE TABLE c AS SELECT * FROM t FOR UPDATE', /^explaining SELECT … FOR UPDATE /],
    ['EXPLAIN DECLARE c CURSOR FOR SELECT * FROM t FOR UPDATE', /^explaining SELECT … FOR UPDATE /],
  ];
  for (const [sql, reason] of cases) {
    it(sql, async () => expect(await readRule(sql)).toMatch(reason));
  }
  it('leaves reads, settings, rollback-undone statements and function bodies alone', async () => {
    for (const sql of [
      'SELECT * FROM users FOR UPDATE', // PostgreSQL itself refuses row locks in a READ ONLY transaction
      "SET work_mem = '8MB'",
      "NOTIFY c, 'x'",
      'LISTEN c',
      'PREPARE p AS SELECT 1',
      'DECLARE c CURSOR WITH HOLD FOR SELECT 1',
      'SELECT pg_advisory_unlock_all()',
      "CREATE FUNCTION f() RETURNS void LANGUAGE sql AS 'SELECT pg_advisory_lock(1)'",
      // Read a transaction ID or a snapshot without assigning one.
      'SELECT txid_current_if_assigned(), pg_current_xact_id_if_assigned()',
      'SELECT txid_current_snapshot(), pg_current_snapshot()',
      'SELECT pg_snapshot_xmax(pg_current_snapshot()), txid_snapshot_xmax(txid_current_snapshot())',
      // EXPLAIN of what plans with a read's lock only.
      'EXPLAIN SELECT * FROM users WHERE id = 1',
      'EXPLAIN (ANALYZE, BUFFERS) WITH x AS (SELECT 1) SELECT * FROM x',
      "EXPLAIN SELECT 'FOR UPDATE', 'DELETE FROM t' FROM users",
      'EXPLAIN VALUES (1)',
    ]) {
      expect(await readRule(sql), sql).toBeUndefined();
    }
  });

  it('notes what planning the whole statement locks beyond a read (explain_query plans it)', async () => {
    const planLock = async (sql: string) => (await checkSql(sql)).planLock;
    expect(await planLock("UPDATE t SET v = 'x'")).toBe('UPDATE');
    expect(await planLock('DELETE FROM t')).toBe('DELETE');
    expect(await planLock('INSERT INTO t SELECT * FROM u')).toBe('INSERT');
    expect(await planLock('MERGE INTO t USING u ON true WHEN NOT MATCHED THEN DO NOTHING')).toBe('MERGE');
    expect(await planLock('SELECT * FROM t FOR UPDATE')).toBe('SELECT … FOR UPDATE');
    expect(await planLock('SELECT * FROM t WHERE id IN (SELECT id FROM u FOR KEY SHARE)')).toBe(
      'SELECT … FOR KEY SHARE',
    );
    expect(await planLock('WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d')).toBe('DELETE');
    expect(await planLock('SELECT * FROM users WHERE id = 1')).toBeUndefined();
    expect(await planLock("SELECT 'UPDATE t SET v = 1' AS s")).toBeUndefined();
    // A plain write is not itself a read rule: the READ ONLY transaction refuses it (25006).
    expect((await checkSql('DELETE FROM t')).readRule).toBeUndefined();
  });
});
