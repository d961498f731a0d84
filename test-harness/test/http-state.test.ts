// Per-session state over `--transport http` (issue 19, "state"): the browser gives each session its
// own BrowserContext (tabs, cookies) in one Chromium, and serves sessions only (a 2026-07-28
// stateless request is refused with -32022 naming the reason).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  type HttpServer,
  MODERN_PROTOCOL_VERSION,
  rawHttp,
  startHttpServer,
} from '../src/index.js';

type Conn = Awaited<ReturnType<typeof connectHttp>>;
const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
const call = async (conn: Conn, name: string, args: Record<string, unknown> = {}) => {
  const r = await conn.client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 });
  expect(r.isError, text(r)).not.toBe(true);
  return text(r);
};

describe('--transport http: per-session state (browser)', () => {
  let site: http.Server;
  let origin: string;
  let server: HttpServer;
  beforeAll(async () => {
    site = http.createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const who = path === '/a' || path === '/b' ? path.slice(1) : undefined;
      const headers: Record<string, string> = { 'content-type': 'text/html' };
      if (who) headers['set-cookie'] = `who=${who}; Path=/`;
      const body = who ? `<h1>page ${who}</h1>` : `<h1>cookie: ${req.headers.cookie ?? 'none'}</h1>`;
      res.writeHead(200, headers).end(`<title>${path}</title>${body}`);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    server = await startHttpServer('browser', ['--allowed-origins', origin]);
  });
  afterAll(async () => {
    await server?.stop();
    site?.closeAllConnections();
    await new Promise((r) => site?.close(r));
  });

  it('two sessions each see only their own tabs and cookies', async () => {
    const [a, b] = await Promise.all([connectHttp(server.url, 'legacy'), connectHttp(server.url, 'legacy')]);
    try {
      await Promise.all([
        call(a, 'browser_navigate', { url: `${origin}/a` }),
        call(b, 'browser_navigate', { url: `${origin}/b` }),
      ]);
      const [tabsA, tabsB] = await Promise.all([
        call(a, 'browser_tabs', { action: 'list' }),
        call(b, 'browser_tabs', { action: 'list' }),
      ]);
      expect(tabsA).toContain(`${origin}/a`);
      expect(tabsA).not.toContain(`${origin}/b`);
      expect(tabsB).toContain(`${origin}/b`);
      expect(tabsB).not.toContain(`${origin}/a`);
      expect(await call(a, 'browser_navigate', { url: `${origin}/echo` })).toContain('cookie: who=a');
      expect(await call(b, 'browser_navigate', { url: `${origin}/echo` })).toContain('cookie: who=b');
      // A new session starts with a clean context: no cookie of the others.
      const c = await connectHttp(server.url, 'legacy');
      try {
        expect(await call(c, 'browser_navigate', { url: `${origin}/echo` })).toContain('cookie: none');
      } finally {
        await c.transport.terminateSession();
        await c.client.close();
      }
      // Session a's browser_close closes its own context only: b keeps its page.
      expect(await call(a, 'browser_close')).toBe('Closed the browser.');
      expect(await call(b, 'browser_tabs', { action: 'list' })).toContain(`${origin}/echo`);
    } finally {
      for (const s of [a, b]) {
        await s.transport.terminateSession().catch(() => {});
        await s.client.close();
      }
    }
  });

  it('refuses a 2026-07-28 stateless request with -32022 naming the reason', async () => {
    const res = await rawHttp(server.url, {
      headers: { 'MCP-Protocol-Version': MODERN_PROTOCOL_VERSION },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION } },
      }),
    });
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body);
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32022);
    expect(body.error.data.supported).toEqual(['2025-11-25']);
    expect(body.error.message).toMatch(/per-session state.*sessions only.*2025-11-25 initialize handshake/);
    await expect(connectHttp(server.url, 'modern')).rejects.toThrow(
      /-32022|sessions only|Unsupported protocol version/,
    );
  });
});
