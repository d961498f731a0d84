// Per-session state over `--transport http` (issue 19, "state"): the browser gives each session its
// own BrowserContext (tabs, cookies) in one Chromium, and serves sessions only (a 2026-07-28
// stateless request is refused with -32022 naming the reason).
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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
  const r = await conn.client.callTool({ name, arguments: args }, { timeout: 30_000 });
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
  it('answers an oversized chunked stateless body 413 without buffering it', async () => {
    const rssKiB = () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, 'utf8'))?.[1]);
    const before = rssKiB();
    const limit = 64 * 1024 * 1024;
    let sent = 0;
    const status = await new Promise<number>((resolve) => {
      // No Content-Length: node sends it chunked, so only reading tells the size.
      const req = http.request(server.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': MODERN_PROTOCOL_VERSION,
        },
      });
      req.on('error', () => {});
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{},"pad":"');
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < limit && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!req.destroyed) req.end('"}');
      };
      pump();
    });
    const grewMiB = (rssKiB() - before) >> 10;
    console.log(
      `stateless chunked body on a sessions-only server: ${status} after ${sent >> 20} MiB sent; RSS +${grewMiB} MiB`,
    );
    expect(status).toBe(413);
    expect(grewMiB).toBeLessThan(48);
  });
});

/** A 2025-11-25 session whose client offers `roots` (file:// URIs of `dirs`). */
async function withRoots(url: URL, dirs: string[]) {
  const client = new Client(
    { name: 'roots-client', version: '1' },
    { capabilities: { roots: { listChanged: true } }, versionNegotiation: { mode: 'legacy' } },
  );
  client.setRequestHandler('roots/list', async () => ({
    roots: dirs.map((d) => ({ uri: pathToFileURL(d).href, name: d })),
  }));
  const transport = new StreamableHTTPClientTransport(url);
  // The server's roots/list at `initialized` is held until the client's GET stream opens (no
  // roots/list_changed needed); the first tool call waits for its answer.
  await client.connect(transport, { timeout: 10_000 });
  return { client, transport };
}

describe('--transport http: per-session state (filesystem roots)', () => {
  let dir: string;
  let server: HttpServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refmcp-http-state-'));
    for (const sub of ['one', 'two']) {
      await mkdir(join(dir, sub));
      await writeFile(join(dir, sub, `${sub}.txt`), `file ${sub}\n`);
    }
    server = await startHttpServer('filesystem', [dir]);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("each session's roots narrow only its own allowed directories", async () => {
    const one = await withRoots(server.url, [join(dir, 'one')]);
    const two = await withRoots(server.url, [join(dir, 'two')]);
    const plain = await connectHttp(server.url, 'legacy');
    try {
      const read = async (conn: { client: Client }, path: string) => {
        const r = await conn.client.callTool({ name: 'read_text_file', arguments: { path } });
        return { error: r.isError === true, text: text(r) };
      };
      const allowed = async (conn: { client: Client }) =>
        text(await conn.client.callTool({ name: 'list_allowed_directories', arguments: {} }));
      expect(await read(one, join(dir, 'one', 'one.txt'))).toEqual({
        error: false,
        text: expect.stringContaining('file one'),
      });
      expect((await read(one, join(dir, 'two', 'two.txt'))).error).toBe(true);
      expect(await read(two, join(dir, 'two', 'two.txt'))).toEqual({
        error: false,
        text: expect.stringContaining('file two'),
      });
      expect((await read(two, join(dir, 'one', 'one.txt'))).error).toBe(true);
      // A client without roots keeps the operator's directory; one outside it is never allowed.
      expect((await read(plain, join(dir, 'one', 'one.txt'))).error).toBe(false);
      expect((await read(plain, join(dir, 'two', 'two.txt'))).error).toBe(false);
      expect(await allowed(one)).not.toContain(join(dir, 'two'));
      expect(await allowed(two)).not.toContain(join(dir, 'one'));
    } finally {
      for (const s of [one, two, plain]) {
        await s.transport.terminateSession().catch(() => {});
        await s.client.close();
      }
    }
  });
});
