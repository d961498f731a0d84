/**
 * Progress of a navigation (MCP "Progress"): a browser_navigate carrying a progressToken gets a
 * heartbeat naming the phase (waiting for the response, then loading and describing the page) with
 * the seconds so far; one without a token gets none; a call cancelled mid-progress answers no more.
 */
import type http from 'node:http';
import {
  type Connection,
  callChecked,
  callOk,
  cancelAtBeat,
  type ProgressSeen,
  resultText,
} from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, startServer } from './support.js';

let site: Awaited<ReturnType<typeof servePages>>;
let conn: Connection;
/** Requests to /slow waiting for their answer. */
const held: http.ServerResponse[] = [];
const release = () => {
  for (const res of held.splice(0))
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title><p>at last</p>');
};
const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

beforeAll(async () => {
  site = await servePages({
    '/': '<title>Home</title><p>home</p>',
    '/slow': (_req, res) => {
      held.push(res);
    },
  });
  conn = await startServer(['--allowed-origins', site.origin]);
  await callOk(conn, 'browser_navigate', { url: `${site.base}/`, snapshot: 'none' });
});
afterAll(async () => {
  release();
  await conn?.close();
  await site?.close();
});

describe('progress of browser_navigate', () => {
  it('heartbeats while the response is awaited, then answers when the page loads', async () => {
    const seen: ProgressSeen[] = [];
    const pending = conn.client.callTool(
      { name: 'browser_navigate', arguments: { url: `${site.base}/slow`, snapshot: 'none' } },
      {
        resetTimeoutOnProgress: true,
        onprogress: (p) => {
          seen.push(p);
          if (seen.length === 2) release();
        },
      },
    );
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(seen[0]).toMatchObject({ progress: 0, message: 'waiting for the response, 0 s' });
    expect(seen[1]?.message).toMatch(/^waiting for the response, \d+ s$/);
    const values = seen.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it('stops reporting to a call the client cancelled', async () => {
    const { outcome } = await cancelAtBeat(conn, 'browser_navigate', {
      url: `${site.base}/slow`,
      snapshot: 'none',
    });
    expect(outcome).toBe('aborted');
    // Messages are handled in order: once tools/list answers, the server has seen the cancellation.
    await conn.client.listTools();
    const after = progressLines().length;
    // The navigation still waits (its beats go on inside the server, unsent); then it gets its answer.
    release();
    await expect
      .poll(async () => resultText(await callChecked(conn, 'browser_snapshot', {})), {
        timeout: 60_000,
        interval: 250,
      })
      .toContain('at last');
    expect(progressLines().length).toBe(after);
  });

  it('sends nothing to a request without a progressToken', async () => {
    const before = progressLines().length;
    await callOk(conn, 'browser_navigate', { url: `${site.base}/`, snapshot: 'none' });
    expect(progressLines().length).toBe(before);
  });
});
