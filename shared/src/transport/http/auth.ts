/**
 * OAuth 2.1 resource-server authentication for `--transport http` (issue 19; MCP spec 2025-11-25
 * "Authorization"): JWT access tokens verified with `jose` against the authorization server's JWKS,
 * RFC 9728 Protected Resource Metadata, RFC 6750 bearer challenges, RFC 8707 audience binding.
 *
 * Environment (read by {@link oauthConfigFromEnv}):
 *   MCP_HTTP_OAUTH_ISSUER    the authorization server's issuer, exactly as in tokens' `iss` (https; http only on localhost/127.0.0.1)
 *   MCP_HTTP_OAUTH_AUDIENCE  the `aud` tokens must name (default: the resource URL)
 *   MCP_HTTP_OAUTH_JWKS_URL  the JWKS (default: `jwks_uri` from the issuer's RFC 8414 / OIDC discovery document)
 *   MCP_HTTP_OAUTH_SCOPES    scopes every token must carry (space- or comma-separated)
 *   MCP_HTTP_RESOURCE_URL    this endpoint's public URL (default on a loopback bind: http://HOST:PORT/mcp)
 */
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type OAuthMetadata,
  type OAuthTokenVerifier,
  verifyBearerToken,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { ConfigError } from '../../server/errors.js';

/** OAuth settings from the environment. */
export interface OAuthConfig {
  /** Issuer identifier, verbatim (compared as a string with `iss`). */
  issuer: string;
  /** Required `aud` value; undefined = the resource URL. */
  audience?: string;
  /** JWKS location; undefined = discovered from the issuer. */
  jwksUrl?: URL;
  /** Scopes every token must carry (403 insufficient_scope otherwise). */
  scopes: string[];
  /** Public URL of the MCP endpoint; undefined = the bound URL (loopback binds only). */
  resourceUrl?: URL;
}

/** Signature algorithms accepted: asymmetric only (never `none`, never HS* — a JWKS holds public keys). */
export const ACCEPTED_JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
/** Clock skew allowed on `nbf`/`iat`, in seconds (`exp` is enforced as is by the SDK). */
export const JWT_CLOCK_TOLERANCE_S = 30;
/** Timeout of each discovery or JWKS fetch, in milliseconds. */
export const OAUTH_FETCH_TIMEOUT_MS = 5000;
/** After the authorization server failed to answer, requests fail fast (503) for this long, in ms. */
export const OAUTH_RETRY_MS = 5000;

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const isLocal = (u: URL) => u.hostname === 'localhost' || u.hostname === '127.0.0.1';

