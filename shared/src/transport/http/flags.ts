/**
 * The Streamable HTTP flags every refmcp server takes (issue 19), and the settings read from them:
 *
 *   --transport stdio|http   serve over stdio (the default) or Streamable HTTP
 *   --port N                 HTTP port (default 3000; 0 = any free port, printed on stderr)
 *   --host H                 HTTP bind address (default 127.0.0.1)
 *
 * Environment: MCP_HTTP_TOKEN (static bearer token), MCP_HTTP_ALLOWED_HOSTS and
 * MCP_HTTP_ALLOWED_ORIGINS (comma-separated hostnames added to the DNS-rebinding allowlists; an
 * entry with a port, scheme or path would never match, so it refuses to start; the origins listed
 * get CORS, cors.ts), and the caps and
 * timeouts of limits.ts (MCP_HTTP_MAX_BODY_BYTES, MCP_HTTP_MAX_REQUESTS, …).
 */
import { isIP } from 'node:net';
import type { ParseArgsConfig } from 'node:util';
import { ConfigError } from '../../server/errors.js';
import { OAUTH_ENV_NAMES, type OAuthConfig, oauthConfigFromEnv } from './auth.js';
import { HTTP_LIMIT_ENV_NAMES, type HttpLimits, httpLimitsFromEnv } from './limits.js';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

