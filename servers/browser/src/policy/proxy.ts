/**
 * The policy proxy: a forward HTTP proxy on 127.0.0.1 (random port) that Chromium is launched with
 * (`--proxy-server`, loopback not bypassed), so every http(s)/ws(s) connection of the browser —
 * navigations and each of their redirect hops, subresources, frames, workers, WebSockets — passes
 * the {@link NetworkPolicy} here. The proxy resolves the host itself and connects to an address
 * that passed, so the browser never resolves names and DNS rebinding cannot redirect it.
 *
 * Plain http is forwarded request by request (keep-alive to the origin); https and ws(s) arrive as
 * CONNECT and are tunnelled byte for byte (TLS stays end to end between Chromium and the site).
 * Refused requests get a 403 page naming the rule (http) or a refused CONNECT (https).
 */
import http from 'node:http';
import net from 'node:net';
import type { NetworkPolicy } from '@refmcp/shared/net/policy';

/** Time budget to open a connection to an origin, ms. */
const CONNECT_TIMEOUT_MS = 15_000;
/** An idle tunnel or forwarded request is closed after this long without traffic, ms. */
const IDLE_TIMEOUT_MS = 120_000;

// RFC 9110 §7.6.1 hop-by-hop fields (plus the proxy-only ones browsers send).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardHeaders(raw: string[]): string[] {
  const connectionTokens = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'connection')
      for (const t of (raw[i + 1] ?? '').split(',')) connectionTokens.add(t.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || connectionTokens.has(lower)) continue;
    out.push(name, raw[i + 1] ?? '');
  }
  return out;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Splits "host:port" / "[v6]:port" of a CONNECT request. */
function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1] ?? '', port } : undefined;
}

/** Connects to the first address that accepts, within the connect budget. */
function connectTo(addresses: string[], port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const attempt = (i: number, lastError?: Error) => {
      const address = addresses[i];
      if (address === undefined) {
        reject(lastError ?? new Error('no address to connect to'));
        return;
      }
      const socket = net.connect({ host: address, port });
      const timer = setTimeout(
        () => socket.destroy(new Error(`connect timed out after ${CONNECT_TIMEOUT_MS} ms`)),
        CONNECT_TIMEOUT_MS,
      );
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(socket);
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        attempt(i + 1, error);
      });
    };
    attempt(0);
  });
}

export class PolicyProxy {
  private readonly server: http.Server;
  // Keep-alive to origins; pooled per checked address and port (requests carry their Host).
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_TIMEOUT_MS });
  private readonly sockets = new Set<net.Socket>();
  private port = 0;

  constructor(private readonly policy: NetworkPolicy) {
    this.server = http.createServer((req, res) => void this.onRequest(req, res));
    this.server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      void this.onConnect(req, socket, head);
    });
    this.server.on('connection', (socket: net.Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    // Chromium may send an Upgrade through a plain-http proxy; it is not forwarded (ws uses CONNECT).
    this.server.on('upgrade', (_req, socket: net.Socket) => socket.destroy());
    this.server.on('clientError', (_error, socket: net.Socket) => socket.destroy());
  }

  /** Starts listening on 127.0.0.1; resolves to the proxy URL for Chromium's --proxy-server. */
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops accepting and destroys every open connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad proxy request');
      return;
    }
    if (url.protocol !== 'http:') {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Only http:// is forwarded; https uses CONNECT');
      return;
    }
    const port = url.port ? Number(url.port) : 80;
    const verdict = await this.policy.checkEndpoint(url.hostname, port, url.href);
    if (!verdict.ok) {
      const status = verdict.rule === 'dns' ? 502 : 403;
      res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(`<!doctype html><title>Refused</title><h1>Refused</h1><p>${escapeHtml(verdict.message)}</p>`);
      req.resume();
      return;
    }
    const upstream = http.request({
      host: verdict.addresses[0],
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardHeaders(req.rawHeaders),
      setHost: false,
      agent: this.agent,
      timeout: CONNECT_TIMEOUT_MS,
    });
    upstream.on('timeout', () => upstream.destroy(new Error('origin timed out')));
    upstream.on('response', (response) => {
      upstream.setTimeout(IDLE_TIMEOUT_MS);
      res.writeHead(response.statusCode ?? 502, response.statusMessage, forwardHeaders(response.rawHeaders));
      response.pipe(res);
      response.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(502, { 'content-type': 'text/plain; charset=utf-8' })
          .end(`Could not reach ${url.host}: ${error.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }

  private async onConnect(req: http.IncomingMessage, client: net.Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const authority = splitAuthority(req.url ?? '');
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const verdict = await this.policy.checkEndpoint(authority.host, authority.port, `https://${req.url}`);
    if (!verdict.ok) {
      client.end(
        `HTTP/1.1 ${verdict.rule === 'dns' ? '502 Bad Gateway' : '403 Forbidden'}\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    let origin: net.Socket;
    try {
      origin = await connectTo(verdict.addresses, authority.port);
    } catch {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.sockets.add(origin);
    origin.once('close', () => this.sockets.delete(origin));
    origin.on('error', () => client.destroy());
    client.on('close', () => origin.destroy());
    origin.on('close', () => client.destroy());
    origin.setTimeout(IDLE_TIMEOUT_MS, () => origin.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) origin.write(head);
    origin.pipe(client);
    client.pipe(origin);
  }
}
