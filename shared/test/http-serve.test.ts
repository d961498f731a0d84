// The HTTP transport's pieces without a built server: flags → settings, the unsafe-bind refusal, the
// static token verifier, and per-instance shutdown signals under per-request (2026-07-28) serving.
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  McpServer,
  OAuthError,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/server/errors.js';
import { httpHelp, httpServeConfig, isLoopbackHost, unsafeBindReason } from '../src/transport/http/flags.js';
import { DEFAULT_HTTP_LIMITS } from '../src/transport/http/limits.js';
import { perInstanceShutdown, serveHttp, staticTokenVerifier } from '../src/transport/http/serve.js';

describe('httpServeConfig', () => {
  it('is undefined for stdio (the default) and defaults to 127.0.0.1:3000 for http', () => {
    expect(httpServeConfig({}, {})).toBeUndefined();
    expect(httpServeConfig({ transport: 'stdio' }, {})).toBeUndefined();
    expect(
      httpServeConfig({ transport: 'http' }, { MCP_HTTP_ALLOWED_HOSTS: 'a.example, B.example' }),
    ).toEqual({
      host: '127.0.0.1',
      port: 3000,
      token: undefined,
      allowedHosts: ['a.example', 'b.example'],
      allowedOrigins: [],
      limits: DEFAULT_HTTP_LIMITS,
    });
    const token = '0123456789abcdef';
    expect(httpServeConfig({ transport: 'http', port: '0' }, { MCP_HTTP_TOKEN: token })).toMatchObject({
      port: 0,
      token,
    });
  });

  it('refuses an unknown transport, a bad port, and --port/--host without http', () => {
    expect(() => httpServeConfig({ transport: 'sse' }, {})).toThrow(ConfigError);
    expect(() => httpServeConfig({ transport: 'http', port: '70000' }, {})).toThrow(
      /--port: expected 0..65535/,
    );
    expect(() => httpServeConfig({ transport: 'http', port: '-1' }, {})).toThrow(ConfigError);
    expect(() => httpServeConfig({ port: '3000' }, {})).toThrow('--port and --host need --transport http');
  });

  it('refuses a bad --host, an unknown MCP_HTTP_* variable and a short token', () => {
    const http = (values: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
      httpServeConfig({ transport: 'http', ...values }, env);
    for (const host of ['0.0.0.0', '::', '[::1]', 'localhost', 'mcp-1.internal'])
      expect(http({ host })?.host).toBe(host);
    // `--host /tmp/dir` (a forgotten host value swallowing the next argument) and friends.
    for (const host of ['/tmp/dir', 'a b', 'http://x', 'x:80', '-x', ''])
      expect(() => http({ host }), host).toThrow(
        `--host: expected an IP address or host name, got ${JSON.stringify(host)}`,
      );
    expect(() => http({}, { MCP_HTTP_TOKN: 'x'.repeat(32) })).toThrow(
      /^MCP_HTTP_TOKN: not a setting \(known: MCP_HTTP_TOKEN, /,
    );
    expect(() => http({}, { MCP_HTTP_TOKEN: 'abc' })).toThrow(
      'MCP_HTTP_TOKEN: at least 16 characters, got 3 (e.g. openssl rand -hex 32)',
    );
  });

  it('takes bare hostnames, IPv4 and bracketed IPv6 in the allowlists, and refuses anything else', () => {
    const http = (env: NodeJS.ProcessEnv) => httpServeConfig({ transport: 'http' }, env);
    expect(
      http({
        MCP_HTTP_ALLOWED_HOSTS: 'MCP.Example.com, mcp-1.internal, 10.0.0.5, [::1], [2001:db8::1]',
        MCP_HTTP_ALLOWED_ORIGINS: 'app.example.com, moz-extension://*',
      }),
    ).toMatchObject({
      allowedHosts: ['mcp.example.com', 'mcp-1.internal', '10.0.0.5', '[::1]', '[2001:db8::1]'],
      allowedOrigins: ['app.example.com', 'moz-extension://*'],
    });
    for (const bad of [
      'mcp.example.com:8080',
      'http://mcp.example.com',
      'mcp.example.com/mcp',
      '::1',
      '[::1]:8080',
      '[0:0::1]',
      '*.example.com',
      'user@mcp.example.com',
      '127.1',
    ]) {
      for (const name of ['MCP_HTTP_ALLOWED_HOSTS', 'MCP_HTTP_ALLOWED_ORIGINS']) {
        let error: unknown;
        try {
          http({ [name]: `ok.example, ${bad}` });
        } catch (e) {
          error = e;
        }
        expect(error, `${name}=${bad}`).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toBe(
          `${name}: ${JSON.stringify(bad)} is not a hostname (hostnames only, no port or scheme: e.g. mcp.example.com, 10.0.0.5, [::1])`,
        );
      }
    }
    // The SDK's scheme wildcard is for Origin only, and never for http(s) (list websites by name).
    expect(() => http({ MCP_HTTP_ALLOWED_HOSTS: 'moz-extension://*' })).toThrow(ConfigError);
    expect(() => http({ MCP_HTTP_ALLOWED_ORIGINS: 'https://*' })).toThrow(ConfigError);
  });

  it('prints --host help within 100 columns, naming both kinds of authentication', () => {
    const lines = httpHelp();
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    const host = lines
      .slice(lines.findIndex((l) => l.startsWith('  --host')))
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(host).toMatch(/MCP_HTTP_TOKEN or MCP_HTTP_OAUTH_ISSUER/);
    expect(host).toMatch(/MCP_HTTP_\*.*HTTP mode/);
  });
});

describe('unsafeBindReason', () => {
  const config = (host: string, token?: string) => ({
    host,
    port: 0,
    token,
    allowedHosts: [],
    allowedOrigins: [],
  });
  it('allows loopback without a token and anything with one', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    expect(unsafeBindReason(config('127.0.0.1'))).toBeUndefined();
    expect(unsafeBindReason(config('0.0.0.0', 'secret'))).toBeUndefined();
  });
  it('refuses a non-loopback bind without a token, naming MCP_HTTP_TOKEN', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.5']) {
      expect(isLoopbackHost(host)).toBe(false);
      expect(unsafeBindReason(config(host))).toMatch(/without authentication: set MCP_HTTP_TOKEN/);
    }
  });
  it('refuses a non-loopback MCP_HTTP_ALLOWED_HOSTS name without a token (a proxy forwards to loopback)', () => {
    const behindProxy = (allowedHosts: string[], token?: string) => ({
      ...config('127.0.0.1', token),
      allowedHosts,
    });
    expect(unsafeBindReason(behindProxy(['localhost', '[::1]', '127.0.0.2']))).toBeUndefined();
    expect(unsafeBindReason(behindProxy(['localhost', 'mcp.example.internal']))).toMatch(
      /^refusing to serve HTTP for MCP_HTTP_ALLOWED_HOSTS mcp\.example\.internal without authentication .*set MCP_HTTP_TOKEN/,
    );
    expect(unsafeBindReason(behindProxy(['mcp.example.internal'], 'secret'))).toBeUndefined();
  });
});

