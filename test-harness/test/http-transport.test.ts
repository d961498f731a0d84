// `--transport http` (issue 19, shared/src/transport/http/serve.ts) on the built filesystem server: the SDK's
// own Streamable HTTP client in both protocol eras, and the safety layer's refusals.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp as connectWith,
  type HttpServer,
  httpLogLines,
  httpStartupFailure,
  MODERN_PROTOCOL_VERSION,
  rawHttp,
  startHttpServer,
} from '../src/index.js';

const TOKEN = 'test-token-0123456789abcdef';

/** The built filesystem server over HTTP on `dir`. */
const startHttp = (dir: string, args: string[], env: Record<string, string> = {}) =>
  startHttpServer('filesystem', [...args, dir], { env });
const connectHttp = (url: URL, era: 'legacy' | 'modern', token = TOKEN) => connectWith(url, era, token);
const raw = rawHttp;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('--transport http (filesystem)', () => {
  let dir: string;
  let server: HttpServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refmcp-http-'));
    await writeFile(join(dir, 'hello.txt'), 'hello over http\n');
    server = await startHttp(dir, [], { MCP_HTTP_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a 2025-11-25 client with a session: initialize, tools/list, a tool call', async () => {
    const { client, transport } = await connectHttp(server.url, 'legacy');
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('read_text_file');
      const result = await client.callTool({ name: 'read_text_file', arguments: { path: 'hello.txt' } });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain('hello over http');
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  });

  it('serves a 2026-07-28 client statelessly, with the same tools and answers', async () => {
    const legacy = await connectHttp(server.url, 'legacy');
    const modern = await connectHttp(server.url, 'modern');
    try {
      expect(modern.client.getNegotiatedProtocolVersion()).toBe(MODERN_PROTOCOL_VERSION);
      expect(modern.transport.sessionId).toBeUndefined();
      const [l, m] = [await legacy.client.listTools(), await modern.client.listTools()];
      expect(m.tools).toEqual(l.tools);
      const result = await modern.client.callTool({
        name: 'read_text_file',
        arguments: { path: 'hello.txt' },
      });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain('hello over http');
    } finally {
      await legacy.client.close();
      await modern.client.close();
    }
  });

  it('refuses a missing or wrong bearer token with 401 and a Bearer challenge', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer wrong-token' },
      { Authorization: `Basic ${TOKEN}` },
    ]) {
      const res = await raw(server.url, { headers, body: INITIALIZE });
      expect(res.status).toBe(401);
      expect(String(res.headers['www-authenticate'])).toMatch(/^Bearer/);
    }
  });

  it('refuses a foreign Origin and a foreign Host with 403 (DNS rebinding)', async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const origin = await raw(server.url, {
      headers: { ...auth, Origin: 'http://evil.example' },
      body: INITIALIZE,
    });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).error.message).toBe(
      'Invalid Origin: evil.example: not allowed here (the operator can add it to MCP_HTTP_ALLOWED_ORIGINS)',
    );
    const host = await raw(server.url, { headers: { ...auth, Host: 'evil.example' }, body: INITIALIZE });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toBe(
      'Invalid Host: evil.example: not allowed here (the operator can add it to MCP_HTTP_ALLOWED_HOSTS)',
    );
    const local = await raw(server.url, {
      headers: { ...auth, Origin: `http://localhost:${server.url.port}` },
      body: INITIALIZE,
    });
    expect(local.status).toBe(200);
  });

  it('refuses a body over the cap with 413', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(5 * 1024 * 1024) },
    });
    const res = await raw(server.url, { headers: { Authorization: `Bearer ${TOKEN}` }, body });
    expect(res.status).toBe(413);
  });

  it('answers /healthz without auth, and logs one JSON line per request without the token', async () => {
    const res = await raw(server.url, { method: 'GET', path: '/healthz' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    await new Promise((r) => setTimeout(r, 50));
    const lines = httpLogLines(server.stderr());
    expect(lines).toContainEqual(expect.objectContaining({ method: 'GET', path: '/healthz', status: 200 }));
    expect(lines).toContainEqual(expect.objectContaining({ method: 'POST', path: '/mcp', status: 401 }));
    // `aborted: true` is added for a client that left first (an SDK client closing its GET stream).
    for (const line of lines)
      expect(
        Object.keys(line)
          .filter((k) => k !== 'aborted')
          .sort(),
      ).toEqual(['method', 'ms', 'msg', 'path', 'status']);
    expect(server.stderr()).not.toContain(TOKEN);
    expect(server.stdout()).toBe('');
  });
});