function url(name: string, value: string, httpsOnly: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name}: expected a URL, got ${JSON.stringify(value)}`);
  }
  const ok = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && (!httpsOnly || isLocal(parsed)));
  if (!ok)
    throw new ConfigError(
      `${name}: expected an ${httpsOnly ? 'https URL (http only on localhost/127.0.0.1)' : 'http(s) URL'}, got ${JSON.stringify(value)}`,
    );
  if (parsed.hash || (httpsOnly && parsed.search))
    throw new ConfigError(`${name}: must not have a ${parsed.hash ? 'fragment' : 'query'}`);
  return parsed;
}

/** The OAuth settings' env variables besides MCP_HTTP_OAUTH_ISSUER (each needs it). */
export const OAUTH_ENV_NAMES = [
  'MCP_HTTP_OAUTH_AUDIENCE',
  'MCP_HTTP_OAUTH_JWKS_URL',
  'MCP_HTTP_OAUTH_SCOPES',
  'MCP_HTTP_RESOURCE_URL',
] as const;

/**
 * The OAuth settings from env, or undefined when MCP_HTTP_OAUTH_ISSUER is unset.
 * Errors: ConfigError for a bad URL or scope, OAuth settings without an issuer, an issuer together
 * with MCP_HTTP_TOKEN, or a non-loopback `host` without MCP_HTTP_RESOURCE_URL.
 */
export function oauthConfigFromEnv(env: NodeJS.ProcessEnv, loopback: boolean): OAuthConfig | undefined {
  const issuer = env.MCP_HTTP_OAUTH_ISSUER;
  if (!issuer) {
    const stray = OAUTH_ENV_NAMES.find((k) => env[k]);
    if (stray) throw new ConfigError(`${stray} needs MCP_HTTP_OAUTH_ISSUER`);
    return undefined;
  }
  if (env.MCP_HTTP_TOKEN)
    throw new ConfigError('set MCP_HTTP_TOKEN (static token) or MCP_HTTP_OAUTH_ISSUER (OAuth), not both');
  url('MCP_HTTP_OAUTH_ISSUER', issuer, true);
  const scopes = (env.MCP_HTTP_OAUTH_SCOPES ?? '').split(/[\s,]+/).filter(Boolean);
  const bad = scopes.find((s) => !SCOPE_TOKEN.test(s));
  if (bad) throw new ConfigError(`MCP_HTTP_OAUTH_SCOPES: not a scope: ${JSON.stringify(bad)}`);
  const resourceUrl = env.MCP_HTTP_RESOURCE_URL
    ? url('MCP_HTTP_RESOURCE_URL', env.MCP_HTTP_RESOURCE_URL, false)
    : undefined;
  if (!resourceUrl && !loopback)
    throw new ConfigError(
      'MCP_HTTP_OAUTH_ISSUER on a non-loopback host needs MCP_HTTP_RESOURCE_URL (the URL clients use)',
    );
  return {
    issuer,
    ...(env.MCP_HTTP_OAUTH_AUDIENCE ? { audience: env.MCP_HTTP_OAUTH_AUDIENCE } : {}),
    ...(env.MCP_HTTP_OAUTH_JWKS_URL
      ? { jwksUrl: url('MCP_HTTP_OAUTH_JWKS_URL', env.MCP_HTTP_OAUTH_JWKS_URL, true) }
      : {}),
    scopes,
    ...(resourceUrl ? { resourceUrl } : {}),
  };
}

/** Discovery URLs for `issuer`: RFC 8414 §3.1 (path inserted), then OIDC Discovery 1.0 §4 (path appended). */
export function discoveryUrls(issuer: string): URL[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, u.origin),
    new URL(`${path}/.well-known/openid-configuration`, u.origin),
  ];
}

async function discoverJwksUri(issuer: string, timeoutMs: number): Promise<URL> {
  let last = 'no discovery document';
  for (const where of discoveryUrls(issuer)) {
    const response = await fetch(where, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) {
      last = `${where.href}: HTTP ${response.status}`;
      continue;
    }
    const doc = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    // RFC 8414 §3.3: the document's issuer must be the one configured.
    if (doc.issuer !== issuer)
      throw new Error(`${where.href}: issuer ${JSON.stringify(doc.issuer)} is not ${issuer}`);
    if (typeof doc.jwks_uri !== 'string') throw new Error(`${where.href}: no jwks_uri`);
    return new URL(doc.jwks_uri);
  }
  throw new Error(last);
}

/** Token-side failures (401); anything else (network, timeout, bad JWKS) is the authorization server's (503). */
function tokenFault(error: unknown): string | undefined {
  if (error instanceof errors.JWTExpired) return 'token expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `token ${error.claim} claim check failed`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'token signature invalid';
  if (error instanceof errors.JWKSNoMatchingKey) return 'token signed with an unknown key';
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return 'token algorithm not accepted';
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKSMultipleMatchingKeys
  )
    return 'malformed token';
  return undefined;
}

/** Discovery of the JWKS URL failed (network, HTTP status, bad document). */
class DiscoveryError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** The authorization server's failures: discovery, or fetching the JWKS (timeout, network, non-200, bad JSON). */
function upstreamFault(error: unknown): boolean {
  return (
    error instanceof DiscoveryError ||
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    (error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC') ||
    (error instanceof TypeError && error.message === 'fetch failed')
  );
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** RFC 9068 / RFC 8693 `scope` (space-separated) or the common `scp` (array or string). */
function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string');
  return typeof raw === 'string' ? raw.split(' ').filter(Boolean) : [];
}

/** What {@link jwtAccessTokenVerifier} needs. */
export interface JwtVerifierOptions {
  issuer: string;
  audience: string;
  resource: URL;
  jwksUrl?: URL;
  /** Per fetch, ms (default {@link OAUTH_FETCH_TIMEOUT_MS}). */
  fetchTimeoutMs?: number;
  /** Upstream failures (never a token). */
  onerror?(error: Error): void;
}

/**
 * An SDK token verifier for JWT access tokens: `jwtVerify` with the issuer, audience, asymmetric
 * algorithms and `exp` required, keys from a cached remote JWKS (jose: 10 min cache, 30 s cooldown).
 * Errors: OAuthError invalid_token (→ 401) for a refused token; temporarily_unavailable (→ 503)
 * when the authorization server's discovery or JWKS cannot be fetched.
 */
export function jwtAccessTokenVerifier(options: JwtVerifierOptions): OAuthTokenVerifier {
  const timeoutMs = options.fetchTimeoutMs ?? OAUTH_FETCH_TIMEOUT_MS;
  let keys: JWTVerifyGetKey | undefined;
  let pending: Promise<JWTVerifyGetKey> | undefined;
  let unavailableUntil = 0;
  const keySet = (): Promise<JWTVerifyGetKey> => {
    if (keys) return Promise.resolve(keys);
    pending ??= (
      options.jwksUrl ? Promise.resolve(options.jwksUrl) : discoverJwksUri(options.issuer, timeoutMs)
    )
      .then((jwks) => {
        keys = createRemoteJWKSet(jwks, { timeoutDuration: timeoutMs });
        return keys;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
  const unavailable = () =>
    new OAuthError(OAuthErrorCode.TemporarilyUnavailable, 'authorization server unavailable; retry later');
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (Date.now() < unavailableUntil) throw unavailable();
      let payload: JWTPayload;
      try {
        const keys = await keySet().catch((error: unknown) => {
          throw new DiscoveryError(error);
        });
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ACCEPTED_JWT_ALGORITHMS,
          clockTolerance: JWT_CLOCK_TOLERANCE_S,
          requiredClaims: ['exp'],
        }));
      } catch (error) {
        const fault = tokenFault(error);
        if (fault) throw new OAuthError(OAuthErrorCode.InvalidToken, fault);
        // Anything not known to be the authorization server's failure refuses this token only, so
        // that no crafted token can trip the fail-fast window for everyone.
        if (!upstreamFault(error)) throw new OAuthError(OAuthErrorCode.InvalidToken, 'invalid token');
        unavailableUntil = Date.now() + OAUTH_RETRY_MS;
        const reason =
          error instanceof Error
            ? `${error.message}${error.cause ? ` (${String((error.cause as Error).message ?? error.cause)})` : ''}`
            : String(error);
        options.onerror?.(new Error(`OAuth: cannot fetch the authorization server's keys: ${reason}`));
        throw unavailable();
      }
      // A session is bound to who the token names (serve.ts ownerOf), so it must name someone:
      // `sub` is a StringOrURI (RFC 7519 §4.1.2), and RFC 9068 §2.2 requires `sub` and `client_id`.
      if (payload.sub !== undefined && !str(payload.sub))
        throw new OAuthError(OAuthErrorCode.InvalidToken, "the token's sub claim must be a non-empty string");
      const sub = str(payload.sub);
      const clientId = str(payload.client_id) ?? str(payload.azp);
      if (!sub && !clientId)
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          'the token names no subject (sub) or client (client_id, azp)',
        );
      return {
        token,
        clientId: clientId ?? (sub as string),
        scopes: scopesOf(payload),
        expiresAt: payload.exp as number,
        resource: options.resource,
        extra: { ...(sub ? { sub } : {}), iss: payload.iss },
      };
    },
  };
}

