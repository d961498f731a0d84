/**
 * Upstream base URLs from configuration (e.g. `GITHUB_API_URL=https://ghe.example.com/api/v3`):
 * parsed once at startup, https required except on loopback (tests, local fakes, tunnels), no
 * credentials, query or fragment, no trailing slash — so `new URL(base + path)` is the only way a
 * request URL is ever built.
 */
import { isIP } from 'node:net';
import { ConfigError } from '../server/errors.js';

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and ::1 (RFC 6761 §6.3, RFC 1122 §3.2.1.3, RFC 4291). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * Parses and validates a configured base URL. `what` names the setting in errors (e.g.
 * "GITHUB_API_URL"). Returns the URL with its path's trailing slashes removed (`https://x/api/v3`).
 * Errors: ConfigError when it is not an absolute http(s) URL, uses plain http to a host that is not
 * loopback, or carries user info, a query or a fragment (a token in a URL ends up in logs).
 */
export function parseBaseUrl(raw: string, what = 'base URL'): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${what}: not an absolute URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${what}: scheme must be https (got ${url.protocol})`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    throw new ConfigError(
      `${what}: plain http is allowed only for loopback hosts (localhost, 127.0.0.1, ::1); use https for ${url.hostname}`,
    );
  if (url.username || url.password)
    throw new ConfigError(`${what}: must not contain credentials; pass the token in its own variable`);
  if (url.search || url.hash || raw.includes('?') || raw.includes('#'))
    throw new ConfigError(`${what}: must not contain a query or fragment`);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** `base` + an already-encoded `path` (starting with "/"), keeping the base's own path prefix. */
export function joinUrl(base: URL, path: string): URL {
  if (!path.startsWith('/')) throw new Error(`joinUrl: path must start with "/": ${path}`);
  const prefix = base.pathname.replace(/\/+$/, '');
  return new URL(`${base.origin}${prefix}${path}`);
}
