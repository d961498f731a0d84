/**
 * GET and HEAD attempts of HttpClient over node:http/https with a keep-alive agent, under the same
 * rules as {@link timedAttempt} (one timeout covering headers and body, the body buffered and
 * capped, decompressed bytes counted against the cap). The global fetch (undici's WHATWG fetch:
 * a Request, a Response, a web stream and their signals per call) was a third of a GitLab point
 * call's CPU; node:http is what the reference servers' node-fetch stands on.
 *
 * Everything unusual goes to `fallback` (the fetch attempt) instead of being re-implemented here:
 * other methods and bodies, an encoding other than gzip, deflate or br, and a reused keep-alive
 * connection the server had closed (ECONNRESET before any answer: Node's documented case for
 * sending again). Redirects are followed hop by hop by {@link followRedirects} (redirect.ts) around
 * both, so no credential header reaches another origin; each hop is one attempt here.
 *
 * Header values are checked before anything is sent or any timer is set: a value HTTP does not
 * allow (a line break, a control character, a character above U+00FF — e.g. a mistyped token) is
 * a ToolError naming the header, never its value.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ToolError } from '../server/errors.js';
import { ResponseTooLarge, type TimedAnswer, UpstreamTimeout } from './fetch.js';
import { followRedirects } from './redirect.js';

type Attempt = (input: URL, init: RequestInit) => Promise<TimedAnswer>;

/** Idle keep-alive sockets are closed after this (ms): below the 5 s most servers keep them. */
const IDLE_SOCKET_MS = 4000;

/** A request fetch handles instead (see the module comment). */
class UseFallback extends Error {
  constructor() {
    super('fallback');
  }
}

/**
 * Throws a ToolError naming the first header of `headers` whose name or value HTTP does not allow
 * (node:http's validateHeaderName/validateHeaderValue rules); the value is never quoted.
 */
export function checkHeaders(service: string, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      http.validateHeaderName(name);
    } catch {
      throw new ToolError(
        `${service}: the request header name ${JSON.stringify(name.slice(0, 64))} is not a valid HTTP token`,
      );
    }
    try {
      http.validateHeaderValue(name, value);
    } catch {
      throw new ToolError(
        `${service}: the request header "${name}" holds a character HTTP does not allow (a line break, a control character or one above U+00FF); check the configured token or setting that fills it`,
      );
    }
  }
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
 * `fallback`, with GET and HEAD requests without a body sent over node:http(s) instead, redirects
 * followed by followRedirects with `credentialHeaders` (the client's own, besides the generic
 * ones) dropped on a hop to another origin (module comment). `service` names the upstream in
 * messages. Errors: as timedAttempt (UpstreamTimeout, ResponseTooLarge, the caller's abort reason,
 * the socket's error for a network failure), followRedirects' errors, and checkHeaders' ToolError.
 */
export function nodeAttempt(
  service: string,
  timeoutMs: number,
  maxBytes: number,
  fallback: Attempt,
  credentialHeaders: readonly string[] = [],
): Attempt {
  let agents: { http: http.Agent; https: https.Agent } | undefined;
  return followRedirects(
    service,
    async (url, init) => {
      const method = init.method ?? 'GET';
      checkHeaders(service, plainHeaders(init.headers));
      if ((method !== 'GET' && method !== 'HEAD') || init.body != null) return fallback(url, init);
      agents ??= {
        http: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
        https: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
      };
      try {
        return await send(url, init, method, agents);
      } catch (error) {
        if (error instanceof UseFallback) return fallback(url, init);
        throw error;
      }
    },
    credentialHeaders,
    timeoutMs,
  );

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
      let request: http.ClientRequest;
      try {
        request = (secure ? https : http).request(url, {
          method,
          headers: { 'accept-encoding': 'gzip, deflate, br', ...plainHeaders(init.headers) },
          agent: secure ? pool.https : pool.http,
        });
      } catch (error) {
        // Nothing was sent and no timer or listener is set yet (checkHeaders caught bad headers first).
        const code = (error as NodeJS.ErrnoException).code ?? 'an invalid request';
        reject(new ToolError(`${what}: the request could not be made (${code})`));
        return;
      }
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
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed meanwhile: nothing was answered, so fetch sends it again.
        finish(request.reusedSocket && error.code === 'ECONNRESET' ? new UseFallback() : error);
      });
      request.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const head = { status, statusText: res.statusMessage ?? '', url: url.href };
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
