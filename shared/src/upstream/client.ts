/**
 * The HTTP client every API server stands on (GitHub's Octokit uses the same pieces: timedFetch,
 * decideRetry, the summariser): base URL joining, one timed and size-capped attempt at a time
 * (fetch.ts), retries by {@link decideRetry} within the call's time budget (Retry-After and reset
 * headers honoured, non-idempotent writes never repeated after a 5xx), client-side pacing, a user
 * agent, auth headers, vendor hooks for what "failed" and "rate limited" mean (vendors.ts), and
 * failures as {@link HttpError}s summarised without secrets. Bodies: JSON, text or bytes.
 */
import { TimeoutError, ToolError } from '../server/errors.js';
import { joinUrl } from './base-url.js';
import { HttpError, redact, summarizeHttpFailure } from './errors.js';
import { type TimedAnswer, timedAttempt, utf8Text } from './fetch.js';
import { nodeAttempt } from './node-attempt.js';
import { ConcurrencyLimit, IntervalGate, sleep } from './pacer.js';
import { DEFAULT_HTTP_POLICY, decideRetry, type HttpPolicy } from './policy.js';
import { followRedirects } from './redirect.js';
import { REST_HOOKS, type VendorAnswer, type VendorFailure, type VendorHooks } from './vendors.js';
import type { RequestGate } from './windows.js';

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];

/** Default cap of one response body, in bytes (32 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

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
  /** Largest response body accepted, in bytes; default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
  /** What "failed" and "rate limited" mean for this API; default REST_HOOKS. */
  hooks?: VendorHooks;
  /**
   * Least time between two calls of one path, in ms, or undefined for none (per-method rate
   * tiers, e.g. Slack's Tier 2 ≈ 20/min → 3000).
   */
  pathInterval?: (method: string, path: string) => number | undefined;
  /** Credential values to keep out of every message. */
  secrets?: string[];
  /**
   * Names of the headers that carry this client's credentials, dropped (with the generic ones,
   * redirect.ts) when a redirect leads to another origin; default: every name in `headers`.
   */
  credentialHeaders?: readonly string[];
  /**
   * Which requests count as search for pacing (given the path and query); default: paths starting
   * with /search. GitLab adds `/projects?search=…`.
   */
  isSearch?: (path: string, query: HttpRequest['query']) => boolean;
  /** fetch implementation (tests); default globalThis.fetch. */
  fetch?: typeof fetch;
  /**
   * A queue every attempt (retries included) passes before it is sent and tells its answer to:
   * header-driven pacing shared by every client of one credential (e.g. RateLimitWindows for
   * Brave's X-RateLimit-* windows). Its refusal (QuotaExhausted) is the call's error.
   */
  gate?: RequestGate;
}

export interface HttpRequest {
  method?: string;
  /** Already-encoded path starting with "/" (build it with encodeSegment/encodePath). */
  path: string;
  /** Query parameters; each value is encoded exactly once, arrays repeat the key. */
  query?: Record<string, QueryValue>;
  /** JSON body, or URLSearchParams sent as application/x-www-form-urlencoded. */
  body?: unknown;
  headers?: Record<string, string>;
  /** How to read a successful body: parsed JSON when the type says JSON, else text (default); text; bytes. */
  responseType?: 'json' | 'text' | 'bytes';
  /** Aborts waits and the request (the tool call's signal). */
  signal?: AbortSignal;
  /**
   * A read sent with a method that is not GET/HEAD (a GraphQL query is a POST): retried as a GET
   * would be, not write-paced, and never said to have an unknown outcome. Default: GET/HEAD only.
   */
  read?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else the text; a Buffer for responseType "bytes". */
  data: T;
  /** The URL requested (base, path and query), e.g. for keysetNext. */
  url: URL;
}

/** Whether `req` reads: GET/HEAD, or marked `read` (a GraphQL query sent as POST). */
function isRead(method: string, req: HttpRequest): boolean {
  return req.read ?? (method === 'GET' || method === 'HEAD');
}

function appendQuery(params: URLSearchParams, query: Record<string, QueryValue>): void {
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
}

/** Appends `query` to `url` with URLSearchParams (one encoding, no double-encoding). */
export function withQuery(url: URL, query: Record<string, QueryValue> = {}): URL {
  appendQuery(url.searchParams, query);
  return url;
}

/** `query` as "?a=1&b=x%26y" (encoded as {@link withQuery} does), or "" when it has no values. */
export function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  appendQuery(params, query);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A client bound to one upstream; see the module comment. */
export class HttpClient {
  readonly policy: HttpPolicy;
  private readonly writes: IntervalGate;
  private readonly searches: IntervalGate;
  private readonly paths = new Map<string, IntervalGate>();
  private readonly concurrency: ConcurrencyLimit;
  private readonly hooks: VendorHooks;
  private readonly fetchAttempt: (url: URL, init: RequestInit) => Promise<TimedAnswer>;

  constructor(private readonly options: HttpClientOptions) {
    this.policy = { ...DEFAULT_HTTP_POLICY, ...options.policy };
    this.writes = new IntervalGate(this.policy.minWriteIntervalMs);
    this.searches = new IntervalGate(this.policy.minSearchIntervalMs);
    this.concurrency = new ConcurrencyLimit(this.policy.maxConcurrent);
    this.hooks = options.hooks ?? REST_HOOKS;
    const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const viaFetch = timedAttempt(options.service, this.policy.timeoutMs, maxBytes, options.fetch);
    const credentials = options.credentialHeaders ?? Object.keys(options.headers ?? {});
    // GETs over node:http with a keep-alive agent (node-attempt.ts); a fetch given by a test is used for all.
    // Either way redirects are followed hop by hop with the credentials dropped across origins (redirect.ts).
    this.fetchAttempt = options.fetch
      ? followRedirects(options.service, viaFetch, credentials, this.policy.timeoutMs)
      : nodeAttempt(options.service, this.policy.timeoutMs, maxBytes, viaFetch, credentials);
  }

