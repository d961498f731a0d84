/**
 * Streamable HTTP serving for every refmcp server (issue 19), built from the MCP SDK's own pieces:
 * one endpoint, `/mcp`, serving both protocol eras from the same server factory —
 *
 *   - 2026-07-28 (stateless, per-request `_meta` envelope): `createMcpHandler(factory, { legacy: 'reject' })`,
 *     a fresh server instance per request;
 *   - 2025-11-25 (`initialize` + `Mcp-Session-Id`): one `WebStandardStreamableHTTPServerTransport`
 *     and server instance per session, routed by the SDK's own `isLegacyRequest`;
 *
 * behind the safety layer: `Host` and `Origin` allowlists (DNS rebinding: 403), a static bearer
 * token (MCP_HTTP_TOKEN, constant-time, 401 + `WWW-Authenticate: Bearer`), a body cap (413), a
 * concurrency cap (503; a session's idle SSE stream and a listen stream do not count), a session cap (503), and a
 * connection cap and slow-client timeouts (408), all set by env (limits.ts); a malformed `Host`
 * is 400. Origins listed in MCP_HTTP_ALLOWED_ORIGINS get CORS (preflight and headers, cors.ts).
 * `GET /healthz` answers `{"status":"ok"}` with no auth, even at the concurrency cap. One
 * JSON line per request goes to stderr: method, path, status, ms (never headers/bodies).
 * The tools served are the ones the operator's flags selected at startup; no request changes them.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpServer,
  OAuthError,
  OAuthErrorCode,
  type OAuthTokenVerifier,
  PROTOCOL_VERSION_META_KEY,
  readRequestBody,
  requireBearerAuth,
  validateHostHeader,
  validateOriginHeader,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { ResourceListen } from '../listen.js';
import { type OAuthResourceServer, oauthResourceServer } from './auth.js';
import { corsHeaders, preflightResponse } from './cors.js';
import { type HttpServeConfig, isLoopbackHost } from './flags.js';
import { type ConnectionStats, DEFAULT_HTTP_LIMITS, limitConnections, nodeServerOptions } from './limits.js';
import { HttpListens } from './listen.js';
import { isValidHostHeader, repeatedSingletonField, sendWebResponse, toWebRequest } from './node.js';

/** The MCP endpoint's path. */
export const MCP_HTTP_PATH = '/mcp';
/** The health endpoint's path (GET, unauthenticated, no state). */
export const HEALTH_PATH = '/healthz';
export {
  MAX_CONCURRENT_REQUESTS,
  MAX_HTTP_BODY_BYTES,
  MAX_HTTP_CONNECTIONS,
  MAX_SESSIONS,
  SESSION_IDLE_MS,
} from './limits.js';