/** The OAuth side of the HTTP endpoint: the bearer gate and the RFC 9728 metadata routes. */
export interface OAuthResourceServer {
  /** The verified token, or the refusal to send (401/403 with a challenge, 503 when the AS is down). */
  gate(request: Request): Promise<AuthInfo | Response>;
  /** The metadata document for a well-known `path`, or undefined for any other path. */
  metadata(request: Request, path: string): Response | undefined;
}

/**
 * The resource server for `config`, serving `endpoint` (the bound /mcp URL, used when
 * `config.resourceUrl` is unset). Built from the SDK's `verifyBearerToken`,
 * `bearerAuthChallengeResponse`, `buildOAuthProtectedResourceMetadata`, `getOAuthProtectedResourceMetadataUrl`.
 */
export function oauthResourceServer(
  config: OAuthConfig,
  endpoint: URL,
  onerror?: (error: Error) => void,
): OAuthResourceServer {
  const resource = config.resourceUrl ?? endpoint;
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const verifier = jwtAccessTokenVerifier({
    issuer: config.issuer,
    audience: config.audience ?? resource.href,
    resource,
    ...(config.jwksUrl ? { jwksUrl: config.jwksUrl } : {}),
    ...(onerror ? { onerror } : {}),
  });
  const options = { verifier, requiredScopes: config.scopes, resourceMetadataUrl };
  const document = {
    // Only `issuer` is read by the SDK (to check it); the AS's own metadata is the client's to fetch.
    ...buildOAuthProtectedResourceMetadata({
      oauthMetadata: { issuer: config.issuer } as OAuthMetadata,
      resourceServerUrl: resource,
      ...(config.scopes.length ? { scopesSupported: config.scopes } : {}),
    }),
    bearer_methods_supported: ['header'],
  };
  const paths = new Set([
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    new URL(resourceMetadataUrl).pathname,
  ]);
  const scopeParam = config.scopes.length ? `, scope="${config.scopes.join(' ')}"` : '';
  return {
    async gate(request) {
      const header = request.headers.get('authorization');
      // RFC 6750 §3.1: a request without credentials gets a challenge with no error code.
      if (!header)
        return Response.json(
          { error: 'unauthorized', error_description: 'an OAuth bearer token is required' },
          {
            status: 401,
            headers: { 'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"${scopeParam}` },
          },
        );
      try {
        return await verifyBearerToken(header, options);
      } catch (error) {
        if (error instanceof OAuthError && error.code === OAuthErrorCode.TemporarilyUnavailable)
          return Response.json(error.toResponseObject(), { status: 503, headers: { 'Retry-After': '5' } });
        return bearerAuthChallengeResponse(error, options);
      }
    },
    metadata(request, path) {
      if (!paths.has(path)) return undefined;
      const cors = { 'Access-Control-Allow-Origin': '*' };
      if (request.method === 'OPTIONS')
        return new Response(null, {
          status: 204,
          headers: { ...cors, 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' },
        });
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return Response.json(
          { error: 'method_not_allowed' },
          { status: 405, headers: { ...cors, Allow: 'GET, HEAD, OPTIONS' } },
        );
      return Response.json(document, { headers: cors });
    },
  };
}
