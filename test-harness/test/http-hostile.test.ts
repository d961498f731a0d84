// Hostile HTTP (issue 19) against the built filesystem server's `--transport http`: slow clients,
// floods of idle connections, early disconnects and malformed requests are refused or bounded
// (shared/src/transport/http/limits.ts, serve.ts), and the server keeps serving real clients.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  type HttpServer,
  httpLogLines,
  httpStartupFailure,
  rawHttp,
  startHttpServer,
} from '../src/index.js';

const TOKEN = 'hostile-token-0123456789abcdef';
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'refmcp-hostile-'));
  await writeFile(join(dir, 'hello.txt'), 'hello\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const start = (env: Record<string, string>) =>
  startHttpServer('filesystem', [dir], { env: { MCP_HTTP_TOKEN: TOKEN, ...env } });

/** A raw TCP connection to the server, collecting what it answers and when it closes. */
function socketTo(url: URL) {
  const socket = connect(Number(url.port), url.hostname.replace(/^\[|\]$/g, ''));
  let received = '';
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, connected, closed, received: () => received };
}

/** A raw connection sending a session's GET /mcp (its standalone SSE stream). */
async function openStream(url: URL, sid: string) {
  const stream = socketTo(url);
  await stream.connected;
  stream.socket.write(
    [
      `GET ${url.pathname} HTTP/1.1`,
      `Host: ${url.host}`,
      `Authorization: Bearer ${TOKEN}`,
      'Accept: text/event-stream',
      `Mcp-Session-Id: ${sid}`,
      'MCP-Protocol-Version: 2025-11-25',
      '',
      '',
    ].join('\r\n'),
  );
  return stream;
}

const head = (url: URL, lines: string[]) =>
  [
    `POST ${url.pathname} HTTP/1.1`,
    `Host: ${url.host}`,
    `Authorization: Bearer ${TOKEN}`,
    ...lines,
    '',
    '',
  ].join('\r\n');

/** One tools/call over a 2025-11-25 session; resolves to the text of the result. */
async function realCall(url: URL): Promise<string> {
  const { client } = await connectHttp(url, 'legacy', TOKEN);
  try {
    const result = await client.callTool({ name: 'read_text_file', arguments: { path: 'hello.txt' } });
    return JSON.stringify(result.content);
  } finally {
    await client.close();
  }
}

