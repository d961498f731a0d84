// Issue 28 item 7: a browser-based host on an origin the operator allowed (MCP_HTTP_ALLOWED_ORIGINS)
// can use `/mcp` — its preflight is answered and every response carries CORS headers — while any
// other origin, the default-admitted loopback ones included, gets no CORS header at all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServer, type RawHttpResponse, rawHttp, startHttpServer } from '../src/index.js';

const TOKEN = 'test-token-0123456789abcdef';
const APP = 'https://app.example.com';
const EXTENSION = 'moz-extension://4b1e2c3d';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
});

const corsOf = (res: RawHttpResponse) =>
  Object.fromEntries(
    Object.entries(res.headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
  );

describe('CORS for MCP_HTTP_ALLOWED_ORIGINS (filesystem over HTTP)', () => {
  let dir: string;
  let server: HttpServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refmcp-cors-'));
    server = await startHttpServer('filesystem', [dir], {
      env: { MCP_HTTP_TOKEN: TOKEN, MCP_HTTP_ALLOWED_ORIGINS: 'app.example.com, moz-extension://*' },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const preflight = (origin: string, requestHeaders: string) =>
    rawHttp(server.url, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': requestHeaders,
      },
    });

  it('answers the preflight of an allowed origin without credentials, listing methods and headers', async () => {
    for (const origin of [APP, EXTENSION]) {
      const res = await preflight(
        origin,
        'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id, mcp-param-path',
      );
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, DELETE');
      const allowed = String(res.headers['access-control-allow-headers']).split(', ');
      for (const header of [
        'authorization',
        'content-type',
        'mcp-session-id',
        'mcp-protocol-version',
        'last-event-id',
        'mcp-method',
        'mcp-name',
        'mcp-param-path',
      ])
        expect(allowed).toContain(header);
      // A header that is not the transport's own is not admitted by echo.
      expect(allowed).not.toContain('x-evil');
      expect(res.headers.vary).toBe('Origin');
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    }
  });

  it('lets the page read Mcp-Session-Id on the answer, and WWW-Authenticate on a 401', async () => {
    const ok = await rawHttp(server.url, {
      headers: { Origin: APP, Authorization: `Bearer ${TOKEN}` },
      body: INITIALIZE,
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toBeTruthy();
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(String(ok.headers['access-control-expose-headers']).split(', ')).toEqual(
      expect.arrayContaining(['Mcp-Session-Id', 'WWW-Authenticate', 'MCP-Protocol-Version']),
    );
    expect(ok.headers.vary).toBe('Origin');
    const denied = await rawHttp(server.url, { headers: { Origin: APP }, body: INITIALIZE });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe(APP);
    expect(String(denied.headers['access-control-expose-headers'])).toContain('WWW-Authenticate');
  });

  it('gives no CORS header to any other origin, nor to a request without one', async () => {
    const foreign = await preflight('https://evil.example', 'content-type');
    expect(foreign.status).toBe(403);
    expect(corsOf(foreign)).toEqual({});
    // Loopback origins pass the DNS-rebinding check by default, but were not allowed for CORS.
    const local = await preflight(`http://localhost:${server.url.port}`, 'content-type');
    expect(local.status).toBe(204);
    expect(corsOf(local)).toEqual({});
    const localPost = await rawHttp(server.url, {
      headers: { Origin: 'http://127.0.0.1:5173', Authorization: `Bearer ${TOKEN}` },
      body: INITIALIZE,
    });
    expect(localPost.status).toBe(200);
    expect(corsOf(localPost)).toEqual({});
    const none = await rawHttp(server.url, {
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: INITIALIZE,
    });
    expect(corsOf(none)).toEqual({});
    // /healthz is not the MCP endpoint: no CORS there either.
    const health = await rawHttp(server.url, { method: 'GET', path: '/healthz', headers: { Origin: APP } });
    expect(corsOf(health)).toEqual({});
  });
});
