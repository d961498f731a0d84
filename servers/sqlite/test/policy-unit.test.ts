/**
 * Unit tests of the pure SQL helpers: the tokenizer, the statement policy (what is refused before
 * SQLite compiles a statement, and why it cannot be fooled by comments, quoting or case), the
 * placeholder analysis and the value encoding.
 */
import { describe, expect, it } from 'vitest';
import { bindArguments, placeholders } from '../src/sql/params.js';
import { checkStatement, classify, PolicyError } from '../src/sql/policy.js';
import { significantTokens, tokenize } from '../src/sql/tokenize.js';
import { encodeValue, storageClass } from '../src/values.js';

describe('tokenize', () => {
  it('keeps strings, quoted identifiers, comments and parameters whole, as SQLite does', () => {
    const sql = `SELECT 'a;--b', "x""y", [z], \`w\`, x'00', ?, ?12, :n, @m, $o /* c; */ -- tail`;
    const types = significantTokens(sql).map((t) => `${t.type}:${t.text}`);
    expect(types).toEqual([
      'word:SELECT',
      "string:'a;--b'",
      'operator:,',
      'quoted:"x""y"',
      'operator:,',
      'quoted:[z]',
      'operator:,',
      'quoted:`w`',
      'operator:,',
      "blob:x'00'",
      'operator:,',
      'variable:?',
      'operator:,',
      'variable:?12',
      'operator:,',
      'variable::n',
      'operator:,',
      'variable:@m',
      'operator:,',
      'variable:$o',
    ]);
    expect(
      tokenize(sql)
        .map((t) => t.text)
        .join(''),
    ).toBe(sql);
  });

  it('treats an unterminated quote as illegal to the end, like SQLite', () => {
    expect(significantTokens("SELECT 'abc").map((t) => t.type)).toEqual(['word', 'illegal']);
  });
});

describe('statement policy', () => {
  const refused = (sql: string, mode: 'read' | 'write' = 'read') => {
    try {
      checkStatement(sql, mode);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(PolicyError);
      return (error as Error).message;
    }
  };

  it('refuses ATTACH, DETACH and VACUUM INTO in every mode, however written', () => {
    for (const mode of ['read', 'write'] as const) {
      expect(refused("ATTACH 'other.db' AS o", mode)).toMatch(/ATTACH is refused/);
      expect(refused("  /* x */ attach database 'o.db' as o", mode)).toMatch(/ATTACH is refused/);
      expect(refused('-- c\nDETACH o', mode)).toMatch(/DETACH is refused/);
      expect(refused("VACUUM INTO '/tmp/copy.db'", mode)).toMatch(/VACUUM INTO is refused/);
      expect(refused("vacuum main into '/tmp/copy.db'", mode)).toMatch(/VACUUM INTO is refused/);
      expect(refused("EXPLAIN ATTACH 'o.db' AS o", mode)).toMatch(/ATTACH is refused/);
    }
    expect(refused('VACUUM', 'write')).toBeUndefined();
    // "into" inside a string or quoted name is not the INTO keyword.
    expect(classify(`VACUUM "into"`).head).toBe('VACUUM');
  });

  it('refuses pragmas that change settings, even quoted, schema-qualified or under EXPLAIN', () => {
    for (const sql of [
      'PRAGMA writable_schema = ON',
      'pragma WRITABLE_SCHEMA=1',
      'PRAGMA "writable_schema" = 1',
      "PRAGMA 'query_only' = 0",
      'PRAGMA main.journal_mode = OFF',
      'EXPLAIN PRAGMA query_only = 0',
      'EXPLAIN QUERY PLAN PRAGMA trusted_schema = 1',
      "PRAGMA temp_store_directory = '/tmp'",
      'PRAGMA foreign_keys = OFF',
    ]) {
      expect(refused(sql, 'write'), sql).toMatch(/is refused/);
    }
  });

  it('allows reporting and inspecting pragmas, and header pragmas only on the writer', () => {
    for (const sql of [
      'PRAGMA page_count',
      'PRAGMA table_info(users)',
      'PRAGMA main.index_list("users")',
      'PRAGMA integrity_check',
    ]) {
      expect(refused(sql), sql).toBeUndefined();
    }
    expect(refused('PRAGMA user_version = 3', 'read')).toMatch(/use write_query/);
    expect(refused('PRAGMA user_version = 3', 'write')).toBeUndefined();
    expect(refused('PRAGMA user_version')).toBeUndefined();
  });

  it('refuses transaction control, which would pin a transaction across calls', () => {
    for (const sql of [
      'BEGIN',
      'begin immediate',
      'COMMIT',
      'END TRANSACTION',
      'ROLLBACK',
      'SAVEPOINT a',
      'RELEASE a',
    ]) {
      expect(refused(sql, 'write'), sql).toMatch(/transaction control/);
    }
  });

  it('leaves every other statement to SQLite (no keyword filtering of reads or writes)', () => {
    for (const sql of [
      'SELECT 1',
      'WITH x AS (SELECT 1) DELETE FROM t',
      'DELETE FROM t',
      'DROP TABLE t',
      "SELECT 'ATTACH'",
    ]) {
      expect(refused(sql), sql).toBeUndefined();
    }
  });

  it('classifies CREATE TABLE forms for create_table', () => {
    expect(classify('CREATE TABLE t(a)')).toMatchObject({ createsTable: true, temporary: false });
    expect(classify('create temp table t(a)')).toMatchObject({ createsTable: true, temporary: true });
    expect(classify('CREATE VIRTUAL TABLE f USING fts5(x)')).toMatchObject({ createsTable: true });
    expect(classify('CREATE INDEX i ON t(a)')).toMatchObject({ createsTable: false });
  });

  it('refuses temporary objects on the writer, by keyword or by the temp schema name, and only there', () => {
    for (const sql of [
      'CREATE TEMP TRIGGER tt AFTER INSERT ON users BEGIN DELETE FROM notes; END',
      'create temporary view v as select 1',
      'CREATE TEMP TABLE IF NOT EXISTS t (a)',
      'CREATE TRIGGER IF NOT EXISTS temp.tt AFTER INSERT ON users BEGIN SELECT 1; END',
      'CREATE VIEW "TEMP".v AS SELECT 1',
      "CREATE TABLE 'temp'.t (a)",
      'CREATE TABLE [Temp] . t (a)',
      'CREATE UNIQUE INDEX temp.i ON t(a)',
      'CREATE VIRTUAL TABLE IF NOT EXISTS `temp`.f USING fts5(x)',
      '/* c */ -- d\n CREATE TEMP VIEW users AS SELECT 1',
    ]) {
      expect(classify(sql).temporary, sql).toBe(true);
      expect(() => checkStatement(sql, 'write'), sql).toThrow(/TEMP\/TEMPORARY objects .* are refused/);
      // Read connections: SQLite itself refuses them (query_only), not the policy.
      expect(() => checkStatement(sql, 'read'), sql).not.toThrow();
    }
    for (const sql of [
      'CREATE TABLE temp_t (a)',
      'CREATE TABLE "temp" (a)',
      'CREATE TABLE main.temp (a)',
      'CREATE VIEW tempview AS SELECT 1',
      'CREATE TRIGGER tr AFTER INSERT ON temp BEGIN SELECT 1; END',
      'CREATE INDEX i ON temp(a)',
    ]) {
      expect(classify(sql).temporary, sql).toBe(false);
    }
  });
});