/** realCall, retried while the server still answers "too many open connections" (20 s ceiling). */
async function callOnceFreed(url: URL): Promise<string> {
  const until = Date.now() + 20_000;
  for (;;) {
    try {
      return await realCall(url);
    } catch (error) {
      if (!/too many open connections/.test(String(error)) || Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Open sockets of process `pid` (Linux /proc): listener, connections, IPC. */
const socketsOf = (pid: number) =>
  readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;

const rssKiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

describe('slow clients (short timeouts set by env)', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await start({
      MCP_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      MCP_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('cuts a slowloris (headers a byte at a time) off with 408 after the headers timeout', async () => {
    const c = socketTo(server.url);
    await c.connected;
    const opened = performance.now();
    const text = head(server.url, ['Content-Type: application/json']);
    let i = 0;
    const trickle = setInterval(() => {
      if (!c.socket.destroyed && i < text.length) c.socket.write(text[i++] ?? '');
    }, 100);
    const ms = (await c.closed) - opened;
    clearInterval(trickle);
    console.log(`slowloris cut after ${Math.round(ms)} ms (headers timeout ${HEADERS_TIMEOUT_MS} ms)`);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    // Cut mid-trickle: the whole head, a byte each 100 ms, would take far longer and be answered otherwise.
    expect(i).toBeLessThan(text.length);
  });

  it('cuts a slow body off with 408 after the request timeout, and a silent connection too', async () => {
    const body = socketTo(server.url);
    const silent = socketTo(server.url);
    await Promise.all([body.connected, silent.connected]);
    const opened = performance.now();
    body.socket.write(
      `${head(server.url, ['Content-Type: application/json', 'Content-Length: 1000'])}{"jsonrpc"`,
    );
    const [b, s] = await Promise.all([body.closed, silent.closed]);
    expect(body.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(b - opened).toBeLessThan(REQUEST_TIMEOUT_MS + 2000);
    expect(s - opened).toBeLessThan(REQUEST_TIMEOUT_MS + 2000);
    expect((await rawHttp(server.url, { method: 'GET', path: '/healthz' })).status).toBe(200);
  });

  it('keeps an SSE stream open past every timeout while its session lives (GET /mcp)', async () => {
    const init = await rawHttp(server.url, { headers: AUTH, body: INITIALIZE });
    const sid = String(init.headers['mcp-session-id']);
    const stream = await openStream(server.url, sid);
    // The headers come at once (flushed), though no event is due yet.
    await expect.poll(() => stream.received(), { timeout: 5000 }).toMatch(/^HTTP\/1\.1 200/);
    expect(stream.received()).toMatch(/content-type: text\/event-stream/i);
    await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS + HEADERS_TIMEOUT_MS + 1500));
    expect(stream.socket.destroyed).toBe(false);
    // Ending the session ends the stream: the server closed it, not a timeout.
    const ended = await rawHttp(server.url, {
      method: 'DELETE',
      headers: { ...AUTH, 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' },
    });
    expect(ended.status).toBe(200);
    await expect.poll(() => stream.received(), { timeout: 5000 }).toMatch(/\r\n0\r\n\r\n$/);
    stream.socket.destroy();
  });
});

describe('hostile requests get the right status and a JSON-RPC error, never a crash', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await start({
      MCP_HTTP_MAX_REQUESTS: '4',
      MCP_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      MCP_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers malformed and unsupported requests', async () => {
    const init = await rawHttp(server.url, { headers: AUTH, body: INITIALIZE });
    const sid = String(init.headers['mcp-session-id']);
    const session = { ...AUTH, 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const cases: [string, Parameters<typeof rawHttp>[1], number, RegExp][] = [
      ['malformed JSON', { headers: AUTH, body: '{not json' }, 400, /"code":-32700/],
      ['a batch without a session', { headers: AUTH, body: `[${ping}]` }, 400, /Bad Request/],
      [
        'a batch holding only an initialize (the SDK alone would open a session)',
        { headers: AUTH, body: ` [${INITIALIZE}]` },
        400,
        /send initialize alone, not in a JSON-RPC batch/,
      ],
      [
        'a wrong Content-Type',
        { headers: { ...AUTH, 'Content-Type': 'text/plain' }, body: INITIALIZE },
        415,
        /Content-Type/,
      ],
      [
        'a wrong Accept',
        { headers: { ...AUTH, Accept: 'text/html' }, body: INITIALIZE },
        406,
        /Not Acceptable/,
      ],
      ['PUT', { method: 'PUT', headers: AUTH, body: ping }, 405, /Method Not Allowed/],
      ['PATCH', { method: 'PATCH', headers: AUTH, body: ping }, 405, /Method Not Allowed/],
      [
        'an unknown session',
        { headers: { ...session, 'Mcp-Session-Id': 'nope' }, body: ping },
        404,
        /Session not found/,
      ],
      [
        'an unsupported Mcp-Protocol-Version',
        { headers: { ...session, 'MCP-Protocol-Version': '1999-01-01' }, body: ping },
        400,
        /Unsupported protocol version/,
      ],
    ];
    for (const [what, request, status, message] of cases) {
      const res = await rawHttp(server.url, request);
      expect({ what, status: res.status }).toEqual({ what, status });
      const error = JSON.parse(res.body) as { jsonrpc: string; error: { code: number; message: string } };
      expect(error.jsonrpc).toBe('2.0');
      expect(JSON.stringify(error.error)).toMatch(message);
      if (status === 405) expect(res.headers.allow).toBe('GET, POST, DELETE');
    }
    // A query string is ignored: the path is still /mcp.
    const query = await rawHttp(server.url, { path: '/mcp?x=1&y=%00', headers: session, body: ping });
    expect(query.status).toBe(200);
    expect(query.body).toContain('"result":{}');
    // node's own limit on header bytes (16 KiB): 431 before any handler runs.
    const huge = await rawHttp(server.url, {
      headers: { ...AUTH, 'X-Huge': 'h'.repeat(32 * 1024) },
      body: ping,
    });
    expect(huge.status).toBe(431);
    expect(await realCall(server.url)).toContain('hello');
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    expect(server.stdout()).toBe('');
  });

  it('answers a malformed Host with 400, before any other check', async () => {
    for (const host of [
      'localhost:evil.com',
      'localhost:99999',
      'a@b',
      'localhost/evil',
      'localhost?x',
      'x y',
    ]) {
      const c = socketTo(server.url);
      await c.connected;
      c.socket.write([`GET /healthz HTTP/1.1`, `Host: ${host}`, 'Connection: close', '', ''].join('\r\n'));
      await c.closed;
      expect({ host, status: c.received().slice(0, 12) }).toEqual({ host, status: 'HTTP/1.1 400' });
    }
    expect((await rawHttp(server.url, { method: 'GET', path: '/healthz' })).status).toBe(200);
    expect(server.stderr()).not.toMatch(/Internal Server Error|\n\s+at /);
  });

  it('answers a repeated Host, Authorization or Origin with 400 (RFC 9112 §3.2; a proxy may read the other one)', async () => {
    for (const [field, value] of [
      ['Host', 'evil.example'],
      ['Authorization', 'Bearer wrong'],
      ['Origin', 'http://evil.example'],
    ] as const) {
      const c = socketTo(server.url);
      await c.connected;
      c.socket.write(
        `${head(server.url, ['Content-Type: application/json', 'Accept: application/json, text/event-stream', `Origin: http://localhost:${server.url.port}`, `Content-Length: ${INITIALIZE.length}`, 'Connection: close', `${field}: ${value}`])}${INITIALIZE}`,
      );
      await c.closed;
      const answer = c.received();
      expect({ field, status: answer.slice(0, 12) }).toEqual({ field, status: 'HTTP/1.1 400' });
      expect(answer).toContain(`more than one ${field.toLowerCase()} header`);
    }
  });

  it('sees an Origin sent after 2,100 other headers (node would drop all past 2,000)', async () => {
    const filler = Array.from({ length: 2100 }, (_, i) => `x${i}: y`);
    const c = socketTo(server.url);
    await c.connected;
    c.socket.write(
      `${head(server.url, ['Content-Type: application/json', 'Accept: application/json, text/event-stream', `Content-Length: ${INITIALIZE.length}`, 'Connection: close', ...filler, 'Origin: http://evil.example'])}${INITIALIZE}`,
    );
    await c.closed;
    expect(c.received().slice(0, 12)).toBe('HTTP/1.1 403');
    expect(c.received()).toContain('Invalid Origin: evil.example');
  });

  it('answers methods a fetch Request cannot carry 405, and HEAD /healthz 200', async () => {
    for (const [line, status] of [
      ['TRACE /healthz HTTP/1.1', 'HTTP/1.1 405'],
      ['TRACE /mcp HTTP/1.1', 'HTTP/1.1 405'],
      ['HEAD /healthz HTTP/1.1', 'HTTP/1.1 200'],
    ]) {
      const c = socketTo(server.url);
      await c.connected;
      c.socket.write([line, `Host: ${server.url.host}`, 'Connection: close', '', ''].join('\r\n'));
      await c.closed;
      expect({ line, status: c.received().slice(0, 12) }).toEqual({ line, status });
    }
    expect(server.stderr()).not.toMatch(/Internal Server Error|unsupported/);
  });

  it('serves an HTTP/1.0 request without Host on an IPv6 bind (the bound [host]:port stands in)', async () => {
    const v6 = await startHttpServer('filesystem', ['--host', '::1', dir], {
      env: { MCP_HTTP_TOKEN: TOKEN },
    });
    try {
      const c = socketTo(v6.url);
      await c.connected;
      c.socket.write('GET /healthz HTTP/1.0\r\n\r\n');
      await c.closed;
      expect(c.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*\{"status":"ok"\}$/);
      // /mcp too: the bound host stands in for the Host check (no browser omits Host).
      const mcp = socketTo(v6.url);
      await mcp.connected;
      mcp.socket.write(
        [
          'POST /mcp HTTP/1.0',
          `Authorization: Bearer ${TOKEN}`,
          'Content-Type: application/json',
          'Accept: application/json, text/event-stream',
          `Content-Length: ${INITIALIZE.length}`,
          '',
          INITIALIZE,
        ].join('\r\n'),
      );
      await mcp.closed;
      expect(mcp.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*"protocolVersion":"2025-11-25"/);
    } finally {
      await v6.stop();
    }
  });

  it('answers /healthz at the concurrency cap, where /mcp gets 503', async () => {
    // MCP_HTTP_MAX_REQUESTS is 4: four requests whose bodies never finish hold every slot.
    const held = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const c = socketTo(server.url);
        await c.connected;
        c.socket.write(
          `${head(server.url, ['Content-Type: application/json', 'Accept: application/json, text/event-stream', 'Content-Length: 4096'])}{`,
        );
        return c;
      }),
    );
    try {
      await expect
        .poll(async () => (await rawHttp(server.url, { headers: AUTH, body: INITIALIZE })).status)
        .toBe(503);
      expect((await rawHttp(server.url, { method: 'GET', path: '/healthz' })).status).toBe(200);
    } finally {
      for (const c of held) c.socket.destroy();
      await Promise.all(held.map((c) => c.closed));
    }
  });

  it("does not count sessions' idle SSE streams against the concurrency cap", async () => {
    // Six sessions, each with its standalone GET stream open: more than MCP_HTTP_MAX_REQUESTS (4).
    const streams = [];
    for (let i = 0; i < 6; i++) {
      let sid: string | undefined;
      // The held slots of the test before may take a moment to be given back.
      await expect
        .poll(async () => {
          const init = await rawHttp(server.url, { headers: AUTH, body: INITIALIZE });
          sid = init.headers['mcp-session-id'] as string | undefined;
          return init.status;
        })
        .toBe(200);
      const stream = await openStream(server.url, sid ?? '');
      await expect.poll(() => stream.received(), { timeout: 5000 }).toMatch(/^HTTP\/1\.1 200/);
      streams.push(stream);
    }
    try {
      expect(await realCall(server.url)).toContain('hello');
      const calls = await Promise.all(
        [1, 2, 3, 4].map(() => rawHttp(server.url, { headers: AUTH, body: INITIALIZE })),
      );
      expect(calls.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    } finally {
      for (const s of streams) s.socket.destroy();
      await Promise.all(streams.map((s) => s.closed));
    }
  });

  it('answers a chunked body over the cap 413 without reading the rest, then cuts the connection', async () => {
    const c = socketTo(server.url);
    await c.connected;
    const rss0 = rssKiB(server.proc.pid ?? 0);
    c.socket.write(
      head(server.url, [
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        'Transfer-Encoding: chunked',
      ]),
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    c.socket.write('1\r\n[\r\n');
    while (!c.socket.destroyed && !c.received() && sent < 64 * 1024 * 1024) {
      c.socket.write(`${chunk.length.toString(16)}\r\n`);
      c.socket.write(chunk);
      if (!c.socket.write('\r\n'))
        await new Promise((r) => {
          c.socket.once('drain', r);
          setTimeout(r, 100);
        });
      sent += chunk.length;
    }
    const answered = performance.now();
    // The rest of the body is left unread (TCP backpressure holds the sender) until the request
    // timeout ends the connection; closing at once could reset it before the client reads the 413.
    const closedAfter = (await c.closed) - answered;
    const grew = rssKiB(server.proc.pid ?? 0) - rss0;
    console.log(`chunked body: 413 after ${sent >> 20} MiB sent; server RSS +${grew >> 10} MiB`);
    expect(c.received()).toMatch(/^HTTP\/1\.1 413/);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(grew).toBeLessThan(64 * 1024);
    expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS + 2000);
    expect(await realCall(server.url)).toContain('hello');
  });

  it('releases the concurrency slot of 100 requests that disconnect mid-request', async () => {
    for (let i = 0; i < 100; i++) {
      const c = socketTo(server.url);
      await c.connected;
      c.socket.write(
        `${head(server.url, ['Content-Type: application/json', 'Accept: application/json, text/event-stream', 'Content-Length: 4096'])}{"jsonrpc":"2.0",`,
      );
      await new Promise((r) => setTimeout(r, 2));
      c.socket.destroy();
      await c.closed;
    }
    // MCP_HTTP_MAX_REQUESTS is 4: a leaked slot would turn these into 503s.
    const calls = await Promise.all(
      [1, 2, 3, 4].map(() => rawHttp(server.url, { headers: AUTH, body: INITIALIZE })),
    );
    expect(calls.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await realCall(server.url)).toContain('hello');
    // Their log lines say so: no status was sent.
    const cut = () => httpLogLines(server.stderr()).filter((l) => l.aborted === true && l.method === 'POST');
    await expect.poll(() => cut().length, { timeout: 5000 }).toBeGreaterThanOrEqual(100);
    expect(cut().every((l) => l.status === null)).toBe(true);
  });
});

describe('connection floods', () => {
  it('serves a real client with 2,000 idle connections open: the oldest idle ones are closed, memory stays bounded', async () => {
    const server = await start({ MCP_HTTP_MAX_CONNECTIONS: '1000' });
    const sockets: ReturnType<typeof socketTo>[] = [];
    try {
      const rss0 = rssKiB(server.proc.pid ?? 0);
      for (let i = 0; i < 2000; i++) sockets.push(socketTo(server.url));
      await Promise.all(sockets.map((s) => Promise.race([s.connected, s.closed])));
      // The server holds at most the cap (plus its listener and a few of its own). Client-side, more look open: ones the
      // kernel has not handed to node yet (listen backlog, SYN retries), which cost node nothing.
      const pid = server.proc.pid ?? 0;
      await expect.poll(() => socketsOf(pid), { timeout: 10_000 }).toBeLessThanOrEqual(1000 + 4);
      const rss = rssKiB(server.proc.pid ?? 0);
      const t0 = performance.now();
      expect(await realCall(server.url)).toContain('hello');
      const ms = performance.now() - t0;
      const held = socketsOf(pid);
      console.log(
        `2000 idle sockets: the server holds ${held} sockets, RSS ${rss0 >> 10} → ${rss >> 10} MiB, real call ${Math.round(ms)} ms`,
      );
      expect(held).toBeLessThanOrEqual(1000 + 4);
      expect(rss - rss0).toBeLessThan(100 * 1024);
    } finally {
      for (const s of sockets) s.socket.destroy();
      await server.stop();
    }
  });

  it('answers 503 with Retry-After when every connection has a request in flight', async () => {
    const server = await start({
      MCP_HTTP_MAX_CONNECTIONS: '3',
      MCP_HTTP_HEADERS_TIMEOUT_MS: '1000',
      MCP_HTTP_REQUEST_TIMEOUT_MS: '3000',
    });
    const busy = [socketTo(server.url), socketTo(server.url), socketTo(server.url)];
    try {
      for (const b of busy) {
        await b.connected;
        b.socket.write(`${head(server.url, ['Content-Type: application/json', 'Content-Length: 100'])}{`);
      }
      // The three requests are in flight once each has logged nothing yet but been accepted.
      await new Promise((r) => setTimeout(r, 300));
      const refused = socketTo(server.url);
      await refused.closed;
      expect(refused.received()).toMatch(/^HTTP\/1\.1 503/);
      expect(refused.received()).toMatch(/Retry-After: 1/);
      expect(refused.received()).toContain('too many open connections');
      expect(busy.every((b) => !b.socket.destroyed)).toBe(true);
      // Once the busy ones are cut (request timeout), a real client gets in. The client sees its
      // sockets closed before the server has counted them out, so it retries a refused attempt
      // (a real client honours Retry-After: 1 the same way) within a generous ceiling.
      await Promise.all(busy.map((b) => b.closed));
      expect(await callOnceFreed(server.url)).toContain('hello');
    } finally {
      for (const b of busy) b.socket.destroy();
      await server.stop();
    }
  });
});

describe('caps set by env', () => {
  it('refuses a bad cap at startup: one stderr line naming the variable, exit 2', async () => {
    const exited = await httpStartupFailure('filesystem', [dir], { MCP_HTTP_MAX_BODY_BYTES: '4MiB' });
    expect(exited.code).toBe(2);
    expect(exited.stderr.split('\n')[0]).toMatch(
      /MCP_HTTP_MAX_BODY_BYTES: expected a positive integer of bytes, got "4MiB"/,
    );
  });

  it('applies MCP_HTTP_MAX_BODY_BYTES', async () => {
    const server = await start({ MCP_HTTP_MAX_BODY_BYTES: '1024' });
    try {
      const ping = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { pad: 'x'.repeat(2000) },
      });
      expect((await rawHttp(server.url, { headers: AUTH, body: ping })).status).toBe(413);
      expect((await rawHttp(server.url, { headers: AUTH, body: INITIALIZE })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
