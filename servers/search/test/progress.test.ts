/**
 * Progress while fetch_url reads a page (MCP "Progress"): a call carrying a progressToken gets a
 * heartbeat (progress counts up, message with the seconds so far) until it answers; one without a
 * token gets none; cancelling at a heartbeat still stops the read (the site sees the connection closed).
 */
import { type Connection, cancelAtBeat, structured } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, startSiteA, startSiteB } from './site.js';
import { startServer } from './support.js';

let a: Site;
let b: Site;
let conn: Connection;
const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

beforeAll(async () => {
  b = await startSiteB();
  a = await startSiteA(() => b);
  conn = await startServer(undefined, ['--allowed-origins', a.url, '--toolsets', 'fetch'], {
    env: { BRAVE_API_KEY: '' },
  });
});
afterAll(async () => {
  await conn?.close();
  await a?.close();
  await b?.close();
});

describe('progress of fetch_url', () => {
  it('heartbeats while a page stalls, and cancelling at the second beat closes the connection', async () => {
    const { outcome, seen } = await cancelAtBeat(conn, 'fetch_url', { url: `${a.url}/stall` });
    expect(outcome).toBe('aborted');
    expect(seen.map((p) => p.progress)).toEqual([0, 1]);
    expect(seen[0]?.message).toBe('reading the page, 0 s');
    expect(seen[1]?.message).toMatch(/^reading the page, \d+ s$/);
    await expect.poll(() => a.stallClosed, { timeout: 30_000, interval: 100 }).toBe(true);
  });

  it('sends nothing to a request without a progressToken', async () => {
    const before = progressLines().length;
    const r = await conn.client.callTool({ name: 'fetch_url', arguments: { url: `${a.url}/article` } });
    expect(r.isError).toBeFalsy();
    expect(structured<{ markdown: string }>(r).markdown).toContain('JSON-RPC over stdin and stdout');
    expect(progressLines().length).toBe(before);
  });
});
