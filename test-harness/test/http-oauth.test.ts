// OAuth on `--transport http` (issue 19, shared/src/transport/http/auth.ts): the built filesystem server
// as a resource server for a local issuer (src/services/oauth-issuer.ts) — good tokens in both eras,
// every refusal with its status and RFC 6750 challenge, the RFC 9728 document, an unreachable JWKS.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectHttp,
  type HttpServer,
  type OAuthIssuer,
  rawHttp,
  startHttpServer,
  startOAuthIssuer,
} from '../src/index.js';

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('--transport http with OAuth (filesystem)', () => {
  let dir: string;
  let issuer: OAuthIssuer;
  let server: HttpServer;
  let audience: string;
  const tokens: string[] = [];
  const mint = async (claims: Record<string, unknown> = {}) => {
    const t = await issuer.mint({ aud: audience, scope: 'mcp:tools', ...claims });
    tokens.push(t);
    return t;
  };
  const post = (token: string | undefined, body = INITIALIZE) =>
    rawHttp(server.url, { body, headers: token ? { Authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refmcp-oauth-'));
    issuer = await startOAuthIssuer();
    server = await startHttpServer('filesystem', [dir], {
      env: { MCP_HTTP_OAUTH_ISSUER: issuer.issuer, MCP_HTTP_OAUTH_SCOPES: 'mcp:tools' },
    });
    audience = server.url.href;
  });
  afterAll(async () => {
    await server?.stop();
    await issuer?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a good token in both eras, fetching the discovery document and JWKS once', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const { client } = await connectHttp(server.url, era, await mint());
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    }
    expect(issuer.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
    expect(issuer.hits.get('/jwks')).toBe(1);
  });

  it("binds a 2025-11-25 session to its opener: another subject's valid token gets 404 on it", async () => {
    const { client, transport } = await connectHttp(server.url, 'legacy', await mint({ sub: 'alice' }));
    try {
      const sid = transport.sessionId ?? '';
      expect(sid).not.toBe('');
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' });
      const headers = (token: string) => ({
        Authorization: `Bearer ${token}`,
        'Mcp-Session-Id': sid,
        'Mcp-Protocol-Version': '2025-11-25',
      });
      const bob = await rawHttp(server.url, { headers: headers(await mint({ sub: 'bob' })), body: ping });
      expect(bob.status).toBe(404);
      // A token naming only a client called "alice" is not the subject alice.
      const client = await mint({ sub: undefined, client_id: 'alice', azp: 'alice' });
      expect((await rawHttp(server.url, { headers: headers(client), body: ping })).status).toBe(404);
      const alice = await rawHttp(server.url, { headers: headers(await mint({ sub: 'alice' })), body: ping });
      expect(alice.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('serves the RFC 9728 document, root and path-suffixed, without auth', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const r = await rawHttp(server.url, { method: 'GET', path });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({
        resource: server.url.href,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['mcp:tools'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('answers no token with 401 and a challenge naming the metadata, without an error code', async () => {
    const r = await post(undefined);
    expect(r.status).toBe(401);
    const metadata = `http://${server.url.host}/.well-known/oauth-protected-resource/mcp`;
    expect(r.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadata}", scope="mcp:tools"`);
  });

  it('refuses every bad token with 401 invalid_token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const bad: Record<string, string> = {
      expired: await mint({ iat: now - 600, exp: now - 120 }),
      'not yet valid': await mint({ nbf: now + 600 }),
      'wrong audience': await mint({ aud: 'https://other.example/mcp' }),
      'wrong issuer': await mint({ iss: 'https://evil.example' }),
      'wrong key': await issuer.forge('other-key', { aud: audience, scope: 'mcp:tools' }),
      'alg none': await issuer.forge('none', { aud: audience, scope: 'mcp:tools' }),
      'HS256 with the public key': await issuer.forge('hs256-public', { aud: audience, scope: 'mcp:tools' }),
      malformed: 'not.a.jwt',
      'sub not a string': await mint({ sub: 42 }),
      'names no subject or client': await mint({ sub: undefined, client_id: undefined }),
    };
    for (const [why, token] of Object.entries(bad)) {
      tokens.push(token);
      const r = await post(token);
      expect(r.status, why).toBe(401);
      expect(r.headers['www-authenticate'], why).toMatch(
        /^Bearer error="invalid_token", error_description="[^"]+", scope="mcp:tools", resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/,
      );
    }
  });

  it('refuses a token without the required scope with 403 insufficient_scope', async () => {
    const r = await post(await mint({ scope: 'other' }));
    expect(r.status).toBe(403);
    expect(r.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope".*scope="mcp:tools"/);
  });

  it('accepts scopes from `scp` (array) and a stateless tools/list', async () => {
    const r = await rawHttp(server.url, {
      body: LIST,
      headers: {
        Authorization: `Bearer ${await mint({ scope: undefined, scp: ['mcp:tools'] })}`,
        'MCP-Protocol-Version': '2026-07-28',
      },
    });
    expect(r.status).not.toBe(401);
    expect(r.status).not.toBe(403);
  });

  it('never writes a token to stderr', () => {
    expect(tokens.length).toBeGreaterThan(5);
    for (const t of tokens) expect(server.stderr()).not.toContain(t.split('.')[2] || t);
  });
});

describe('OAuth with the JWKS unreachable', () => {
  it('answers 503 with Retry-After (no crash, no hang) and logs the cause without the token', async () => {
    const issuer = await startOAuthIssuer();
    const dir = await mkdtemp(join(tmpdir(), 'refmcp-oauth-'));
    const jwksUrl = issuer.jwksUrl;
    await issuer.stop();
    const server = await startHttpServer('filesystem', [dir], {
      env: { MCP_HTTP_OAUTH_ISSUER: issuer.issuer, MCP_HTTP_OAUTH_JWKS_URL: jwksUrl },
    });
    try {
      const token = await issuer.mint({ aud: server.url.href });
      const r = await rawHttp(server.url, {
        body: INITIALIZE,
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
      expect(server.stderr()).toMatch(/OAuth: cannot fetch the authorization server's keys/);
      expect(server.stderr()).not.toContain(token.split('.')[2]);
      expect(server.proc.exitCode).toBeNull();
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('OAuth config errors', () => {
  it('refuses MCP_HTTP_TOKEN with MCP_HTTP_OAUTH_ISSUER, and an http issuer off loopback: one line, exit 2', async () => {
    for (const [env, message] of [
      [{ MCP_HTTP_TOKEN: 't', MCP_HTTP_OAUTH_ISSUER: 'https://as.example' }, /not both/],
      [{ MCP_HTTP_OAUTH_ISSUER: 'http://as.example' }, /MCP_HTTP_OAUTH_ISSUER: expected an https URL/],
    ] as const) {
      await expect(startHttpServer('filesystem', ['/tmp'], { env: { ...env } })).rejects.toThrow(message);
    }
  });
});