describe('placeholders and binding', () => {
  it('counts placeholders outside strings and comments', () => {
    expect(placeholders("SELECT ?, '?', ? -- ?")).toEqual({ anonymous: 2, maxNumbered: 0, named: [] });
    expect(placeholders('SELECT ?3, ?1')).toEqual({ anonymous: 0, maxNumbered: 3, named: [] });
    expect(placeholders('SELECT :a, @b, :a')).toEqual({ anonymous: 0, maxNumbered: 0, named: ['a', 'b'] });
  });

  it('binds exact values and says how many were expected', () => {
    expect(bindArguments('SELECT ?, ?, ?, ?', [1, 1.5, true, { integer: '9007199254740993' }])).toEqual([
      1n,
      1.5,
      1n,
      9007199254740993n,
    ]);
    expect(bindArguments('SELECT ?', [{ base64: 'AP8=' }])).toEqual([Buffer.from([0, 255])]);
    expect(bindArguments('SELECT ?2, ?1', ['a', 'b'])).toEqual([{ 1: 'a', 2: 'b' }]);
    expect(bindArguments('SELECT :n', { n: null })).toEqual([{ n: null }]);
    expect(() => bindArguments('SELECT ?, ?', ['a'])).toThrow(/expected 2 value\(s\).*got 1/);
    expect(() => bindArguments('SELECT 1', ['a'])).toThrow(/expected 0 value\(s\)/);
    expect(() => bindArguments('SELECT :n', ['a'])).toThrow(/named placeholders/);
    expect(() => bindArguments('SELECT ?', [2 ** 60])).toThrow(/beyond ±2\^53/);
  });
});

describe('value encoding', () => {
  it('writes every storage class exactly', () => {
    expect(encodeValue(null, 100)).toBeNull();
    expect(encodeValue(42n, 100)).toBe(42);
    expect(encodeValue(9007199254740993n, 100)).toBe('9007199254740993');
    expect(encodeValue(1.25, 100)).toBe(1.25);
    expect(encodeValue(Number.POSITIVE_INFINITY, 100)).toBe('Infinity');
    expect(encodeValue(Buffer.from([0, 255]), 100)).toEqual({ base64: 'AP8=' });
    expect(storageClass(1n)).toBe('integer');
    expect(storageClass(1.5)).toBe('real');
  });

  it('cuts values over the cell budget and gives their full size', () => {
    expect(encodeValue('é'.repeat(100), 11)).toEqual({ text: 'é'.repeat(5), truncated: true, bytes: 200 });
    const blob = encodeValue(Buffer.alloc(100), 16);
    expect(blob).toMatchObject({ truncated: true, bytes: 100 });
    expect(Buffer.from((blob as { base64: string }).base64, 'base64').length).toBe(12);
  });
});
