// The fake-API toolkit: a fake upstream HTTP API on 127.0.0.1 for API servers' tests, demo and
// bench. Routes answer from handlers; every request is recorded (method, raw path, raw query,
// headers, body) with the reply sent (status, headers, body); faults (401/403/404/429/5xx, any
// headers and body), latency and hangs can be injected per request pattern.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type FakeReply, finalReply, type RecordedReply, Reply } from './reply.js';
import { compileRoute, type RouteParams, type RoutePattern } from './routes.js';
import { type Exchange, recordExchange } from './traffic.js';

export type { FakeReply } from './reply.js';

/** One request as the fake received it. */
export interface FakeRequest {
  method: string;
  /** Path as sent, still percent-encoded, without the query; includes the fake's prefix. */
  rawPath: string;
  /** Path relative to the prefix (still percent-encoded). */
  path: string;
  /** Query string as sent, without "?"; "" when absent. */
  rawQuery: string;
  query: URLSearchParams;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
  /** The body's bytes as received (for binary uploads, which `body` would mangle as UTF-8). */
  bytes?: Buffer;
  /** Route parameters (decoded); empty for unmatched requests. */
  params: RouteParams;
  /** The pattern of the route that answered (e.g. "/repos/:owner/:repo"); undefined when none matched. */
  route?: string;
  /** Status of the reply sent (undefined while pending or for a hung request). */
  status?: number;
  /** The reply sent (undefined while pending or for a hung request). */
  reply?: RecordedReply;
  /** Epoch ms when the request arrived. */
  at: number;
}

/** Answers a matched request; may throw a {@link Reply} instead of returning one. */
export type RouteHandler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

/** Which requests a fault or latency applies to: method and/or path (string prefix or RegExp), or a predicate. */
export type RequestMatcher = { method?: string; path?: string | RegExp } | ((req: FakeRequest) => boolean);

/** A canned failure: answered instead of the route for the next `times` matching requests. */
export interface Fault {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** How many matching requests get it; default 1; Infinity for all. */
  times?: number;
  match?: RequestMatcher;
  /** Never answer (the connection stays open until the fake closes): for timeout tests. */
  hang?: boolean;
}

interface Route {
  method: string;
  pattern: RoutePattern;
  handler: RouteHandler;
}

interface Latency {
  ms: number;
  match?: RequestMatcher;
}

/** Options of {@link startFakeApi}. */
export interface FakeApiOptions {
  /** Path prefix the API lives under, e.g. "/api/v3"; default "". */
  prefix?: string;
  /** Reply for requests no route matches; default 404 {"message":"Not Found"}. */
  notFound?: (req: FakeRequest) => FakeReply;
  /**
   * The vendor whose description this fake imitates (e.g. "github"): when set, every exchange is
   * also appended to the run's traffic directory for the spec check (see traffic.ts).
   */
  vendor?: string;
}

/** Default bodies for injected statuses, so a bare `{ status }` fault looks like an API error. */
export const FAULT_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Bad credentials',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Failed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function matches(matcher: RequestMatcher | undefined, req: FakeRequest): boolean {
  if (!matcher) return true;
  if (typeof matcher === 'function') return matcher(req);
  if (matcher.method && matcher.method.toUpperCase() !== req.method) return false;
  if (matcher.path instanceof RegExp) return matcher.path.test(req.path);
  if (typeof matcher.path === 'string') return req.path.startsWith(matcher.path);
  return true;
}

