/**
 * node:http ⇄ web-standard Request/Response, so the SDK's fetch-shaped Streamable HTTP handlers
 * (createMcpHandler, WebStandardStreamableHTTPServerTransport) serve a plain node:http server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Whether `host` is a well-formed `Host` header (RFC 9110 §7.2: uri-host [":" port], RFC 3986
 * §3.2.2): a DNS-style name (letters, digits, `.`, `-`, `_`), an IPv4 address or a bracketed IPv6
 * literal, then an optional port 0..65535. Anything else (`localhost:evil.com`, `a@b`,
 * `localhost/x`, `localhost?x`, `localhost:99999`) would make a wrong or unparseable request URL.
 */
export function isValidHostHeader(host: string): boolean {
  const match = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  return URL.canParse(`http://${host}/`);
}

/** Fields a request may carry once (RFC 9112 §3.2 for Host: "MUST respond with 400"). */
const SINGLETON_FIELDS = ['host', 'authorization', 'origin'];

/**
 * The first of Host, Authorization and Origin that `rawHeaders` (node's name, value, … list)
 * carries more than once, or undefined. node keeps the first Host or Authorization and drops the
 * rest, so a proxy reading the last one would act on another value than this server.
 */
export function repeatedSingletonField(rawHeaders: string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]?.toLowerCase() ?? '';
    if (!SINGLETON_FIELDS.includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/**
 * A web Request for a node request: URL from the Host header, every header, and the body
 * streamed (not buffered) for methods that have one. Aborted when the client goes. A request with
 * no Host (HTTP/1.0) is taken as addressed to `fallbackHost`, which then stands in as its Host.
 */
export function toWebRequest(req: IncomingMessage, fallbackHost: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  if (!headers.has('host')) headers.set('host', fallbackHost);
  return new Request(`http://${headers.get('host')}${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Writes a web Response to a node response, streaming the body (SSE included) until it ends or
 * the client disconnects (then the body is cancelled). Resolves when done; never rejects.
 */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  // A JSON answer (every 2026-07-28 request but a listen, every POST not asking for a stream) is
  // whole once made: sent in one write with its length, headers and body in one packet. Reading
  // it through the web stream reader and flushing the headers first cost a write per chunk and
  // a packet more per request.
  if (response.body && !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
    if (res.destroyed) return;
    if (!('content-length' in headers)) headers['content-length'] = String(body.length);
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  // The client may have gone while the response was made: no 'close' is coming to cancel it then.
  if (res.destroyed) {
    await reader.cancel().catch(() => {});
    return;
  }
  // An SSE stream (GET /mcp) may stay silent for long: its client must get the headers now, not
  // with the first event (node sends them with the first write otherwise).
  res.flushHeaders();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Flushes each chunk at once: SSE events must not wait in a buffer.
      if (!res.write(value))
        await new Promise((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
    }
  } catch {
    // The client went away or the stream was cancelled: nothing more to send.
  } finally {
    res.off('close', cancel);
    res.end();
  }
}
