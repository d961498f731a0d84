/**
 * Least privilege at startup: read-only unless --allow-writes; a missing file in read-only mode is
 * a clear error naming the path (exit 2) and is not created; --read-only always wins; the served
 * tools follow the mode.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callChecked, resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, makeDb, serverTarget, startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
let file: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  file = join(dir, 'app.db');
  makeDb(file, 'CREATE TABLE t (x); INSERT INTO t VALUES (1);');
});
afterAll(() => cleanup());

/** Runs the server with `args` and stdin closed at once; returns its exit status and stderr. */
function runToExit(args: string[]) {
  const target = serverTarget(args);
  const r = spawnSync(target.command, target.args, { input: '', encoding: 'utf8', timeout: 10_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

const READ_TOOLS = [
  'append_insight',
  'db_health',
  'describe_table',
  'explain_query',
  'index_advice',
  'list_tables',
  'read_query',
];

describe('startup', () => {
  it('a missing database in read-only mode is exit 2 naming the path, and no file is created', () => {
    const missing = join(dir, 'nope', 'missing.db');
    const r = runToExit(['--db-path', missing]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`database file not found: ${missing}`);
    expect(r.stdout).toBe('');
    expect(existsSync(missing)).toBe(false);
  }, 15_000);

  it('a file that is not a SQLite database, a missing --db-path and bad budgets are exit 2', () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'this is not a database at all');
    expect(runToExit(['--db-path', junk]).stderr).toContain('is not a SQLite database');
    expect(runToExit([]).stderr).toContain('--db-path is required');
    const bad = runToExit(['--db-path', file, '--statement-timeout', '1000', '--busy-timeout', '2000']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--busy-timeout (2000 ms) must be below --statement-timeout (1000 ms)');
  }, 30_000);

  it('issue 27: a bare path points to --db-path, a typo gets a did-you-mean, a flag without value says required', () => {
    const bare = runToExit([file]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain(
      `the database file is given with --db-path: mcp-server-sqlite --db-path ${file}`,
    );
    expect(runToExit(['--db-path', file, '--alow-writes']).stderr).toContain(
      'unknown option --alow-writes (did you mean --allow-writes?)',
    );
    expect(runToExit(['--db-path']).stderr).toContain('a value is required after --db-path');
  }, 30_000);

  it('issue 27: started by hand in a terminal it says it waits for a host on stdin; under a host (a pipe) it does not', () => {
    const target = serverTarget(['--db-path', file]);
    const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
    // script(1) gives the server a terminal as stdin; stdin at EOF ends it, and so the server.
    const tty = spawnSync(
      'script',
      ['-qec', [target.command, ...target.args].map(quote).join(' '), '/dev/null'],
      {
        input: '',
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(tty.stdout).toContain(
      'mcp-server-sqlite: ready, waiting for an MCP host on stdin (JSON-RPC lines); Ctrl-C to quit',
    );
    expect(runToExit(['--db-path', file]).stderr).not.toContain('waiting for an MCP host');
  }, 60_000);

  it('issue 27: --tools naming write_query without --allow-writes is exit 2 naming --allow-writes, not "unknown tool"', () => {
    const r = runToExit(['--db-path', file, '--tools', 'read_query,write_query']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      '--tools: write_query is off in this configuration: start the server with --allow-writes',
    );
    expect(r.stderr).not.toContain('unknown tool');
    expect(r.stdout).toBe('');
  }, 30_000);

  it('issue 27: write_query without --allow-writes is a JSON-RPC error naming the flag; a missing argument says required', async () => {
    const conn = await startServer(['--db-path', file]);
    try {
      await expect(callChecked(conn, 'write_query', { query: 'DELETE FROM t' })).rejects.toThrow(
        /Tool write_query not found: it is off here; start the server with --allow-writes/,
      );
      const r = await callChecked(conn, 'read_query', {});
      expect(r.isError).toBe(true);
      expect(resultText(r)).toContain('query: required (string)');
    } finally {
      await conn.close();
    }
  });

  it('read-only by default: write tools are not listed and the file is never modified', async () => {
    const before = digest(file);
    const conn = await startServer(['--db-path', file]);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
      const r = await callChecked(conn, 'read_query', { query: 'UPDATE t SET x = 2' });
      expect(resultText(r)).toContain('This server is read-only (started without --allow-writes)');
    } finally {
      await conn.close();
    }
    expect(digest(file)).toBe(before);
  });

  it('--allow-writes serves the write tools and creates a missing database', async () => {
    const fresh = join(dir, 'fresh.db');
    const conn = await startServer(['--db-path', fresh, '--allow-writes']);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, 'create_table', 'write_query'].sort());
      const r = await callChecked(conn, 'create_table', { query: 'CREATE TABLE a (b)' });
      expect(r.isError, resultText(r)).toBeFalsy();
    } finally {
      await conn.close();
    }
    expect(existsSync(fresh)).toBe(true);
  });

  it('--read-only wins over --allow-writes: no write tool, no append_insight, the engine stays read-only', async () => {
    const before = digest(file);
    const conn = await startServer(['--db-path', file, '--allow-writes', '--read-only']);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(READ_TOOLS.filter((t) => t !== 'append_insight'));
      const r = await callChecked(conn, 'read_query', { query: 'DELETE FROM t' });
      expect(resultText(r)).toContain('SQLITE_READONLY');
    } finally {
      await conn.close();
    }
    expect(digest(file)).toBe(before);
  });
});
