/**
 * One attempt of an upstream request, for every API server (HttpClient, and Octokit's
 * `request.fetch` in the GitHub server): the attempt runs under a timeout (ALL-07) covering headers
 * and body, the body is buffered under that timeout with a size cap (Octokit swallows body-read
 * errors, which would turn a stalled body into an empty result), and a timeout surfaces as a
 * TimeoutError.
 */
import { TimeoutError, ToolError } from '../server/errors.js';

/**
 * A timed-out attempt. Named "AbortError" on purpose: Octokit rethrows AbortErrors unchanged
 * (no wrapping, no retry by plugin-retry), which is what a call that already used its time needs.
 * It is still a TimeoutError (a ToolError), so the model reads "… timed out after N ms".
 */
export class UpstreamTimeout extends TimeoutError {
  override name = 'AbortError';
}

/** A response body over the cap. Also an "AbortError" so it is neither wrapped nor retried. */
export class ResponseTooLarge extends ToolError {
  override name = 'AbortError';
}

/**
 * The whole body of `response`, at most `maxBytes` bytes. `what` names the request in the error.
 * Errors: ResponseTooLarge when Content-Length or the bytes read pass the cap (the body is
 * cancelled at once, not read to the end).
 *
 * A body whose Content-Length is declared within the cap and which carries no Content-Encoding is
 * read in one `arrayBuffer()`: HTTP/1.1 framing delivers exactly the declared bytes, so the cap
 * holds without counting chunks. A compressed body (fetch decompresses it, so the declared length
 * says nothing of what is read) or one without a length is counted chunk by chunk.
 */
export async function readCapped(response: Response, maxBytes: number, what: string): Promise<Uint8Array> {
  const length = response.headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new ResponseTooLarge(
      `${what}: the response is ${declared} bytes, over this server's ${maxBytes}-byte limit`,
    );
  }
  const encoding = response.headers.get('content-encoding');
  if (declared >= 0 && (encoding === null || encoding === 'identity')) {
    const bytes = Buffer.from(await response.arrayBuffer());
    // Belt and braces: framing already made this impossible.
    if (bytes.byteLength > maxBytes)
      throw new ResponseTooLarge(`${what}: the response is over this server's ${maxBytes}-byte limit`);
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        await response.body.cancel().catch(() => {});
        throw new ResponseTooLarge(`${what}: the response is over this server's ${maxBytes}-byte limit`);
      }
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks, size);
}

/** `bytes` decoded as fetch's `text()` does: UTF-8, a leading byte-order mark dropped. */
export function utf8Text(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** One timed attempt's answer with its body read: `body` null for 204 and 304. */
export interface TimedAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  /** The final URL (after redirects fetch followed). */
  url: string;
  body: Buffer | null;
}

/**
 * One timed, capped attempt (see {@link timedFetch}), answered with the buffered body rather than a
 * new Response: what HttpClient reads, without a second body stream. Errors: as timedFetch.
 */
export function timedAttempt(
  service: string,
  timeoutMs: number,
  maxBytes: number,
  fetchImpl?: typeof fetch,
): (input: string | URL | Request, init?: RequestInit) => Promise<TimedAnswer> {
  return async (input, init) => {
    const href = input instanceof Request ? input.url : input;
    const path = href instanceof URL ? href.pathname : new URL(href).pathname;
    const what = `${service} ${init?.method ?? 'GET'} ${path}`;
    // One controller, one timer and (with a caller's signal) one listener per attempt: AbortSignal.timeout
    // and AbortSignal.any made a transferable signal each and registered weak refs, a measurable share of a
    // small call's CPU. The timeout covers headers and body alike.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`${what} timed out after ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    timer.unref?.();
    const outer = init?.signal ?? undefined;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    try {
      const response = await (fetchImpl ?? fetch)(input, { ...init, signal: controller.signal });
      const body =
        response.status === 204 || response.status === 304
          ? null
          : ((await readCapped(response, maxBytes, what)) as Buffer);
      return {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        url: response.url,
        body,
      };
    } catch (error) {
      if (timedOut && !outer?.aborted) throw new UpstreamTimeout(what, timeoutMs);
      throw error;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  };
}

/**
 * A fetch whose every call is one timed, capped attempt: per-attempt timeout `timeoutMs` (ms),
 * bodies buffered and capped at `maxBytes`, returned as a new Response over the buffered bytes.
 * `service` names the upstream in messages ("GitHub API"). Errors: UpstreamTimeout ("<service>
 * <METHOD> <path> timed out after N ms"), ResponseTooLarge, the caller's abort reason, or fetch's
 * own network errors. `fetchImpl` defaults to the global fetch (undici), looked up per call.
 */
export function timedFetch(
  service: string,
  timeoutMs: number,
  maxBytes: number,
  fetchImpl?: typeof fetch,
): typeof fetch {
  const attempt = timedAttempt(service, timeoutMs, maxBytes, fetchImpl);
  return async (input, init) => {
    const answer = await attempt(input, init);
    return new Response(answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
    });
  };
}

/**
 * A read-only Response over the buffered body of a {@link timedAttempt}, for a client that reads a
 * response through status, statusText, url, headers, ok, text(), json() and arrayBuffer() (Octokit's
 * fetch wrapper): those read the buffer directly, no body stream is made (each body read once, as a
 * Response allows). `body`, blob() and clone() go through a real Response made on first use.
 */
export class BufferedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: Headers;
  readonly type = 'basic';
  readonly redirected = false;
  /** The buffered body (null for 204 and 304), as read from the network. */
  readonly bytes: Buffer | null;
  #used = false;
  #real: Response | undefined;

  constructor(answer: TimedAnswer) {
    this.status = answer.status;
    this.statusText = answer.statusText;
    this.url = answer.url;
    this.headers = answer.headers;
    this.bytes = answer.body;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#response().body;
  }

  #take(): Buffer {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.bytes ?? Buffer.alloc(0);
  }

  #response(): Response {
    this.#real ??= new Response(this.bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
    return this.#real;
  }

  async text(): Promise<string> {
    return utf8Text(this.#take());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  blob(): Promise<Blob> {
    return this.#response().blob();
  }

  clone(): Response {
    return this.#response().clone();
  }
}
