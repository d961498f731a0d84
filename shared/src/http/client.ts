/**
 * A small JSON-over-HTTP client that applies the shared policy for API servers without a
 * well-kept vendor SDK (or whose SDK lacks it): base URL joining, per-attempt timeouts, retries
 * by {@link decideRetry} within a time budget, client-side pacing, a user agent, auth headers, and
 * failures as {@link HttpError}s summarised without secrets. Uses the global fetch (undici).
 */
import { TimeoutError } from '../server/errors.js';
import { joinUrl } from './base-url.js';
import { HttpError, redact, summarizeHttpFailure } from './errors.js';
import { ConcurrencyLimit, IntervalGate, sleep } from './pacer.js';
import { DEFAULT_HTTP_POLICY, decideRetry, type HttpPolicy } from './policy.js';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

export interface HttpClientOptions {
  /** Service name used in messages, e.g. "GitLab API". */
  service: string;
  /** Validated base URL (see parseBaseUrl). */
  baseUrl: URL;
  /** Sent as User-Agent on every request (see userAgent()). */
  userAgent: string;
  /** Headers sent on every request, e.g. { authorization: `Bearer ${token}` }. */
  headers?: Record<string, string>;
  /** Overrides of the default policy numbers. */
  policy?: Partial<HttpPolicy>;
  /** Credential values to keep out of every message. */
  secrets?: string[];
  /** Which paths count as search for pacing; default: paths starting with /search. */
  isSearch?: (path: string) => boolean;
  /** fetch implementation (tests); default globalThis.fetch. */
  fetch?: typeof fetch;
}

export interface HttpRequest {
  method?: string;
  /** Already-encoded path starting with "/" (build it with encodeSegment/encodePath). */
  path: string;
  /** Query parameters; each value is encoded exactly once, arrays repeat the key. */
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Aborts waits and the request (the tool call's signal). */
  signal?: AbortSignal;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text. */
  data: T;
}

/** Appends `query` to `url` with URLSearchParams (one encoding, no double-encoding). */
export function withQuery(url: URL, query: Record<string, QueryValue> = {}): URL {
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
    else url.searchParams.append(key, String(value));
  }
  return url;
}

/** A client bound to one upstream; see the module comment. */
export class HttpClient {
  readonly policy: HttpPolicy;
  private readonly writes: IntervalGate;
  private readonly searches: IntervalGate;
  private readonly concurrency: ConcurrencyLimit;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpClientOptions) {
    this.policy = { ...DEFAULT_HTTP_POLICY, ...options.policy };
    this.writes = new IntervalGate(this.policy.minWriteIntervalMs);
    this.searches = new IntervalGate(this.policy.minSearchIntervalMs);
    this.concurrency = new ConcurrencyLimit(this.policy.maxConcurrent);
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /**
   * Sends one logical request, retrying per policy. Resolves with any 2xx/3xx response.
   * Errors: HttpError (final 4xx/5xx, summarised), TimeoutError (an attempt ran past timeoutMs),
   * the signal's reason when aborted, HttpError with status 0 for a network failure.
   */
  async request<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = withQuery(joinUrl(this.options.baseUrl, req.path), req.query);
    const started = Date.now();
    const isSearch = this.options.isSearch?.(req.path) ?? req.path.startsWith('/search');
    for (let retries = 0; ; retries++) {
      if (method !== 'GET' && method !== 'HEAD') await this.writes.pass(req.signal);
      if (isSearch) await this.searches.pass(req.signal);
      let response: Response | undefined;
      let networkError: unknown;
      try {
        response = await this.concurrency.run(() => this.attempt(method, url, req), req.signal);
      } catch (error) {
        if (error instanceof TimeoutError || req.signal?.aborted) throw error;
        networkError = error;
      }
      if (response && response.status < 400)
        return { status: response.status, headers: response.headers, data: (await parseBody(response)) as T };
      const decision = decideRetry(
        {
          method,
          status: response?.status,
          headers: response?.headers,
          retries,
          elapsedMs: Date.now() - started,
        },
        this.policy,
      );
      if (decision.retry) {
        await response?.body?.cancel().catch(() => {});
        await sleep(decision.delayMs, req.signal);
        continue;
      }
      if (!response) throw this.networkFailure(method, req.path, networkError);
      throw await this.failure(method, req.path, response, decision.retryAt);
    }
  }

  private async attempt(method: string, url: URL, req: HttpRequest): Promise<Response> {
    const timeout = AbortSignal.timeout(this.policy.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      ...this.options.headers,
      ...req.headers,
    };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    try {
      const response = await this.fetchImpl(url, { method, headers, body, signal });
      // Read the body under the same timeout, so a stalled body cannot hang the call.
      const buffered = await response.arrayBuffer();
      return new Response(response.status === 204 || response.status === 304 ? null : buffered, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      if (timeout.aborted && !req.signal?.aborted)
        throw new TimeoutError(`${this.options.service} ${method} ${url.pathname}`, this.policy.timeoutMs);
      throw error;
    }
  }

  private networkFailure(method: string, path: string, error: unknown): HttpError {
    const cause =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return new HttpError(
      redact(
        `${this.options.service}: ${method} ${path} failed before any response (${cause}); check the base URL and network`,
        this.options.secrets ?? [],
      ),
      0,
    );
  }

  private async failure(
    method: string,
    path: string,
    response: Response,
    retryAt?: number,
  ): Promise<HttpError> {
    const data = await parseBody(response).catch(() => undefined);
    const { message, details } = upstreamMessage(data);
    const text = summarizeHttpFailure(
      {
        service: this.options.service,
        status: response.status,
        method,
        path,
        headers: response.headers,
        message,
        details,
      },
      this.options.secrets,
    );
    return new HttpError(text, response.status, retryAt);
  }
}

async function parseBody(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (/\bjson\b/i.test(type) && text) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The `message` (or `error`/`error_description`) and `errors[]` of a JSON error body. */
export function upstreamMessage(data: unknown): { message?: string; details?: string[] } {
  if (typeof data === 'string') return data.trim() ? { message: data.slice(0, 500) } : {};
  if (!data || typeof data !== 'object') return {};
  const body = data as Record<string, unknown>;
  const raw = body.message ?? body.error_description ?? body.error;
  const message = typeof raw === 'string' ? raw : undefined;
  const errors = Array.isArray(body.errors) ? body.errors : [];
  const details = errors.map((e) =>
    typeof e === 'string'
      ? e
      : [e?.resource, e?.field, e?.code, e?.message].filter((x) => typeof x === 'string').join(' '),
  );
  return { ...(message ? { message } : {}), ...(details.length ? { details } : {}) };
}