export const HTTP_TRANSPORT_OPTIONS = {
  transport: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

/** Default HTTP port (`--port`). */
export const DEFAULT_HTTP_PORT = 3000;
/** Default bind address (`--host`): loopback only. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** How to serve over HTTP; present only for `--transport http`. */
export interface HttpServeConfig {
  host: string;
  /** 0 = an ephemeral port chosen by the OS. */
  port: number;
  /** Static bearer token every /mcp request must carry (env MCP_HTTP_TOKEN); undefined = no auth. */
  token?: string;
  /** OAuth resource-server settings (env MCP_HTTP_OAUTH_*, auth.ts); undefined = none. */
  oauth?: OAuthConfig;
  /** Extra allowed `Host` hostnames (no port), beyond loopback names / the bound host. */
  allowedHosts: string[];
  /** Extra allowed `Origin` hostnames (no scheme, no port), beyond the loopback ones. */
  allowedOrigins: string[];
  /** Caps and timeouts (env MCP_HTTP_MAX_* and MCP_HTTP_*_MS, limits.ts); absent = the defaults. */
  limits?: HttpLimits;
}

/** The HTTP lines of the common options' help. */
export function httpHelp(): string[] {
  return [
    '  --transport stdio|http serve over stdio (default) or Streamable HTTP at /mcp',
    `  --port N               HTTP port (default ${DEFAULT_HTTP_PORT}; 0 = any free port)`,
    `  --host H               HTTP bind address (default ${DEFAULT_HTTP_HOST}); another host needs MCP_HTTP_TOKEN`,
    '                         or MCP_HTTP_OAUTH_ISSUER. Settings: env MCP_HTTP_* (README "HTTP mode")',
  ];
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/**
 * Whether `entry` (lowercased) can match a request: the SDK compares it with the `Host`/`Origin`
 * header's parsed hostname, so it must be one as `URL` spells it — a DNS name, an IPv4 address or
 * a bracketed IPv6 address, with no port, scheme or path. For Origin the SDK also takes
 * `<scheme>://*` for a non-http(s) scheme (every origin of it, e.g. `moz-extension://*`).
 */
function isAllowlistHostname(entry: string, origin: boolean): boolean {
  if (origin && /^[a-z][a-z0-9+.-]*:\/\/\*$/.test(entry) && !/^https?:/.test(entry)) return true;
  if (!/^([a-z0-9_.-]+|\[[0-9a-f:.]+\])$/.test(entry)) return false;
  try {
    return new URL(`http://${entry}`).hostname === entry;
  } catch {
    return false;
  }
}

/** The comma-separated hostnames of allowlist variable `name`. Errors: ConfigError for an entry that is not one. */
function hostnameList(env: NodeJS.ProcessEnv, name: string, origin: boolean): string[] {
  const entries = list(env[name]);
  const bad = entries.find((entry) => !isAllowlistHostname(entry, origin));
  if (bad !== undefined)
    throw new ConfigError(
      `${name}: ${JSON.stringify(bad)} is not a hostname (hostnames only, no port or scheme: e.g. mcp.example.com, 10.0.0.5, [::1])`,
    );
  return entries;
}

/** Every MCP_HTTP_* variable read; any other is a typo (MCP_HTTP_TOKN would leave the token unset). */
const HTTP_ENV_NAMES = new Set<string>([
  'MCP_HTTP_TOKEN',
  'MCP_HTTP_ALLOWED_HOSTS',
  'MCP_HTTP_ALLOWED_ORIGINS',
  'MCP_HTTP_OAUTH_ISSUER',
  ...OAUTH_ENV_NAMES,
  ...Object.values(HTTP_LIMIT_ENV_NAMES),
]);

/**
 * Shortest MCP_HTTP_TOKEN accepted, in characters: 16 (64 bits as hex). The README's
 * `openssl rand -hex 32` gives 64.
 */
export const MIN_HTTP_TOKEN_LENGTH = 16;

/** A bind address: an IP address (IPv6 bracketed or not) or a DNS name. */
function isBindHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1');
  return isIP(h) !== 0 || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(h);
}

/**
 * The HTTP settings from parseArgs values and env, or undefined for stdio.
 * Errors: ConfigError for an unknown --transport, a bad --port or --host, --port/--host without
 * http, an unknown MCP_HTTP_* variable, an MCP_HTTP_TOKEN shorter than
 * {@link MIN_HTTP_TOKEN_LENGTH}, an allowlist entry that is not a hostname, a bad cap or timeout
 * in env, or bad OAuth settings (oauthConfigFromEnv).
 */
export function httpServeConfig(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): HttpServeConfig | undefined {
  const transport = (values.transport as string | undefined) ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http')
    throw new ConfigError(`--transport: expected stdio or http, got ${JSON.stringify(transport)}`);
  if (transport === 'stdio') {
    if (values.port !== undefined || values.host !== undefined)
      throw new ConfigError('--port and --host need --transport http');
    return undefined;
  }
  const portText = (values.port as string | undefined) ?? String(DEFAULT_HTTP_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new ConfigError(`--port: expected 0..65535, got ${JSON.stringify(portText)}`);
  const host = (values.host as string | undefined) ?? DEFAULT_HTTP_HOST;
  if (!isBindHost(host))
    throw new ConfigError(`--host: expected an IP address or host name, got ${JSON.stringify(host)}`);
  const unknown = Object.keys(env).find((k) => k.startsWith('MCP_HTTP_') && !HTTP_ENV_NAMES.has(k));
  if (unknown !== undefined)
    throw new ConfigError(`${unknown}: not a setting (known: ${[...HTTP_ENV_NAMES].join(', ')})`);
  const oauth = oauthConfigFromEnv(env, isLoopbackHost(host));
  const token = env.MCP_HTTP_TOKEN || undefined;
  if (token !== undefined && token.length < MIN_HTTP_TOKEN_LENGTH)
    throw new ConfigError(
      `MCP_HTTP_TOKEN: at least ${MIN_HTTP_TOKEN_LENGTH} characters, got ${token.length} (e.g. openssl rand -hex 32)`,
    );
  return {
    host,
    port,
    token,
    ...(oauth ? { oauth } : {}),
    allowedHosts: hostnameList(env, 'MCP_HTTP_ALLOWED_HOSTS', false),
    allowedOrigins: hostnameList(env, 'MCP_HTTP_ALLOWED_ORIGINS', true),
    limits: httpLimitsFromEnv(env),
  };
}

/** Whether a bind address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Why this HTTP config must not start (one line), or undefined when it is safe: without
 * MCP_HTTP_TOKEN or OAuth, a non-loopback bind, or a non-loopback name in MCP_HTTP_ALLOWED_HOSTS
 * (the name a proxy in front is reached by), would serve every tool to others unauthenticated.
 */
export function unsafeBindReason(config: HttpServeConfig): string | undefined {
  if (config.token || config.oauth) return undefined;
  if (!isLoopbackHost(config.host))
    return `refusing to serve HTTP on non-loopback host ${config.host} without authentication: set MCP_HTTP_TOKEN or MCP_HTTP_OAUTH_ISSUER (or bind --host 127.0.0.1)`;
  // A proxy on this machine (nginx) forwards other machines' requests to the loopback bind.
  const remote = config.allowedHosts.find((h) => !isLoopbackHost(h));
  if (remote !== undefined)
    return `refusing to serve HTTP for MCP_HTTP_ALLOWED_HOSTS ${remote} without authentication (a proxy in front forwards other machines' requests): set MCP_HTTP_TOKEN or MCP_HTTP_OAUTH_ISSUER`;
  return undefined;
}
