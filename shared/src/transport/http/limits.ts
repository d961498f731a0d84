/**
 * The HTTP mode's caps and timeouts (issue 19, "Hostile HTTP"): what an operator may set by env,
 * with the documented defaults, and their application to a node:http server so that slow clients
 * and floods of idle connections are cut off in bounded time and memory.
 *
 * Env (each a positive integer; a bad one is a ConfigError, exit 2):
 *   MCP_HTTP_MAX_BODY_BYTES       largest request body (default 4 MiB) → 413
 *   MCP_HTTP_MAX_REQUESTS         requests handled at once (default 64) → 503
 *   MCP_HTTP_MAX_SESSIONS         open 2025-11-25 sessions (default 128) → 503
 *   MCP_HTTP_SESSION_IDLE_MS      a session idle this long is closed (default 30 min)
 *   MCP_HTTP_MAX_CONNECTIONS      open TCP connections (default 1024): the oldest idle one is
 *                                 closed for a new one; with none idle, the new one gets 503
 *   MCP_HTTP_HEADERS_TIMEOUT_MS   a request's headers must arrive within this (default 10 s)
 *   MCP_HTTP_REQUEST_TIMEOUT_MS   a whole request (headers and body) within this (default 30 s)
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ConfigError } from '../../server/errors.js';

/** Largest request body accepted, in bytes (the SDK's default); larger is answered 413. */
export const MAX_HTTP_BODY_BYTES = 4 * 1024 * 1024;
/** Requests handled at once (an open SSE stream counts until it ends); more are answered 503. */
export const MAX_CONCURRENT_REQUESTS = 64;
/** Open 2025-era sessions at once; a new `initialize` beyond it is answered 503. */
export const MAX_SESSIONS = 128;
/** A session with no request for this long (milliseconds) is closed; its client gets 404 and re-initializes. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Open TCP connections at once; at the cap the oldest idle one is closed, or the new one refused (503). */
export const MAX_HTTP_CONNECTIONS = 1024;
/** Milliseconds a client has to send a request's headers (slowloris); then the socket is closed (408). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Milliseconds a client has to send a whole request, body included; then the socket is closed (408). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Milliseconds an idle keep-alive connection stays open between requests (node's default, set on purpose). */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Milliseconds between node's checks of the headers/request timeouts (its default, 30 s, would triple them). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** The caps and timeouts of one HTTP server (see the module comment for each). */
export interface HttpLimits {
  maxBodyBytes: number;
  maxRequests: number;
  maxSessions: number;
  sessionIdleMs: number;
  maxConnections: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** The documented defaults. */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = Object.freeze({
  maxBodyBytes: MAX_HTTP_BODY_BYTES,
  maxRequests: MAX_CONCURRENT_REQUESTS,
  maxSessions: MAX_SESSIONS,
  sessionIdleMs: SESSION_IDLE_MS,
  maxConnections: MAX_HTTP_CONNECTIONS,
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
});

/** The env variable of each limit. */
export const HTTP_LIMIT_ENV_NAMES: Readonly<Record<keyof HttpLimits, string>> = {
  maxBodyBytes: 'MCP_HTTP_MAX_BODY_BYTES',
  maxRequests: 'MCP_HTTP_MAX_REQUESTS',
  maxSessions: 'MCP_HTTP_MAX_SESSIONS',
  sessionIdleMs: 'MCP_HTTP_SESSION_IDLE_MS',
  maxConnections: 'MCP_HTTP_MAX_CONNECTIONS',
  headersTimeoutMs: 'MCP_HTTP_HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'MCP_HTTP_REQUEST_TIMEOUT_MS',
};

/**
 * The limits from env, each defaulting to {@link DEFAULT_HTTP_LIMITS}. Errors: ConfigError
 * "MCP_HTTP_…: expected a positive integer, got "<raw>"", or when the headers timeout exceeds
 * the request timeout (node refuses that pair).
 */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS };
  for (const key of Object.keys(HTTP_LIMIT_ENV_NAMES) as (keyof HttpLimits)[]) {
    const name = HTTP_LIMIT_ENV_NAMES[key];
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const n = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1)
      throw new ConfigError(
        `${name}: expected a positive integer${key.endsWith('Ms') ? ' of milliseconds' : key === 'maxBodyBytes' ? ' of bytes' : ''}, got ${JSON.stringify(raw)}`,
      );
    limits[key] = n;
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs)
    throw new ConfigError(
      `MCP_HTTP_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed MCP_HTTP_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`,
    );
  return limits;
}

/** The `options` for node's `createServer` that bound slow clients (node:http, "http.createServer"). */
export function nodeServerOptions(limits: HttpLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, limits.headersTimeoutMs),
    // No socket inactivity timeout (`server.timeout` stays 0): an SSE stream or a long tool call
    // is silent while the server works. Idle phases are bounded by the three timeouts above.
  };
}

const REFUSAL = (() => {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32000, message: 'too many open connections' },
    id: null,
  });
  return [
    'HTTP/1.1 503 Service Unavailable',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Retry-After: 1',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
})();

/** Counts of a limited server's connections. */
export interface ConnectionStats {
  /** Open TCP connections. */
  connections: number;
  /** Connections with a request being handled (the rest are idle or still sending headers). */
  busy: number;
}

/**
 * Caps `server`'s open connections at `maxConnections`. At the cap a new connection first closes
 * the oldest connection with no request in flight (an idle keep-alive, or one still trickling its
 * headers), so idle floods cannot starve real clients; when every connection has a request in
 * flight the new one is answered 503 (`Retry-After: 1`, `Connection: close`) and closed.
 * Call before `listen`; returns live counts.
 */
export function limitConnections(server: Server, maxConnections: number): () => ConnectionStats {
  // Insertion order = age: the first idle entry is the oldest idle connection.
  const open = new Map<Socket, { inFlight: number }>();
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    if (open.size >= maxConnections) {
      let evicted = false;
      for (const [other, state] of open)
        if (state.inFlight === 0) {
          open.delete(other);
          other.destroy();
          evicted = true;
          break;
        }
      if (!evicted) {
        socket.on('error', () => {});
        socket.end(REFUSAL);
        socket.resume();
        setTimeout(() => socket.destroy(), 1_000).unref();
        return;
      }
    }
    open.set(socket, { inFlight: 0 });
    socket.once('close', () => open.delete(socket));
    for (const listener of httpListeners) listener.call(server, socket);
  });
  server.prependListener('request', (req, res) => {
    const state = open.get(req.socket);
    if (!state) return;
    state.inFlight++;
    res.once('close', () => state.inFlight--);
  });
  return () => {
    let busy = 0;
    for (const state of open.values()) if (state.inFlight > 0) busy++;
    return { connections: open.size, busy };
  };
}
