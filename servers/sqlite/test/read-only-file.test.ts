/**
 * What read-only mode does to the files, exactly as the README and --help state it: the database
 * file itself is never created or modified (same bytes, same mtime); a rollback-journal database
 * gets no other file; a WAL-mode database gets SQLite's -wal and -shm files beside it when they
 * were missing — readers of a WAL database need the shared-memory index (sqlite.org/wal.html,
 * "Read-Only Databases") — and a read-only connection cannot remove them when it closes.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callChecked, resultText, structured, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, makeDb, serverTarget, startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

/** Reads `file` through a read-only server, then shuts it down; returns the files beside it. */
async function readThroughServer(file: string): Promise<string[]> {
  const conn = await startServer(['--db-path', file]);
  try {
    const r = await callChecked(conn, 'read_query', { query: 'SELECT count(*) FROM t' });
    expect(r.isError, resultText(r)).toBeFalsy();
    expect(structured(r)).toMatchObject({ rows: [[2]] });
  } finally {
    await conn.close();
  }
  return readdirSync(dirname(file)).filter((f) => f.startsWith(`${file.split('/').pop()}`));
}

describe('read-only mode and the database files', () => {
  it('a rollback-journal database: the file is unchanged and no other file appears', async () => {
    const file = join(dir, 'journal.db');
    makeDb(file, 'CREATE TABLE t (x); INSERT INTO t VALUES (1), (2);');
    const before = { digest: digest(file), mtime: statSync(file).mtimeMs };
    expect(await readThroughServer(file)).toEqual(['journal.db']);
    expect({ digest: digest(file), mtime: statSync(file).mtimeMs }).toEqual(before);
  });

  it('a WAL database: the file is unchanged; SQLite adds its -wal (empty) and -shm files and leaves them', async () => {
    const file = join(dir, 'wal.db');
    makeDb(file, 'PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1), (2);');
    // Closing the last connection checkpointed and removed the sidecars.
    expect(readdirSync(dir).filter((f) => f.startsWith('wal.db'))).toEqual(['wal.db']);
    const before = { digest: digest(file), mtime: statSync(file).mtimeMs };
    expect((await readThroughServer(file)).sort()).toEqual(['wal.db', 'wal.db-shm', 'wal.db-wal']);
    expect({ digest: digest(file), mtime: statSync(file).mtimeMs }).toEqual(before);
    expect(statSync(`${file}-wal`).size).toBe(0);
    // A read-write connection that is the last to close removes them, as SQLite always does.
    makeDb(file, 'SELECT 1;');
    expect(readdirSync(dir).filter((f) => f.startsWith('wal.db'))).toEqual(['wal.db']);
  });

  it('the README and --help say exactly that (the file is never modified; WAL sidecars may appear)', () => {
    const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');
    const target = serverTarget(['--help']);
    const help = spawnSync(target.command, target.args, { input: '', encoding: 'utf8', timeout: 10_000 });
    const text = `${help.stdout}${help.stderr}`;
    for (const doc of [readme, text]) {
      expect(doc).toMatch(/never modified \(SQLite\s+may add the -wal and -shm files of a WAL-mode database/);
    }
  });
});