/** A running HTTP server. */
export interface HttpHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp` (the real port when `--port 0`). */
  url: string;
  /** Stops accepting, ends open streams and closes every session's server instance. */
  close(): Promise<void>;
  /** Live counts: open connections, those with a request in flight, requests in flight, sessions. */
  stats(): ConnectionStats & { active: number; sessions: number };
}

/** What {@link serveHttp} needs besides the settings. */
export interface ServeHttpOptions {
  /** Out-of-band SDK errors (already scrubbed by the caller's logger). */
  onerror(error: Error): void;
  /**
   * Serve 2025-11-25 sessions only: every 2026-07-28 (stateless) request is refused with
   * {@link sessionsOnlyRefusal}. For servers whose state lives in the server instance (the browser's
   * tabs), which a stateless request — a fresh instance each time — would lose.
   */
  sessionsOnly?: boolean;
  /**
   * The process-wide handler of 2026-07-28 resource subscriptions (`subscriptions/listen` with
   * `resourceSubscriptions`), made once with `updated`, which sends
   * `notifications/resources/updated` for a URI to every listen stream that was acknowledged for
   * it (http/listen.ts). Without it a listen is acknowledged with no resource URIs.
   */
  resourceListen?: (updated: (uri: string) => void) => ResourceListen;
}

/**
 * A verifier accepting exactly `token`: compared as SHA-256 digests with timingSafeEqual, so
 * neither the length nor a matching prefix leaks through timing. Unknown tokens throw the SDK's
 * `invalid_token` OAuthError (→ 401 with `WWW-Authenticate: Bearer`).
 */
export function staticTokenVerifier(token: string): OAuthTokenVerifier {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const expected = digest(token);
  return {
    async verifyAccessToken(presented: string): Promise<AuthInfo> {
      if (!timingSafeEqual(digest(presented), expected))
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'invalid bearer token');
      // The SDK refuses tokens without an expiry; a static token lives as long as the process.
      return { token: presented, clientId: 'static-token', scopes: [], expiresAt: 2 ** 31 - 1 };
    },
  };
}

const jsonError = (status: number, message: string, headers: Record<string, string> = {}) =>
  Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message }, id: null },
    { status, headers: { 'Content-Type': 'application/json', ...headers } },
  );

/**
 * The answer to a 2026-07-28 (stateless) request on a sessions-only server: HTTP 400 with the
 * JSON-RPC error -32022 UnsupportedProtocolVersion whose `data.supported` is `["2025-11-25"]`
 * (spec 2026-07-28, version negotiation: a client that can fall back re-connects with the
 * `initialize` handshake) and whose message says why. The request's `id` is echoed when readable.
 * The body is read from a clone, at most `maxBodyBytes` of it (the SDK's `readRequestBody`): a
 * bigger one is answered 413 like on any other path, never buffered whole.
 */
export async function sessionsOnlyRefusal(request: Request, maxBodyBytes: number): Promise<Response> {
  let id: string | number | null = null;
  let requested = request.headers.get('mcp-protocol-version') ?? undefined;
  try {
    const read = await readRequestBody(request.clone(), maxBodyBytes);
    if (read.tooLarge) return jsonError(413, `request body over ${maxBodyBytes} bytes`);
    const message = JSON.parse(read.text) as {
      id?: unknown;
      params?: { _meta?: Record<string, unknown> };
    };
    if (typeof message.id === 'string' || typeof message.id === 'number') id = message.id;
    const claimed = message.params?._meta?.[PROTOCOL_VERSION_META_KEY];
    if (typeof claimed === 'string') requested ??= claimed;
  } catch {
    // not JSON, or the body could not be read: answered all the same
  }
  const version = requested ?? 'unknown';
  const message = `Unsupported protocol version: ${version}. This server keeps per-session state (one server instance per session) and serves sessions only: connect with the 2025-11-25 initialize handshake and send its Mcp-Session-Id on every request.`;
  return Response.json(
    {
      jsonrpc: '2.0',
      id,
      error: { code: -32022, message, data: { supported: ['2025-11-25'], requested: version } },
    },
    { status: 400 },
  );
}

/**
 * The caller a session is bound to, tagged by kind so that a subject can never pass for a client
 * of the same name: `["sub", iss, sub]` for an OAuth token naming a subject, else
 * `["client", iss, clientId]` (a token naming only its client; the static token, whose holders are
 * all one caller, is the client `static-token`; no auth at all is one fixed caller).
 */
function ownerOf(authInfo: AuthInfo | undefined): string {
  const extra = authInfo?.extra as { iss?: unknown; sub?: unknown } | undefined;
  const iss = typeof extra?.iss === 'string' ? extra.iss : null;
  if (typeof extra?.sub === 'string') return JSON.stringify(['sub', iss, extra.sub]);
  return JSON.stringify(['client', iss, authInfo?.clientId ?? null]);
}

/** Messages a new session holds for its client's GET stream ({@link holdUntilStreamOpens}). */
const MAX_HELD_MESSAGES = 32;

/**
 * Holds a 2025-11-25 session's server→client requests and notifications that ride on no client
 * request (e.g. the filesystem's `roots/list` at `initialized`) until the client opens its
 * standalone SSE stream (GET /mcp), then sends them there. The SDK's transport drops such a message
 * while no stream is open (the spec lets the server use only that stream for them, spec 2025-11-25
 * transports, "Listening for Messages from the Server"), and SDK clients open it only after
 * `initialized` is answered: without the hold, a request sent then is lost and times out. At most
 * {@link MAX_HELD_MESSAGES} are held (more are dropped, as the SDK would). Returns the release, to
 * call once the stream is open; from then on messages go straight to the transport.
 */
function holdUntilStreamOpens(
  transport: WebStandardStreamableHTTPServerTransport,
  onerror: (error: Error) => void,
): () => void {
  type Send = WebStandardStreamableHTTPServerTransport['send'];
  const send: Send = transport.send.bind(transport);
  let held: Parameters<Send>[] | undefined = [];
  transport.send = async (message, options) => {
    if (held && options?.relatedRequestId === undefined && 'method' in message) {
      if (held.length < MAX_HELD_MESSAGES) held.push([message, options]);
      return;
    }
    return send(message, options);
  };
  return () => {
    const queued = held ?? [];
    held = undefined;
    for (const args of queued) send(...args).catch(onerror);
  };
}

/** Whether `request`'s body (read from a clone, at most `maxBodyBytes`) is a JSON array: a batch. */
async function isBatch(request: Request, maxBodyBytes: number): Promise<boolean> {
  const read = await readRequestBody(request.clone(), maxBodyBytes).catch(() => undefined);
  return read !== undefined && !read.tooLarge && /^\s*\[/.test(read.text);
}

/**
 * The DNS-rebinding refusal of `request` (403), or undefined: the SDK's `Host` check against
 * `hosts` (undefined = unchecked) and `Origin` check against `origins`. A value that is merely not
 * listed ("Invalid Host: x") is named with the setting that admits it; a missing or unparseable
 * one keeps the SDK's message.
 */
function rebindingRefusal(
  request: Request,
  hosts: string[] | undefined,
  origins: string[],
): Response | undefined {
  const host = hosts ? validateHostHeader(request.headers.get('host'), hosts) : undefined;
  if (host && !host.ok)
    return jsonError(
      403,
      host.errorCode === 'invalid_host' ? admit(host.message, 'MCP_HTTP_ALLOWED_HOSTS') : host.message,
    );
  const origin = validateOriginHeader(request.headers.get('origin'), origins);
  if (!origin.ok)
    return jsonError(
      403,
      origin.errorCode === 'invalid_origin'
        ? admit(origin.message, 'MCP_HTTP_ALLOWED_ORIGINS')
        : origin.message,
    );
  return undefined;
}

const admit = (message: string, variable: string) =>
  `${message}: not allowed here (the operator can add it to ${variable})`;

/**
 * The methods routed (GET/POST/DELETE on /mcp, GET/HEAD on /healthz and the OAuth metadata,
 * OPTIONS for its CORS preflight, PUT/PATCH to be answered 405 by /mcp); any other is 405 at once.
 */
const ROUTED_METHODS = new Set(['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS', 'PUT', 'PATCH']);

/** The `Host` allowlist: loopback names on a loopback bind, else the bound host plus MCP_HTTP_ALLOWED_HOSTS (none = unchecked on a wildcard bind). */
function allowedHostnames(config: HttpServeConfig): string[] | undefined {
  if (isLoopbackHost(config.host)) return [...localhostAllowedHostnames(), ...config.allowedHosts];
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '[::]';
  const bound = wildcard
    ? []
    : [config.host.includes(':') ? `[${config.host.replace(/^\[|\]$/g, '')}]` : config.host];
  const all = [...bound, ...config.allowedHosts];
  return all.length ? all : undefined;
}

/**
 * Serves `factory`'s servers over Streamable HTTP on `config.host:config.port` until closed.
 * Errors: rejects when the port cannot be bound (EADDRINUSE, EACCES, …).
 */
export async function serveHttp(
  factory: () => McpServer | Promise<McpServer>,
  config: HttpServeConfig,
  options: ServeHttpOptions,
): Promise<HttpHandle> {
  const limits = config.limits ?? DEFAULT_HTTP_LIMITS;
  const hosts = allowedHostnames(config);
  const origins = [...localhostAllowedOrigins(), ...config.allowedOrigins];
  let gate: ((request: Request) => Promise<AuthInfo | Response>) | undefined = config.token
    ? requireBearerAuth({ verifier: staticTokenVerifier(config.token) })
    : config.oauth // until bound (below): never unauthenticated
      ? async () => jsonError(503, 'starting', { 'Retry-After': '1' })
      : undefined;
  let oauth: OAuthResourceServer | undefined; // set once bound: its default resource URL has the real port
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    maxRequestBodySize: limits.maxBodyBytes,
    onerror: options.onerror,
  });
  const listens = new HttpListens(
    options.resourceListen?.((uri) => modern.notify.resourceUpdated(uri)) ?? {
      open: async () => [],
      close: () => {},
    },
  );
  const sessions = new Map<
    string,
    {
      transport: WebStandardStreamableHTTPServerTransport;
      server: McpServer;
      seen: number;
      /** Who opened it ({@link ownerOf}); every later request must be the same caller. */
      owner: string;
      /** Sends what was held for the GET stream ({@link holdUntilStreamOpens}). */
      streamOpened: () => void;
    }
  >();
  // Clients that vanish without DELETE would otherwise hold their session (and the cap) for ever.
  const sweep = setInterval(
    () => {
      const stale = Date.now() - limits.sessionIdleMs;
      for (const [sid, session] of sessions)
        if (session.seen < stale) {
          sessions.delete(sid);
          void session.transport.close();
        }
    },
    Math.min(60_000, limits.sessionIdleMs),
  );
  sweep.unref();

  /** 2025-11-25: a request on an open session, or an `initialize` opening one. */
  const legacy = async (request: Request, authInfo?: AuthInfo): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = sessions.get(id);
      // A session answers only the caller that opened it (spec 2025-11-25 Security Best Practices,
      // "Session Hijacking": bind session IDs to user information); anyone else gets the same 404.
      if (!session || session.owner !== ownerOf(authInfo)) return jsonError(404, 'Session not found');
      session.seen = Date.now();
      const response = await session.transport.handleRequest(request, { authInfo });
      if (request.method === 'GET' && response.ok) session.streamOpened();
      return response;
    }
    if (request.method !== 'POST') return jsonError(400, 'Bad Request: Mcp-Session-Id header is required');
    // The SDK would open a session for `[initialize]`; initialize is never batched (spec
    // 2025-03-26 Lifecycle), and 2025-11-25 has no batches at all (Transports: one message per POST).
    if (await isBatch(request, limits.maxBodyBytes))
      return jsonError(400, 'Bad Request: send initialize alone, not in a JSON-RPC batch');
    if (sessions.size >= limits.maxSessions)
      return jsonError(503, 'too many open sessions', { 'Retry-After': '5' });
    const server = await factory();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      maxRequestBodySize: limits.maxBodyBytes,
      onsessioninitialized: (sid) =>
        void sessions.set(sid, {
          transport,
          server,
          seen: Date.now(),
          owner: ownerOf(authInfo),
          streamOpened,
        }),
      onsessionclosed: (sid) => {
        sessions.delete(sid);
        void server.close();
      },
    });
    transport.onerror = options.onerror;
    const streamOpened = holdUntilStreamOpens(transport, options.onerror);
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    // Not an initialize (the transport answered 400): no session was opened, drop the instance.
    if (!transport.sessionId) await server.close();
    return response;
  };

  const route = async (request: Request, path: string, ended: AbortSignal): Promise<Response> => {
    if (path === HEALTH_PATH && (request.method === 'GET' || request.method === 'HEAD'))
      return Response.json({ status: 'ok' });
    const metadata = oauth?.metadata(request, path);
    if (metadata) return metadata;
    if (path !== MCP_HTTP_PATH) return jsonError(404, 'Not Found');
    if (!['GET', 'POST', 'DELETE', 'OPTIONS'].includes(request.method))
      return jsonError(405, 'Method Not Allowed', { Allow: 'GET, POST, DELETE' });
    const refused = rebindingRefusal(request, hosts, origins);
    if (refused) return refused;
    // A CORS preflight carries no credentials (Fetch standard): answered before the auth gate.
    if (request.method === 'OPTIONS') {
      const cors = corsHeaders(request.headers.get('origin'), config.allowedOrigins);
      if (cors) return preflightResponse(cors, request.headers.get('access-control-request-headers'));
      return new Response(null, { status: 204, headers: { Allow: 'GET, POST, DELETE, OPTIONS' } });
    }
    let authInfo: AuthInfo | undefined;
    if (gate) {
      const auth = await gate(request);
      if (auth instanceof Response) return auth;
      authInfo = auth;
    }
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > limits.maxBodyBytes) return jsonError(413, 'request body too large');
    if (await isLegacyRequest(request, undefined, { maxRequestBodySize: limits.maxBodyBytes }))
      return legacy(request, authInfo);
    if (options.sessionsOnly) return sessionsOnlyRefusal(request, limits.maxBodyBytes);
    const parsedBody = await listens.narrow(request, limits.maxBodyBytes, ended);
    return modern.fetch(request, {
      ...(authInfo ? { authInfo } : {}),
      ...(parsedBody !== undefined ? { parsedBody } : {}),
    });
  };

  let active = 0;
  /** `host:port` as bound (IPv6 bracketed): the URL of a request that sent no Host (HTTP/1.0). */
  let boundHost = '';
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // Gives this request's concurrency slot back, once: at close, or earlier for an idle stream.
    let counted = true;
    const release = () => {
      if (counted) active--;
      counted = false;
    };
    res.once('close', () => {
      release();
      // A client that left before the response ended: `aborted`, and no status if none was sent.
      const line = {
        msg: 'http',
        method: req.method,
        path,
        status: res.headersSent ? res.statusCode : null,
        ms: Math.round(performance.now() - started),
        ...(res.writableEnded ? {} : { aborted: true }),
      };
      process.stderr.write(`${JSON.stringify(line)}\n`);
    });
    active++;
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    let response: Response;
    try {
      const host = req.headers.host;
      const repeated = repeatedSingletonField(req.rawHeaders);
      if (host !== undefined && !isValidHostHeader(host))
        response = jsonError(400, 'Bad Request: malformed Host header');
      else if (repeated !== undefined)
        response = jsonError(400, `Bad Request: more than one ${repeated} header`);
      // Methods no route serves, among them the ones a fetch Request cannot carry (TRACE, CONNECT).
      else if (!ROUTED_METHODS.has(req.method ?? ''))
        response = jsonError(405, 'Method Not Allowed', { Allow: 'GET, POST, DELETE' });
      // /healthz answers even at the cap: a busy instance is alive, and its load balancer must
      // not take it for a dead one.
      else if (active > limits.maxRequests && path !== HEALTH_PATH)
        response = jsonError(503, 'server busy', { 'Retry-After': '1' });
      else response = await route(toWebRequest(req, boundHost, aborted.signal), path, aborted.signal);
    } catch (error) {
      options.onerror(error as Error);
      response = jsonError(500, 'Internal Server Error');
    }
    // A session's standalone SSE stream (GET /mcp) idles for as long as the session lives: it is
    // not work in flight, and is bounded by the session cap instead (the SDK allows one per
    // session: a second is 409), so it gives its concurrency slot back at once. So does a
    // 2026-07-28 listen stream (POST `subscriptions/listen`), bounded by the SDK's subscription cap.
    const idles = req.method === 'GET' || String(req.headers['mcp-method']).trim() === 'subscriptions/listen';
    if (idles && response.headers.get('content-type')?.startsWith('text/event-stream')) release();
    // Every /mcp answer to an allowed browser origin, refusals (401's WWW-Authenticate) included.
    const cors = path === MCP_HTTP_PATH ? corsHeaders(req.headers.origin, config.allowedOrigins) : undefined;
    for (const [name, value] of Object.entries(cors ?? {})) res.setHeader(name, value);
    await sendWebResponse(response, res);
  };

  const server = createServer(nodeServerOptions(limits), (req, res) => void handle(req, res));
  // Every header is parsed (their size stays bounded by node's 16 KiB --max-http-header-size):
  // past node's default of 2000, the rest would be dropped unseen, an Origin among them.
  server.maxHeadersCount = 0;
  const connectionStats = limitConnections(server, limits.maxConnections);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = config.host.includes(':') ? `[${config.host.replace(/^\[|\]$/g, '')}]` : config.host;
  boundHost = `${hostPart}:${port}`;
  const url = `http://${hostPart}:${port}${MCP_HTTP_PATH}`;
  if (config.oauth) {
    oauth = oauthResourceServer(config.oauth, new URL(url), options.onerror);
    gate = oauth.gate;
  }
  return {
    url,
    stats: () => ({ ...connectionStats(), active, sessions: sessions.size }),
    async close() {
      clearInterval(sweep);
      server.close();
      server.closeAllConnections();
      await Promise.allSettled([
        modern.close(),
        ...[...sessions.values()].map(({ transport }) => transport.close()),
      ]);
    },
  };
}

/**
 * One shutdown signal per server instance, all aborted with `shutdown`: an HTTP server makes an
 * instance per request (2026-07-28) or per session, and a listener per instance on the process's
 * one signal would pile up. Each instance's entry is dropped when the instance closes.
 */
export function perInstanceShutdown(shutdown: AbortSignal): (server: McpServer) => AbortSignal {
  const live = new Set<AbortController>();
  shutdown.addEventListener('abort', () => {
    for (const c of live) c.abort(shutdown.reason);
  });
  return (server) => {
    const controller = new AbortController();
    if (shutdown.aborted) controller.abort(shutdown.reason);
    else live.add(controller);
    const previous = server.server.onclose;
    server.server.onclose = () => {
      live.delete(controller);
      previous?.();
    };
    return controller.signal;
  };
}