describe('--transport http: the operator sets the ceiling', () => {
  it('serves only read-only tools under --read-only, in both eras', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'refmcp-http-ro-'));
    const server = await startHttp(dir, ['--read-only']);
    try {
      for (const era of ['legacy', 'modern'] as const) {
        const { client } = await connectHttp(server.url, era);
        try {
          const { tools } = await client.listTools();
          expect(tools.length).toBeGreaterThan(0);
          expect(tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name)).toEqual([]);
          // Not served, so refused (as an error result or a JSON-RPC error, whichever the SDK picks).
          const refused = await client
            .callTool({ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } })
            .then(
              (r) => r.isError === true,
              () => true,
            );
          expect(refused).toBe(true);
        } finally {
          await client.close();
        }
      }
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start on a non-loopback host without MCP_HTTP_TOKEN: one stderr line, exit 2', async () => {
    const exited = await httpStartupFailure('filesystem', ['--host', '0.0.0.0', tmpdir()]);
    expect(exited.code).toBe(2);
    const lines = exited.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/non-loopback host 0\.0\.0\.0 without authentication.*MCP_HTTP_TOKEN/);
  });

  it('refuses to start for a proxy (a non-loopback MCP_HTTP_ALLOWED_HOSTS name) without MCP_HTTP_TOKEN: exit 2', async () => {
    const exited = await httpStartupFailure('filesystem', [tmpdir()], {
      MCP_HTTP_ALLOWED_HOSTS: 'mcp.example.internal',
    });
    expect(exited.code).toBe(2);
    expect(exited.stderr.split('\n')[0]).toMatch(
      /^mcp-server-filesystem: refusing to serve HTTP for MCP_HTTP_ALLOWED_HOSTS mcp\.example\.internal without authentication .*MCP_HTTP_TOKEN/,
    );
  });

  it('says the port is taken and how to choose another: exit 2', async () => {
    const taken = await startHttp(tmpdir(), [], { MCP_HTTP_TOKEN: TOKEN });
    try {
      const exited = await httpStartupFailure('filesystem', ['--port', taken.url.port, tmpdir()], {
        MCP_HTTP_TOKEN: TOKEN,
      });
      expect(exited.code).toBe(2);
      expect(exited.stderr.trimEnd()).toBe(
        `mcp-server-filesystem: cannot listen on 127.0.0.1:${taken.url.port}: address already in use (EADDRINUSE) (choose another --port, or --port 0 for any free one)`,
      );
    } finally {
      await taken.stop();
    }
  });

  it('refuses to start on an MCP_HTTP_ALLOWED_HOSTS entry with a port (it would refuse every request): exit 2', async () => {
    const exited = await httpStartupFailure('filesystem', [tmpdir()], {
      MCP_HTTP_ALLOWED_HOSTS: 'mcp.example.com:8080',
    });
    expect(exited.code).toBe(2);
    expect(exited.stderr.split('\n')[0]).toBe(
      'mcp-server-filesystem: MCP_HTTP_ALLOWED_HOSTS: "mcp.example.com:8080" is not a hostname (hostnames only, no port or scheme: e.g. mcp.example.com, 10.0.0.5, [::1])',
    );
  });
});
