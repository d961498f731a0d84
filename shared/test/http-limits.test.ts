// The HTTP mode's caps and timeouts (transport/http/limits.ts): env parsing, and the connection cap on a
// plain node:http server (the oldest idle connection makes room; all busy → 503).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/server/errors.js';
import { httpServeConfig } from '../src/transport/http/flags.js';
import {
  DEFAULT_HTTP_LIMITS,
  httpLimitsFromEnv,
  limitConnections,
  nodeServerOptions,
} from '../src/transport/http/limits.js';
import { serveHttp } from '../src/transport/http/serve.js';

/** Polls that wait for sockets and requests: generous, as on a loaded machine (they end as soon as it holds). */
const EVENTUALLY = { timeout: 20_000 };

describe('httpLimitsFromEnv', () => {
  it('defaults to the documented constants', () => {
    expect(httpLimitsFromEnv({})).toEqual({
      maxBodyBytes: 4 * 1024 * 1024,
      maxRequests: 64,
      maxSessions: 128,
      sessionIdleMs: 30 * 60_000,
      maxConnections: 1024,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
    });
    expect(httpServeConfig({ transport: 'http' }, {})?.limits).toEqual(DEFAULT_HTTP_LIMITS);
  });

  it('reads every MCP_HTTP_ cap and timeout', () => {
    expect(
      httpLimitsFromEnv({
        MCP_HTTP_MAX_BODY_BYTES: '1024',
        MCP_HTTP_MAX_REQUESTS: '8',
        MCP_HTTP_MAX_SESSIONS: ' 16 ',
        MCP_HTTP_SESSION_IDLE_MS: '60000',
        MCP_HTTP_MAX_CONNECTIONS: '256',
        MCP_HTTP_HEADERS_TIMEOUT_MS: '2000',
        MCP_HTTP_REQUEST_TIMEOUT_MS: '5000',
        MCP_HTTP_OTHER: 'x',
      }),
    ).toEqual({
      maxBodyBytes: 1024,
      maxRequests: 8,
      maxSessions: 16,
      sessionIdleMs: 60_000,
      maxConnections: 256,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 5000,
    });
    expect(httpLimitsFromEnv({ MCP_HTTP_MAX_REQUESTS: '' }).maxRequests).toBe(64);
  });

  it('refuses a bad value with one line naming the variable', () => {
    for (const [name, raw] of [
      ['MCP_HTTP_MAX_BODY_BYTES', '4MiB'],
      ['MCP_HTTP_MAX_REQUESTS', '0'],
      ['MCP_HTTP_MAX_SESSIONS', '-1'],
      ['MCP_HTTP_SESSION_IDLE_MS', '1.5'],
      ['MCP_HTTP_MAX_CONNECTIONS', '1e3'],
      ['MCP_HTTP_REQUEST_TIMEOUT_MS', '99999999999999999999'],
    ] as const) {
      const attempt = () => httpLimitsFromEnv({ [name]: raw });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(
        new RegExp(`^${name}: expected a positive integer.*got "${raw.replace('.', '\\.')}"$`),
      );
    }
    expect(() => httpServeConfig({ transport: 'http' }, { MCP_HTTP_MAX_REQUESTS: 'many' })).toThrow(
      ConfigError,
    );
    expect(() => httpLimitsFromEnv({ MCP_HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /MCP_HTTP_HEADERS_TIMEOUT_MS \(40000\) must not exceed MCP_HTTP_REQUEST_TIMEOUT_MS \(30000\)/,
    );
  });

  it('sets node:http timeouts without an idle-socket timeout (SSE streams stay open)', () => {
    const server = createServer(nodeServerOptions(DEFAULT_HTTP_LIMITS));
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
    expect(server.keepAliveTimeout).toBe(5_000);
    expect(server.timeout).toBe(0);
  });
});

describe('limitConnections', () => {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  const listen = async (max: number, onRequest: (res: import('node:http').ServerResponse) => void) => {
    server = createServer((_req, res) => onRequest(res));
    const stats = limitConnections(server, max);
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const open = () => {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => {});
      sockets.push(s);
      return s;
    };
    return { stats, open };
  };

  it('holds at most the cap under a flood of idle connections, closing the oldest idle ones', async () => {
    const { stats, open } = await listen(100, (res) => res.end('ok'));
    const flood = Array.from({ length: 600 }, open);
    await expect.poll(() => flood.filter((s) => s.destroyed).length, EVENTUALLY).toBe(500);
    expect(stats()).toEqual({ connections: 100, busy: 0 });
    // The oldest went first.
    expect(flood.slice(0, 500).every((s) => s.destroyed)).toBe(true);
    expect(flood.slice(500).some((s) => s.destroyed)).toBe(false);
  }, 60_000);

  it('answers 503 when every connection has a request in flight, and counts them busy', async () => {
    const { stats, open } = await listen(2, () => {});
    for (const s of [open(), open()]) s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => stats().busy, EVENTUALLY).toBe(2);
    const refused = open();
    let text = '';
    refused.on('data', (d) => {
      text += d;
    });
    await new Promise((r) => refused.once('close', r));
    expect(text).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(text).toContain('Retry-After: 1');
    expect(JSON.parse(text.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      error: { message: 'too many open connections' },
    });
    expect(stats()).toEqual({ connections: 2, busy: 2 });
  }, 60_000);
});

describe('serveHttp under short timeouts', () => {
  const call = (url: string, id: number, name: string, signal?: AbortSignal) =>
    fetch(url, {
      method: 'POST',
      signal,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name,
          arguments: {},
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
            [CLIENT_INFO_META_KEY]: { name: 'probe', version: '1' },
            [CLIENT_CAPABILITIES_META_KEY]: {},
          },
        },
      }),
    });

  it('lets a tool call outlast the request timeout, and frees the slot of every call aborted mid-call', async () => {
    let started = 0;
    const factory = () => {
      const server = new McpServer({ name: 'probe', version: '1.0.0' });
      server.registerTool('slow', { description: 'slow' }, async () => {
        await new Promise((r) => setTimeout(r, 2500));
        return { content: [{ type: 'text', text: 'done' }] };
      });
      server.registerTool('hang', { description: 'hangs' }, async () => {
        started++;
        await new Promise((r) => setTimeout(r, 60_000).unref());
        return { content: [{ type: 'text', text: 'late' }] };
      });
      return server;
    };
    const handle = await serveHttp(
      factory,
      {
        host: '127.0.0.1',
        port: 0,
        allowedHosts: [],
        allowedOrigins: [],
        limits: { ...DEFAULT_HTTP_LIMITS, headersTimeoutMs: 500, requestTimeoutMs: 1000, maxRequests: 4 },
      },
      { onerror: () => {} },
    );
    try {
      const slow = await call(handle.url, 1, 'slow');
      expect(slow.status).toBe(200);
      expect(await slow.text()).toContain('"text":"done"');
      // Five times the cap of 4: a slot an aborted call kept would run out long before the last.
      for (let i = 0; i < 20; i++) {
        const abort = new AbortController();
        const pending = call(handle.url, 10 + i, 'hang', abort.signal).catch(() => undefined);
        await expect.poll(() => started, EVENTUALLY).toBe(i + 1);
        abort.abort();
        await pending;
        // The server frees the slot once it sees the abort (later on a loaded machine): wait for
        // that, not for the next call to race it into a 503.
        await expect.poll(() => handle.stats().active, EVENTUALLY).toBe(0);
      }
      const after = await call(handle.url, 2, 'slow');
      expect(after.status).toBe(200);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
