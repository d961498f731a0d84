// transport/http/auth.ts units: the OAuth env settings' errors, and the JWT verifier's claim mapping and
// failure kinds (token fault → invalid_token; unreachable keys → temporarily_unavailable), with keys
// served by a local JWKS on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/server/errors.js';
import { discoveryUrls, jwtAccessTokenVerifier, oauthConfigFromEnv } from '../src/transport/http/auth.js';
import { httpServeConfig, unsafeBindReason } from '../src/transport/http/flags.js';

describe('oauthConfigFromEnv', () => {
  const ISS = 'https://as.example.com';
  it('reads the settings, scopes split on spaces or commas', () => {
    expect(
      oauthConfigFromEnv(
        { MCP_HTTP_OAUTH_ISSUER: ISS, MCP_HTTP_OAUTH_SCOPES: 'a b,c', MCP_HTTP_OAUTH_AUDIENCE: 'api://x' },
        true,
      ),
    ).toEqual({ issuer: ISS, audience: 'api://x', scopes: ['a', 'b', 'c'] });
    expect(oauthConfigFromEnv({}, true)).toBeUndefined();
  });
  it.each([
    [{ MCP_HTTP_OAUTH_ISSUER: 'ftp://as' }, /expected an https URL/],
    [{ MCP_HTTP_OAUTH_ISSUER: 'http://as.example.com' }, /http only on localhost/],
    [{ MCP_HTTP_OAUTH_ISSUER: 'not a url' }, /expected a URL/],
    [{ MCP_HTTP_OAUTH_ISSUER: `${ISS}?x=1` }, /must not have a query/],
    [{ MCP_HTTP_OAUTH_ISSUER: ISS, MCP_HTTP_TOKEN: 't' }, /not both/],
    [{ MCP_HTTP_OAUTH_AUDIENCE: 'x' }, /MCP_HTTP_OAUTH_AUDIENCE needs MCP_HTTP_OAUTH_ISSUER/],
    [{ MCP_HTTP_OAUTH_ISSUER: ISS, MCP_HTTP_OAUTH_SCOPES: 'a"b' }, /not a scope/],
    [{ MCP_HTTP_OAUTH_ISSUER: ISS, MCP_HTTP_OAUTH_JWKS_URL: 'http://keys.example/jwks' }, /JWKS_URL/],
  ])('refuses %j', (env, message) => {
    expect(() => oauthConfigFromEnv(env, true)).toThrow(ConfigError);
    expect(() => oauthConfigFromEnv(env, true)).toThrow(message);
  });
  it('needs MCP_HTTP_RESOURCE_URL off loopback; OAuth counts as authentication for the bind check', () => {
    expect(() => oauthConfigFromEnv({ MCP_HTTP_OAUTH_ISSUER: ISS }, false)).toThrow(
      /needs MCP_HTTP_RESOURCE_URL/,
    );
    const config = httpServeConfig(
      { transport: 'http', host: '0.0.0.0' },
      { MCP_HTTP_OAUTH_ISSUER: ISS, MCP_HTTP_RESOURCE_URL: 'https://mcp.example.com/mcp' },
    );
    expect(config?.oauth?.resourceUrl?.href).toBe('https://mcp.example.com/mcp');
    expect(config && unsafeBindReason(config)).toBeUndefined();
  });
  it('derives RFC 8414 and OIDC discovery URLs, path inserted and appended', () => {
    expect(discoveryUrls('https://as.example.com/tenant/1').map(String)).toEqual([
      'https://as.example.com/.well-known/oauth-authorization-server/tenant/1',
      'https://as.example.com/tenant/1/.well-known/openid-configuration',
    ]);
  });
});

describe('jwtAccessTokenVerifier', () => {
  let jwks: Server;
  let jwksUrl: URL;
  let sign: (claims: Record<string, unknown>) => Promise<string>;
  const resource = new URL('http://127.0.0.1:1/mcp');
  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256' };
    jwks = createServer((_req, res) => res.end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    jwksUrl = new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`);
    sign = (claims) =>
      new SignJWT({
        iss: 'https://as',
        aud: resource.href,
        exp: Math.floor(Date.now() / 1000) + 60,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'k' })
        .sign(privateKey);
  });
  afterAll(() => new Promise<void>((r) => jwks.close(() => r())));
  const verifier = () =>
    jwtAccessTokenVerifier({ issuer: 'https://as', audience: resource.href, resource, jwksUrl });

  it('maps claims to AuthInfo: clientId from client_id, then azp, then sub; scopes from scope or scp', async () => {
    const v = verifier();
    const exp = Math.floor(Date.now() / 1000) + 60;
    const a = await v.verifyAccessToken(
      await sign({ client_id: 'c', azp: 'z', sub: 's', scope: 'x y', exp }),
    );
    expect(a).toMatchObject({ clientId: 'c', scopes: ['x', 'y'], expiresAt: exp, resource });
    expect((await v.verifyAccessToken(await sign({ azp: 'z', sub: 's', scp: 'p q' }))).clientId).toBe('z');
    const s = await v.verifyAccessToken(await sign({ sub: 's', scp: ['r'] }));
    expect([s.clientId, s.scopes]).toEqual(['s', ['r']]);
  });
  it('refuses a token without exp, or with the wrong aud, as invalid_token naming no token', async () => {
    const token = await sign({ exp: undefined });
    await expect(verifier().verifyAccessToken(token)).rejects.toMatchObject({ code: 'invalid_token' });
    await expect(verifier().verifyAccessToken(await sign({ aud: 'other' }))).rejects.toThrow(/aud/);
  });
  it('answers an unreachable JWKS with temporarily_unavailable, then fails fast', async () => {
    const errors: Error[] = [];
    const v = jwtAccessTokenVerifier({
      issuer: 'https://as',
      audience: resource.href,
      resource,
      jwksUrl: new URL('http://127.0.0.1:1/jwks'),
      onerror: (e) => errors.push(e),
    });
    const token = await sign({});
    await expect(v.verifyAccessToken(token)).rejects.toMatchObject({ code: 'temporarily_unavailable' });
    await expect(v.verifyAccessToken(token)).rejects.toMatchObject({ code: 'temporarily_unavailable' });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).not.toContain(token);
  });
});