/** A running fake API. Create with {@link startFakeApi}. */
export class FakeApi {
  /** Every request received, in arrival order. */
  readonly requests: FakeRequest[] = [];
  private readonly routes: Route[] = [];
  private readonly rootRoutes: Route[] = [];
  /** Requests a root route answered: not recorded for the spec check (see {@link FakeApi.rootRoute}). */
  private readonly offRecord = new WeakSet<FakeRequest>();
  private readonly faults: Array<Fault & { left: number }> = [];
  private readonly latencies: Latency[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private origin = '';

  constructor(private readonly options: FakeApiOptions = {}) {}

  /** Base URL clients use: `http://127.0.0.1:<port><prefix>`. */
  get url(): string {
    return `${this.origin}${this.options.prefix ?? ''}`;
  }

  /** Adds a route (`:param` one segment, trailing `*rest` the remainder); earlier routes win. */
  route(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method: method.toUpperCase(), pattern: compileRoute(pattern), handler });
    return this;
  }

  /**
   * Adds a route matched on the whole raw path, inside the prefix or not (GitHub Enterprise serves
   * GraphQL at /api/graphql beside the REST API's /api/v3). Its exchanges are not recorded for the
   * REST spec check: a root route checks its own requests (the GraphQL one validates each query
   * against GitHub's schema). Root routes win over prefixed ones.
   */
  rootRoute(method: string, pattern: string, handler: RouteHandler): this {
    this.rootRoutes.push({ method: method.toUpperCase(), pattern: compileRoute(pattern), handler });
    return this;
  }

  /** Queues a fault for matching requests (see {@link Fault}); faults are consumed in order. */
  inject(fault: Fault): this {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
    return this;
  }

  /** Delays every matching request by `ms` before it is answered. */
  latency(ms: number, match?: RequestMatcher): this {
    this.latencies.push({ ms, ...(match ? { match } : {}) });
    return this;
  }

  /** Requests matching `match` (all when omitted). */
  requestsMatching(match?: RequestMatcher): FakeRequest[] {
    return this.requests.filter((r) => matches(match, r));
  }

  /** Forgets recorded requests. */
  clearRequests(): void {
    this.requests.length = 0;
  }

  /** Drops pending faults and latencies (routes stay). */
  resetFaults(): void {
    this.faults.length = 0;
    this.latencies.length = 0;
  }

  /** Listens on 127.0.0.1 on a free port. */
  async listen(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    this.server = server;
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops listening and drops every connection (hung requests included). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);
    const prefix = this.options.prefix ?? '';
    const inside = rawPath === prefix || rawPath.startsWith(`${prefix}/`);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      headers[k] = Array.isArray(v) ? v.join(', ') : (v ?? '');
    const bytes = Buffer.concat(chunks);
    const request: FakeRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      rawPath,
      path: inside ? rawPath.slice(prefix.length) || '/' : rawPath,
      rawQuery,
      query: new URLSearchParams(rawQuery),
      headers,
      body: bytes.toString('utf8'),
      bytes,
      params: {},
      at: Date.now(),
    };
    this.requests.push(request);
    const delay = this.latencies.filter((l) => matches(l.match, request)).reduce((sum, l) => sum + l.ms, 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const fault = this.faults.find((f) => f.left > 0 && matches(f.match, request));
    if (fault) {
      fault.left--;
      if (fault.hang) return; // never answered; close() destroys the socket
      const body = fault.body ?? { message: FAULT_MESSAGES[fault.status] ?? 'Error' };
      return this.send(
        res,
        request,
        {
          status: fault.status,
          body,
          ...(fault.headers ? { headers: fault.headers } : {}),
        },
        true,
      );
    }
    let reply: FakeReply | undefined;
    const root = this.rootRoutes.find((r) => r.method === request.method && r.pattern.match(rawPath));
    if (root) {
      this.offRecord.add(request);
      try {
        reply = await root.handler(request);
      } catch (error) {
        reply =
          error instanceof Reply
            ? error.reply
            : { status: 500, body: { message: `fake handler failed: ${(error as Error).message}` } };
      }
    } else if (inside) {
      for (const route of this.routes) {
        if (route.method !== request.method) continue;
        const params = route.pattern.match(request.path);
        if (!params) continue;
        request.params = params;
        request.route = route.pattern.source;
        try {
          reply = await route.handler(request);
        } catch (error) {
          reply =
            error instanceof Reply
              ? error.reply
              : { status: 500, body: { message: `fake handler failed: ${(error as Error).message}` } };
        }
        break;
      }
    }
    const final = reply ??
      this.options.notFound?.(request) ?? { status: 404, body: { message: 'Not Found' } };
    this.send(res, request, final);
  }

  /** Sends `reply`, records it on `request` (and in the run's traffic when `vendor` is set). */
  private send(res: ServerResponse, request: FakeRequest, reply: FakeReply, fault = false): void {
    const sent = finalReply(reply, fault);
    request.status = sent.status;
    request.reply = sent;
    if (this.options.vendor && !this.offRecord.has(request)) {
      const exchange = exchangeOf(this.options.vendor, request);
      if (exchange) recordExchange(exchange);
    }
    if (res.destroyed) return;
    res.writeHead(sent.status, sent.headers);
    res.end(sent.raw ?? (sent.body === undefined ? undefined : JSON.stringify(sent.body)));
  }
}

/** The exchange `req` (answered) makes; undefined while it has no reply. */
function exchangeOf(vendor: string, req: FakeRequest): Exchange | undefined {
  const reply = req.reply;
  if (!reply) return undefined;
  return {
    vendor,
    method: req.method,
    ...(req.route ? { route: req.route } : {}),
    target: req.rawQuery ? `${req.path}?${req.rawQuery}` : req.path,
    status: reply.status,
    headers: reply.headers,
    ...(reply.body !== undefined ? { body: reply.body } : {}),
    ...(reply.raw !== undefined
      ? { raw: typeof reply.raw === 'string' ? reply.raw : Buffer.from(reply.raw).toString('utf8') }
      : {}),
    ...(reply.fault ? { fault: true } : {}),
  };
}

/** Starts a fake API on 127.0.0.1 (free port); add routes with `route()` before or after. */
export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  return new FakeApi(options).listen();
}
