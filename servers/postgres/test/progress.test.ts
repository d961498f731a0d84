/**
 * Progress while a statement runs (MCP "Progress"): a query carrying a progressToken gets a heartbeat
 * (progress counts up, message with the seconds so far) until it answers; one without a token gets
 * none; cancelling at a heartbeat still stops the statement in the database.
 */
import type { Connection } from '@refmcp/test-harness';
import { cancelAtBeat, structured } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, startServer } from './support.js';

/** Our server's backends that are running a statement now. */
const ACTIVE =
  "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'mcp-server-postgres' AND state = 'active' AND datname = current_database()";

let conn: Connection;
const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

beforeAll(async () => {
  conn = await startServer();
});
afterAll(async () => {
  await conn?.close();
});

describe('progress of a slow statement', () => {
  it('heartbeats while it runs, and cancelling at the second beat stops it in the database', async () => {
    const { outcome, seen } = await cancelAtBeat(conn, 'query', { sql: 'SELECT pg_sleep(60)' });
    expect(outcome).toBe('aborted');
    expect(seen.map((p) => p.progress)).toEqual([0, 1]);
    expect(seen[0]?.message).toBe('statement running, 0 s');
    expect(seen[1]?.message).toMatch(/^statement running, \d+ s$/);
    await expect
      .poll(() => asAdmin(async (c) => (await c.query(ACTIVE)).rows[0].count), {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('0');
    const r = await conn.client.callTool({ name: 'query', arguments: { sql: 'SELECT 1 AS one' } });
    expect(structured(r)).toMatchObject({ rows: [[1]] });
  });

  it('sends nothing to a request without a progressToken', async () => {
    const before = progressLines().length;
    const r = await conn.client.callTool({
      name: 'query',
      arguments: { sql: 'SELECT 2 AS two FROM pg_sleep(1.5)' },
    });
    expect(structured(r)).toMatchObject({ rows: [[2]] });
    expect(progressLines().length).toBe(before);
  });
});
