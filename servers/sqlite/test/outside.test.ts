/**
 * Statements that reach outside the database file are refused in every mode, through the built
 * server against real files: ATTACH of an existing file, DETACH, VACUUM INTO (no file appears),
 * load_extension (SQLite: not authorized), and pragmas that change settings. The read-only file is
 * byte-for-byte unchanged afterwards.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, FIXTURE_SQL, makeDb, startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
let roFile: string;
let rwFile: string;
let secretFile: string;
let servers: { mode: string; conn: Connection }[];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  roFile = join(dir, 'ro.db');
  rwFile = join(dir, 'rw.db');
  secretFile = join(dir, 'secret.db');
  makeDb(roFile, FIXTURE_SQL);
  makeDb(rwFile, FIXTURE_SQL);
  makeDb(secretFile, "CREATE TABLE secrets (v TEXT); INSERT INTO secrets VALUES ('do not read');");
  const [ro, rw] = await Promise.all([
    startServer(['--db-path', roFile]),
    startServer(['--db-path', rwFile, '--allow-writes']),
  ]);
  servers = [
    { mode: 'read-only', conn: ro },
    { mode: 'writes allowed', conn: rw },
  ];
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.conn.close()));
  await cleanup();
});

describe('outside the database file', () => {
  it('ATTACH of an existing database and DETACH are refused in every mode and every tool', async () => {
    const before = digest(roFile);
    for (const { mode, conn } of servers) {
      const tools = mode === 'read-only' ? ['read_query', 'explain_query'] : ['read_query', 'write_query'];
      for (const tool of tools) {
        for (const query of [
          `ATTACH '${secretFile}' AS s`,
          `  attach database '${secretFile}' as s`,
          'DETACH s',
        ]) {
          const r = await callChecked(conn, tool, { query });
          expect(r.isError, `${mode} ${tool} ${query}`).toBe(true);
          expect(resultText(r)).toMatch(/(ATTACH|DETACH) is refused: it reaches outside this database file/);
        }
      }
      const r = await callChecked(conn, 'read_query', { query: 'SELECT * FROM s.secrets' });
      expect(resultText(r)).toContain('no such table: s.secrets');
    }
    expect(digest(roFile)).toBe(before);
  });

  it('VACUUM INTO is refused in every mode and no copy is written', async () => {
    for (const { mode, conn } of servers) {
      const copy = join(dir, `copy-${mode.replace(/\W/g, '')}.db`);
      for (const tool of mode === 'read-only' ? ['read_query'] : ['read_query', 'write_query']) {
        const r = await callChecked(conn, tool, { query: `VACUUM INTO '${copy}'` });
        expect(r.isError).toBe(true);
        expect(resultText(r)).toContain('VACUUM INTO is refused');
      }
      expect(existsSync(copy)).toBe(false);
    }
  });

  it('load_extension is not authorized (extension loading is never enabled)', async () => {
    for (const { conn } of servers) {
      const r = await callChecked(conn, 'read_query', {
        query: `SELECT load_extension('${join(dir, 'evil.so')}')`,
      });
      expect(r.isError).toBe(true);
      expect(resultText(r)).toContain('not authorized');
      expect(resultText(r)).toContain('load_extension');
    }
  });

  it('pragmas that change settings are refused in every mode; reporting pragmas work', async () => {
    for (const { mode, conn } of servers) {
      const tool = mode === 'read-only' ? 'read_query' : 'write_query';
      for (const query of [
        'PRAGMA writable_schema = ON',
        'PRAGMA "query_only" = 0',
        'PRAGMA journal_mode = OFF',
        'EXPLAIN PRAGMA trusted_schema = 1',
        `PRAGMA temp_store_directory = '${dir}'`,
      ]) {
        const r = await callChecked(conn, tool, { query });
        expect(r.isError, `${mode}: ${query}`).toBe(true);
        expect(resultText(r)).toContain('is refused');
      }
      // The read connection is still read-only afterwards (query_only was never turned off).
      const write = await callChecked(conn, 'read_query', { query: 'DELETE FROM notes' });
      expect(resultText(write)).toContain('SQLITE_READONLY');
      const info = await callChecked(conn, 'read_query', { query: 'PRAGMA table_info(users)' });
      expect(structured<{ rowCount: number }>(info).rowCount).toBe(3);
    }
  });

  it('with --allow-writes, header pragmas can be set through write_query, not read_query', async () => {
    const rw = servers[1]?.conn as Connection;
    const viaRead = await callChecked(rw, 'read_query', { query: 'PRAGMA user_version = 7' });
    expect(resultText(viaRead)).toContain('use write_query');
    const viaWrite = await callChecked(rw, 'write_query', { query: 'PRAGMA user_version = 7' });
    expect(viaWrite.isError, resultText(viaWrite)).toBeFalsy();
    const read = await callChecked(rw, 'read_query', { query: 'PRAGMA user_version' });
    expect(structured(read)).toMatchObject({ rows: [[7]] });
  });

  it('transaction control is refused, so no call can leave a transaction open', async () => {
    const rw = servers[1]?.conn as Connection;
    const r = await callChecked(rw, 'write_query', { query: 'BEGIN EXCLUSIVE' });
    expect(r.isError).toBe(true);
    expect(resultText(r)).toContain('transaction control');
    const after = await callChecked(rw, 'write_query', {
      query: 'INSERT INTO notes (user_id, body) VALUES (1, ?)',
      params: ['x'],
    });
    expect(structured(after)).toMatchObject({ changes: 1 });
  });
});
