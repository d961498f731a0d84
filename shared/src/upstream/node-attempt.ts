/**
 * GET and HEAD attempts of HttpClient over node:http/https with a keep-alive agent, under the same
 * rules as {@link timedAttempt} (one timeout covering headers and body, the body buffered and
 * capped, decompressed bytes counted against the cap). The global fetch (undici's WHATWG fetch:
 * a Request, a Response, a web stream and their signals per call) was a third of a GitLab point
 * call's CPU; node:http is what the reference servers' node-fetch stands on.
 *
 * Everything unusual goes to `fallback` (the fetch attempt) instead of being re-implemented here:
 * other methods and bodies, an encoding other than gzip, deflate or br, a reused keep-alive
 * connection the server had closed (ECONNRESET before any answer: Node's documented case for
 * sending again), and a redirect: its Location is handed to fetch, which follows any further hop,
 * with the credentials dropped when it leads to another origin (Authorization as the Fetch standard
 * does, and also Cookie, Proxy-Authorization and GitLab's PRIVATE-TOKEN). A request that asked not
 * to follow redirects is sent to fetch again as it was (a GET or HEAD is safe to repeat).
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ResponseTooLarge, type TimedAnswer, UpstreamTimeout } from './fetch.js';

type Attempt = (input: URL, init: RequestInit) => Promise<TimedAnswer>;

/** Idle keep-alive sockets are closed after this (ms): below the 5 s most servers keep them. */
const IDLE_SOCKET_MS = 4000;

/** A request fetch handles instead (see the module comment): `url` and `init`, or the redirect's. */
class UseFallback extends Error {
  constructor(readonly redirect?: { url: URL; init: RequestInit }) {
    super('fallback');
  }
}

/** Headers a redirect to another origin does not carry. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'private-token'];

/**
 * Where a redirect from `from` leads and what is sent there (module comment), or undefined when
 * `init` asked fetch not to follow redirects (fetch then answers as asked).
 */
export function redirectTarget(
  from: URL,
  location: string,
  init: RequestInit,
): { url: URL; init: RequestInit } | undefined {
  if (init.redirect !== undefined && init.redirect !== 'follow') return undefined;
  const url = new URL(location, from);
  if (url.origin === from.origin) return { url, init };
  const headers = new Headers(init.headers);
  for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return { url, init: { ...init, headers } };
}

function decoder(encoding: string | undefined): Transform | null | undefined {
  switch ((encoding ?? 'identity').trim().toLowerCase()) {
    case 'identity':
    case '':
      return null;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined; // unknown: fetch decides
  }
}

/** `headers` as a plain record (a Headers instance or a list of pairs spread as is would lose them). */
function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers);
  return headers as Record<string, string>;
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

/**
 * `fallback`, with GET and HEAD requests without a body sent over node:http(s) instead (module
 * comment). `service` names the upstream in messages. Errors: as timedAttempt (UpstreamTimeout,
 * ResponseTooLarge, the caller's abort reason, the socket's error for a network failure).
 */
export function nodeAttempt(
  service: string,
  timeoutMs: number,
  maxBytes: number,
  fallback: Attempt,
): Attempt {
  let agents: { http: http.Agent; https: https.Agent } | undefined;
  return async (url, init) => {
    const method = init.method ?? 'GET';
    if ((method !== 'GET' && method !== 'HEAD') || init.body != null) return fallback(url, init);
    agents ??= {
      http: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
      https: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
    };
    try {
      return await send(url, init, method, agents);
    } catch (error) {
      if (error instanceof UseFallback)
        return error.redirect ? fallback(error.redirect.url, error.redirect.init) : fallback(url, init);
      throw error;
    }
  };

  function send(
    url: URL,
    init: RequestInit,
    method: string,
    pool: { http: http.Agent; https: https.Agent },
  ): Promise<TimedAnswer> {
    const what = `${service} ${method} ${url.pathname}`;
    const outer = init.signal ?? undefined;
    if (outer?.aborted) return Promise.reject(outer.reason);
    return new Promise<TimedAnswer>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      let settled = false;
      let body: Readable | undefined;
      const finish = (error: unknown, answer?: TimedAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
        if (error !== undefined) {
          request.destroy();
          body?.destroy();
          reject(error);
        } else resolve(answer as TimedAnswer);
      };
      const timer = setTimeout(() => finish(new UpstreamTimeout(what, timeoutMs)), timeoutMs);
      timer.unref?.();
      const onAbort = () => finish(outer?.reason);
      outer?.addEventListener('abort', onAbort, { once: true });
      const request = (secure ? https : http).request(url, {
        method,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...plainHeaders(init.headers) },
        agent: secure ? pool.https : pool.http,
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed meanwhile: nothing was answered, so fetch sends it again.
        finish(request.reusedSocket && error.code === 'ECONNRESET' ? new UseFallback() : error);
      });
      request.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const head = { status, statusText: res.statusMessage ?? '', url: url.href };
        const location = res.headers.location;
        if (status >= 300 && status < 400 && status !== 304 && location) {
          res.resume();
          let target: { url: URL; init: RequestInit } | undefined;
          try {
            target = redirectTarget(url, location, init);
          } catch {
            // An unreadable Location: fetch, sent the request again, says what it makes of it.
          }
          return finish(new UseFallback(target));
        }
        if (status === 204 || status === 304 || method === 'HEAD') {
          res.resume();
          return finish(undefined, { ...head, headers: headersOf(res), body: null });
        }
        const decode = decoder(res.headers['content-encoding']);
        if (decode === undefined) {
          res.resume();
          return finish(new UseFallback());
        }
        const declared = Number(res.headers['content-length'] ?? Number.NaN);
        if (decode === null && declared > maxBytes)
          return finish(
            new ResponseTooLarge(
              `${what}: the response is ${declared} bytes, over this server's ${maxBytes}-byte limit`,
            ),
          );
        const stream: Readable = decode ? res.pipe(decode) : res;
        body = stream;
        if (decode) res.on('error', (error) => finish(error));
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxBytes)
            return finish(
              new ResponseTooLarge(`${what}: the response is over this server's ${maxBytes}-byte limit`),
            );
          chunks.push(chunk);
        });
        stream.on('error', (error) => finish(error));
        stream.on('end', () =>
          finish(undefined, {
            ...head,
            headers: headersOf(res),
            body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size),
          }),
        );
        res.on('aborted', () =>
          finish(new Error(`${what}: the connection closed before the whole response arrived`)),
        );
      });
      request.end();
    });
  }
}
