/**
 * A tiny OAuth authorization server for tests and the bench, on 127.0.0.1: RFC 8414 metadata at
 * `/.well-known/oauth-authorization-server` and a JWKS (one ES256 key from jose's generateKeyPair)
 * at `/jwks`; `mint()` signs access tokens directly (no grant flow). `forge()` makes the bad
 * tokens a resource server must refuse (other key, `alg: none`, HS256 keyed with the public key).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';

/** A running issuer. */
export interface OAuthIssuer {
  /** The issuer identifier, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  issuer: string;
  /** The JWKS URL. */
  jwksUrl: string;
  /** Requests served, by path (e.g. to check that a JWKS is cached). */
  hits: Map<string, number>;
  /** An ES256 access token: `iss` this issuer, `iat` now, `exp` in 5 min, `sub`/`client_id` "test-client", then `claims`. */
  mint(claims?: JWTPayload): Promise<string>;
  /** A token the issuer's JWKS cannot verify: signed by another key, unsigned, or HS256 keyed with the public key. */
  forge(kind: 'other-key' | 'none' | 'hs256-public', claims?: JWTPayload): Promise<string>;
  stop(): Promise<void>;
}

/** Starts an issuer on a free loopback port. */
export async function startOAuthIssuer(): Promise<OAuthIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const other = await generateKeyPair('ES256');
  const kid = 'test-key-1';
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const hits = new Map<string, number>();
  let base = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (body: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/oauth-authorization-server')
      return json({
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'client_credentials'],
        code_challenge_methods_supported: ['S256'],
      });
    if (path === '/jwks') return json({ keys: [jwk] });
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const claimsOf = (claims: JWTPayload = {}): JWTPayload => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: base, sub: 'test-client', client_id: 'test-client', iat: now, exp: now + 300, ...claims };
  };
  return {
    issuer: base,
    jwksUrl: `${base}/jwks`,
    hits,
    mint: (claims) =>
      new SignJWT(claimsOf(claims)).setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' }).sign(privateKey),
    async forge(kind, claims) {
      const payload = claimsOf(claims);
      if (kind === 'other-key')
        return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid }).sign(other.privateKey);
      if (kind === 'none') return new UnsecuredJWT(payload).encode();
      const secret = new TextEncoder().encode(await exportSPKI(publicKey));
      return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid }).sign(secret);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