describe('staticTokenVerifier', () => {
  it('accepts exactly the token (with an expiry, which the SDK requires) and refuses others', async () => {
    const verifier = staticTokenVerifier('s3cret-token');
    await expect(verifier.verifyAccessToken('s3cret-token')).resolves.toMatchObject({
      token: 's3cret-token',
      expiresAt: expect.any(Number),
    });
    for (const wrong of ['', 's3cret', 's3cret-token2', 'S3CRET-TOKEN'])
      await expect(verifier.verifyAccessToken(wrong)).rejects.toBeInstanceOf(OAuthError);
  });
});

describe('perInstanceShutdown under per-request serving', () => {
  it('gives each instance a signal aborted by shutdown, dropped once the instance closes', async () => {
    const shutdown = new AbortController();
    const signalOf = perInstanceShutdown(shutdown.signal);
    const signals: AbortSignal[] = [];
    let closed = 0;
    const factory = () => {
      const server = new McpServer({ name: 'probe', version: '1.0.0' });
      server.registerTool('t', { description: 'ok' }, async () => ({
        content: [{ type: 'text', text: 'ok' }],
      }));
      signals.push(signalOf(server));
      const previous = server.server.onclose;
      server.server.onclose = () => {
        closed++;
        previous?.();
      };
      return server;
    };
    const handle = await serveHttp(
      factory,
      { host: '127.0.0.1', port: 0, allowedHosts: [], allowedOrigins: [] },
      { onerror: () => {} },
    );
    try {
      for (let id = 0; id < 3; id++) {
        const response = await fetch(handle.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2026-07-28',
            'Mcp-Method': 'tools/call',
            'Mcp-Name': 't',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
              name: 't',
              arguments: {},
              _meta: {
                [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
                [CLIENT_INFO_META_KEY]: { name: 'probe', version: '1' },
                [CLIENT_CAPABILITIES_META_KEY]: {},
              },
            },
          }),
        });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('"text":"ok"');
      }
      await new Promise((r) => setTimeout(r, 50));
      // One instance per request, each closed after its exchange: nothing piles up on the shutdown signal.
      expect(signals).toHaveLength(3);
      expect(closed).toBe(3);
      const live = signalOf(new McpServer({ name: 'live', version: '1.0.0' }));
      shutdown.abort(new Error('bye'));
      expect(live.aborted).toBe(true);
      expect(signals.map((s) => s.aborted)).toEqual([false, false, false]);
    } finally {
      await handle.close();
    }
  });
});