  /**
   * Sends one logical request, retrying per policy. Resolves with an answer the hooks call a
   * success. Errors: HttpError (final failure, summarised; `reason` from the hooks), TimeoutError
   * (an attempt ran past timeoutMs), ResponseTooLarge (body over maxResponseBytes), the signal's
   * reason when aborted, HttpError with status 0 for a network failure. A write (any method but
   * GET/HEAD, unless `req.read`) that failed with a 5xx, no answer or a timeout says its outcome is
   * unknown (then a timeout is a plain ToolError).
   */
  async request<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>> {
    const method = (req.method ?? 'GET').toUpperCase();
    try {
      return await this.send<T>(method, req);
    } catch (error) {
      throw isRead(method, req) ? error : withUnknownOutcome(error);
    }
  }

  private async send<T>(method: string, req: HttpRequest): Promise<HttpResponse<T>> {
    const url = withQuery(joinUrl(this.options.baseUrl, req.path), req.query);
    const started = Date.now();
    const isSearch = this.options.isSearch?.(req.path, req.query) ?? req.path.startsWith('/search');
    for (let retries = 0; ; retries++) {
      if (!isRead(method, req)) await this.writes.pass(req.signal);
      if (isSearch) await this.searches.pass(req.signal);
      await this.pathGate(method, req.path)?.pass(req.signal);
      const gate = this.options.gate;
      await gate?.pass(req.signal);
      let response: TimedAnswer | undefined;
      let networkError: unknown;
      try {
        response = await this.concurrency.run(() => this.attempt(method, url, req), req.signal);
      } catch (error) {
        gate?.abandon();
        if (error instanceof ToolError || req.signal?.aborted) throw error;
        networkError = error;
      }
      if (response) gate?.observe(response.status, response.headers);
      let answer: VendorAnswer | undefined;
      let failure: VendorFailure | undefined;
      if (response) {
        const bytes = req.responseType === 'bytes' && response.status < 400;
        const data = bytes ? (response.body ?? Buffer.alloc(0)) : parseBody(response, req.responseType);
        answer = { status: response.status, headers: response.headers, data };
        failure = bytes ? undefined : this.hooks.failure(answer);
        if (!failure) return { status: response.status, headers: response.headers, data: data as T, url };
      }
      const rateLimited = answer && failure ? this.hooks.rateLimited(answer, failure) : undefined;
      const decision = decideRetry(
        {
          method,
          ...(req.read ? { idempotent: true } : {}),
          status: response?.status,
          headers: response?.headers,
          retries,
          elapsedMs: Date.now() - started,
          ...(rateLimited !== undefined ? { rateLimited } : {}),
        },
        this.policy,
      );
      if (decision.retry) {
        await sleep(decision.delayMs, req.signal);
        continue;
      }
      if (!answer || !failure) throw this.networkFailure(method, req.path, networkError);
      throw this.failure(method, req.path, answer, failure, rateLimited === true, decision.retryAt);
    }
  }

  private pathGate(method: string, path: string): IntervalGate | undefined {
    const interval = this.options.pathInterval?.(method, path);
    if (!interval) return undefined;
    let gate = this.paths.get(path);
    if (!gate) {
      gate = new IntervalGate(interval);
      this.paths.set(path, gate);
    }
    return gate;
  }

  private attempt(method: string, url: URL, req: HttpRequest): Promise<TimedAnswer> {
    const headers: Record<string, string> = {
      accept: req.responseType === 'bytes' ? '*/*' : 'application/json',
      'user-agent': this.options.userAgent,
      ...this.options.headers,
      ...req.headers,
    };
    let body: string | undefined;
    if (req.body instanceof URLSearchParams) {
      body = req.body.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    return this.fetchAttempt(url, { method, headers, body, ...(req.signal ? { signal: req.signal } : {}) });
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

  private failure(
    method: string,
    path: string,
    answer: VendorAnswer,
    failure: VendorFailure,
    rateLimited: boolean,
    retryAt?: number,
  ): HttpError {
    const text = summarizeHttpFailure(
      {
        service: this.options.service,
        status: answer.status,
        method,
        path,
        headers: answer.headers,
        ...failure,
        rateLimited,
      },
      this.options.secrets,
    );
    return new HttpError(text, answer.status, retryAt, failure.reason);
  }
}

const JSON_TYPE = /\bjson\b/i;

function parseBody(response: TimedAnswer, type: HttpRequest['responseType']): unknown {
  const text = response.body ? utf8Text(response.body) : '';
  if (type === 'text' && response.status < 400) return text;
  if (JSON_TYPE.test(response.headers.get('content-type') ?? '') && text) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * A write that failed with a 5xx, no answer or a timeout may still have taken effect, and the
 * policy never repeats it: its error says so, so the model reads the state back before retrying.
 * Other failures (a 4xx: refused, nothing done) pass through unchanged.
 */
function withUnknownOutcome(error: unknown): unknown {
  const sentence =
    'The outcome is unknown: the change may have been made. Check (read it back) before retrying; it was not retried.';
  if (error instanceof HttpError && (error.status === 0 || error.status >= 500))
    return new HttpError(`${error.message} ${sentence}`, error.status, error.retryAt, error.reason);
  if (error instanceof TimeoutError) return new ToolError(`${error.message} ${sentence}`);
  return error;
}
