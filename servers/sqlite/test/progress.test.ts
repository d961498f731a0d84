/**
 * Progress while a statement runs (MCP "Progress"): a read_query carrying a progressToken gets a
 * heartbeat (progress counts up, message with the seconds so far) until it answers; one without a
 * token gets none; cancelling at a heartbeat still stops the statement (its engine is replaced).
 */
import { join } from 'node:path';
import { type Connection, descendantPids, isAlive, structured, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDb, startServer } from './support.js';

/** An endless recursive CTE: one sqlite3_step that never returns on its own. */
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

let dir: string;
let cleanup: () => Promise<void>;
let conn: Connection;

const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  const file = join(dir, 'p.db');
  makeDb(file, 'CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);');
  conn = await startServer(['--db-path', file, '--statement-timeout', '60000']);
});
afterAll(async () => {
  await conn?.close();
  await cleanup();
});

describe('progress of a slow query', () => {
  it('heartbeats while it runs, and cancelling at the second one stops the statement', async () => {
    const controller = new AbortController();
    const seen: Array<{ progress: number; message?: string }> = [];
    const pending = conn.client
      .callTool(
        { name: 'read_query', arguments: { query: RUNAWAY } },
        {
          signal: controller.signal,
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            seen.push(p);
            if (seen.length === 2) controller.abort();
          },
        },
      )
      .then(
        () => 'answered',
        (error: Error) => error.name,
      );
    const busy = await new Promise<number[]>((resolve) => {
      const poll = setInterval(() => {
        if (seen.length >= 1) {
          clearInterval(poll);
          resolve(descendantPids(conn.pid));
        }
      }, 20);
    });
    expect(await pending).not.toBe('answered');
    expect(seen.map((p) => p.progress)).toEqual([0, 1]);
    expect(seen[0]?.message).toBe('query running, 0 s');
    expect(seen[1]?.message).toMatch(/^query running, \d+ s$/);
    // The engine that ran the cancelled statement is killed (and replaced), so nothing keeps spinning on it.
    expect(busy.length).toBeGreaterThan(0);
    await expect.poll(() => busy.some((pid) => !isAlive(pid)), { timeout: 5000, interval: 100 }).toBe(true);
    const r = await conn.client.callTool({
      name: 'read_query',
      arguments: { query: 'SELECT count(*) FROM t' },
    });
    expect(structured(r)).toMatchObject({ rows: [[2]] });
  });

  it('sends nothing to a request without a progressToken', async () => {
    const before = progressLines().length;
    const r = await conn.client.callTool({ name: 'read_query', arguments: { query: 'SELECT x FROM t' } });
    expect(structured(r)).toMatchObject({ rows: [[1], [2]] });
    expect(progressLines().length).toBe(before);
  });
});
