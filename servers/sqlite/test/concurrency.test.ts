/**
 * Concurrency with other processes (this test process plays the other writer): a WAL database
 * stays readable while another process holds an open write transaction; a database locked by
 * another process gives a clear "database is locked" error after the bounded --busy-timeout wait,
 * never a hang.
 */
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, structured, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDb, openDb, startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
const open: Connection[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await cleanup();
});

describe('other processes', () => {
  it('a WAL database is readable (last committed state) while another process is writing', async () => {
    const file = join(dir, 'wal.db');
    makeDb(file, 'PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    const other = openDb(file);
    try {
      other.exec('BEGIN IMMEDIATE; INSERT INTO t VALUES (2);');
      const conn = await startServer(['--db-path', file, '--busy-timeout', '500']);
      open.push(conn);
      // The writer commits only after this read: had the read waited for its lock, it would have failed with
      // "database is locked" at the 500 ms busy timeout. Getting the last committed state proves it did not wait.
      const during = await callChecked(conn, 'read_query', { query: 'SELECT count(*) FROM t' });
      expect(during.isError).toBeFalsy();
      expect(structured(during)).toMatchObject({ rows: [[1]] });
      other.exec('COMMIT');
      const after = await callChecked(conn, 'read_query', { query: 'SELECT count(*) FROM t' });
      expect(structured(after)).toMatchObject({ rows: [[2]] });
    } finally {
      other.close();
    }
  });

  it('a database locked by another process is "database is locked" after the busy timeout, not a hang', async () => {
    const file = join(dir, 'locked.db');
    makeDb(file, 'CREATE TABLE t (x); INSERT INTO t VALUES (1);');
    const other = openDb(file);
    try {
      // A rollback-journal database under an EXCLUSIVE lock: nobody else may read it.
      other.exec('BEGIN EXCLUSIVE; INSERT INTO t VALUES (2);');
      const conn = await startServer(['--db-path', file, '--allow-writes', '--busy-timeout', '300']);
      open.push(conn);
      for (const [tool, query] of [
        ['read_query', 'SELECT count(*) FROM t'],
        ['write_query', 'INSERT INTO t VALUES (3)'],
      ] as const) {
        const t0 = performance.now();
        const r = await callChecked(conn, tool, { query });
        const ms = performance.now() - t0;
        expect(r.isError, tool).toBe(true);
        expect(resultText(r)).toContain('database is locked');
        expect(resultText(r)).toContain('300 ms (--busy-timeout)');
        expect(ms).toBeGreaterThanOrEqual(250);
      }
      other.exec('ROLLBACK');
      const r = await callChecked(conn, 'read_query', { query: 'SELECT count(*) FROM t' });
      expect(structured(r)).toMatchObject({ rows: [[1]] });
    } finally {
      other.close();
    }
  });
});
