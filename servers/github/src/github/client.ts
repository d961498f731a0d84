/**
 * The GitHub REST client: @octokit/rest over HTTP with GitHub's throttling plugin,
 * configured from the shared upstream policy (`@refmcp/shared` http):
 * - base URL from GITHUB_API_URL (validated: https except loopback), user agent, token auth;
 * - every attempt under a timeout and a response-size cap (see octokitFetch); every logical
 *   call under the policy's budget;
 * - plugin-throttling: waits out primary (x-ratelimit-remaining: 0 → x-ratelimit-reset) and
 *   secondary (retry-after) rate limits when the shared `decideRetry` allows the wait (it fits
 *   `maxRetryWaitMs` and the retries left; case GH-09), and
 *   paces writes and searches client-side through the shared IntervalGate (its groups and retry
 *   scheduler are supplied here: same contract as its Bottleneck defaults, no timer queue);
 * - a bare 429/403 with Retry-After that the plugin does not recognise, and 5xx/network failures,
 *   are decided by the shared `decideRetry` (backoff; idempotent methods only: a POST that failed
 *   with a 5xx may have taken effect). Not @octokit/plugin-retry: its per-request Bottleneck queue
 *   added 5–10 ms to every call (measured against the local fake), and the shared policy is what
 *   the other API servers follow;
 * - failures become GitHubApiErrors summarised without the token (errors.ts).
 * Callers pass already-encoded paths (encodeSegment/encodePath) and a query object, so no value
 * is ever re-encoded or interpreted as a template.
 */
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import {
  BufferedResponse,
  ConcurrencyLimit,
  decideRetry,
  type HttpPolicy,
  IntervalGate,
  nodeAttempt,
  type QueryValue,
  queryString,
  redact,
  retryHint,
  sleep,
  timedAttempt,
} from '@refmcp/shared';
import { GitHubApiError, toGitHubError } from './errors.js';

/** Failures whose 401 dropped the signed-in token (they were authenticated when sent). */
const REFUSED = new WeakSet<object>();

/** The 401 hint when the token came from a sign-in. */
const SIGNED_IN_REFUSED =
  'GitHub refused the signed-in token (revoked or expired): call the tool again to sign in again.';

export interface GitHubClientOptions {
  baseUrl: URL;
  token?: string;
  userAgent: string;
  policy: HttpPolicy;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: number;
  /** Writes a diagnostic line to stderr (already scrubbed). */
  log: (line: string) => void;
  /**
   * Called when GitHub refuses (401) the token set by {@link GitHubClient.useToken} (revoked or
   * expired): the client has dropped it already, and the next call needs a new sign-in.
   */
  onTokenRefused?: () => void;
}

export interface GitHubRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Encoded path starting with "/" (relative to the base URL). */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Accept header; default application/vnd.github+json. */
  accept?: string;
  signal?: AbortSignal;
  /** Return the body as bytes (raw/diff media types, logs) instead of parsing it. */
  bytes?: boolean;
}

export interface GitHubResponse<T> {
  status: number;
  headers: Record<string, string | undefined>;
  data: T;
}

const ThrottledOctokit = Octokit.plugin(throttling);

/**
 * Octokit's `request.fetch`: one timed, size-capped attempt — GETs over node:http with a keep-alive
 * agent (shared nodeAttempt), anything else and any redirect through the global fetch (shared
 * timedAttempt) — answered with a BufferedResponse, so Octokit reads status, headers and error
 * bodies from the buffer. Its `body` is the buffered bytes themselves rather than a stream over
 * them: Octokit hands `body` over as the data of a call made with `parseSuccessResponseBody: false`
 * (every call here), which streamBytes takes as it is. The global fetch, a new Response and a body
 * stream per call were over a third of a get_issue call's CPU.
 */
function octokitFetch(timeoutMs: number, maxBytes: number): typeof fetch {
  const viaFetch = timedAttempt('GitHub API', timeoutMs, maxBytes);
  const attempt = nodeAttempt('GitHub API', timeoutMs, maxBytes, viaFetch);
  return async (input, init) => {
    const url = input instanceof URL ? input : new URL(input instanceof Request ? input.url : input);
    const response = new BufferedResponse(await attempt(url, init ?? {}));
    Object.defineProperty(response, 'body', { value: response.bytes });
    return response as unknown as Response;
  };
}

/** A Bottleneck.Group look-alike backed by the shared pacing primitives (all the plugin calls is key().schedule()). */
function pacedGroup(minIntervalMs: number, maxConcurrent: number) {
  const gate = new IntervalGate(minIntervalMs);
  const limit = new ConcurrencyLimit(maxConcurrent);
  const limiter = {
    // schedule([options,] fn, ...args): Bottleneck's signature.
    schedule: async (...args: unknown[]) => {
      if (typeof args[0] !== 'function') args.shift();
      const [fn, ...rest] = args as [(...a: unknown[]) => Promise<unknown>, ...unknown[]];
      await gate.pass();
      return limit.run(() => fn(...rest));
    },
  };
  return { key: () => limiter };
}

/**
 * The retry scheduler plugin-throttling calls (`schedule(fn, ...args)`, `on('failed', handler)`
 * where the handler returns the delay in ms to retry, or nothing to give up) — Bottleneck's
 * contract, without Bottleneck's timer-driven queue, which added ~15 ms to every request.
 */
function retryLimiter() {
  const handlers: ((error: unknown, info: { args: unknown[]; retryCount: number }) => unknown)[] = [];
  return {
    on(event: string, handler: (error: unknown, info: { args: unknown[]; retryCount: number }) => unknown) {
      if (event === 'failed') handlers.push(handler);
    },
    async schedule(...args: unknown[]) {
      if (typeof args[0] !== 'function') args.shift();
      const [fn, ...rest] = args as [(...a: unknown[]) => Promise<unknown>, ...unknown[]];
      for (let retryCount = 0; ; retryCount++) {
        try {
          return await fn(...rest);
        } catch (error) {
          let delay: unknown;
          for (const handler of handlers) delay = (await handler(error, { args: rest, retryCount })) ?? delay;
          if (typeof delay !== 'number') throw error;
          await sleep(delay);
        }
      }
    },
  };
}

export class GitHubClient {
  private readonly octokit: InstanceType<typeof ThrottledOctokit>;
  private readonly secrets: string[];
  /** The token from a sign-in (useToken), sent instead of none; undefined once GitHub refused it. */
  private signedIn?: string;

  constructor(private readonly options: GitHubClientOptions) {
    const { policy } = options;
    this.secrets = options.token ? [options.token] : [];
    const log = (level: string) => (message: string) =>
      options.log(`octokit ${level}: ${redact(String(message), this.secrets)}`);
    // The plugin's rate-limit waits are decided by the shared policy, like every other retry.
    const decide = (retryAfterSeconds: number, retryCount: number) =>
      decideRetry(
        {
          method: 'GET',
          status: 429,
          headers: { 'retry-after': String(Math.max(0, Math.ceil(retryAfterSeconds))) },
          retries: retryCount,
          elapsedMs: 0,
        },
        policy,
      ).retry;
    this.octokit = new ThrottledOctokit({
      ...(options.token ? { auth: options.token } : {}),
      baseUrl: options.baseUrl.href.replace(/\/+$/, ''),
      userAgent: options.userAgent,
      log: { debug: () => {}, info: () => {}, warn: log('warn'), error: log('error') },
      request: { fetch: octokitFetch(policy.timeoutMs, options.maxResponseBytes) },
      throttle: {
        id: 'refmcp-github',
        onRateLimit: (after: number, _o: unknown, _k: unknown, count: number) => decide(after, count),
        onSecondaryRateLimit: (after: number, _o: unknown, _k: unknown, count: number) =>
          decide(after, count),
        ...({
          global: pacedGroup(0, policy.maxConcurrent),
          auth: pacedGroup(0, 1),
          write: pacedGroup(policy.minWriteIntervalMs, 1),
          search: pacedGroup(policy.minSearchIntervalMs, 1),
          notifications: pacedGroup(policy.minWriteIntervalMs, 1),
          retryLimiter: retryLimiter(),
        } as object),
      },
    });
    this.octokit.hook.before('request', (request) => {
      if (this.signedIn) request.headers.authorization = `token ${this.signedIn}`;
    });
    this.octokit.hook.error('request', (error, request) => {
      const sent = String(request.headers.authorization ?? '');
      if (
        (error as { status?: number }).status === 401 &&
        this.signedIn &&
        sent === `token ${this.signedIn}`
      ) {
        this.signedIn = undefined;
        REFUSED.add(error as object);
        options.onTokenRefused?.();
      }
      throw error;
    });
  }

  /** True when a token is configured or signed in. */
  get authenticated(): boolean {
    return Boolean(this.options.token || this.signedIn);
  }

  /** Every token this client has sent (configured and signed in), for scrubbing. */
  get tokens(): string[] {
    return [...this.secrets];
  }

  /** True when a signed-in token is in use (see {@link useToken}). */
  get signedInToken(): boolean {
    return this.signedIn !== undefined;
  }

  /**
   * Sends `token` (from a sign-in) with every later request, until GitHub refuses it with a 401:
   * then it is dropped and `onTokenRefused` called. Old tokens stay in the scrub list.
   */
  useToken(token: string): void {
    if (!this.secrets.includes(token)) this.secrets.push(token);
    this.signedIn = token;
  }

  /**
   * One GraphQL operation through Octokit's client (POST {base}/graphql, or /api/graphql for a
   * GHE /api/v3 base), with the REST calls' fetch, timeout, size cap and rate-limit handling
   * (plugin-throttling paces every /graphql request, queries too, through the write group).
   * Resolves with `data`. Errors: GitHubApiError for an HTTP failure or for GraphQL `errors`
   * (status 404 for NOT_FOUND, 403 for FORBIDDEN, else 422), TimeoutError, the signal's reason.
   * Variable names must not be `query`, `method` or `url` (Octokit's own options).
   */
  async graphql<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    try {
      return await this.octokit.graphql<T>(query, {
        ...variables,
        ...(signal ? { request: { signal } } : {}),
      });
    } catch (error) {
      throw toGraphqlError(
        toGitHubError(error, 'POST', '/graphql', {
          secrets: this.secrets,
          authenticated: this.authenticated || REFUSED.has(error as object),
          ...(this.options.onTokenRefused ? { tokenHint: SIGNED_IN_REFUSED } : {}),
        }),
        this.secrets,
      );
    }
  }

  /**
   * One logical GitHub call (module comment). Resolves with status, lower-case headers and the
   * parsed JSON (or bytes when `bytes`). Errors: GitHubApiError for HTTP failures, TimeoutError,
   * ResponseTooLarge, or the signal's reason when the call is cancelled.
   */
  async request<T = unknown>(req: GitHubRequest): Promise<GitHubResponse<T>> {
    const method = req.method ?? 'GET';
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.octokit.request({
          method,
          url: `${req.path}${queryString(req.query)}`,
          headers: { accept: req.accept ?? 'application/vnd.github+json' },
          ...(req.body !== undefined ? { data: req.body } : {}),
          // Success bodies are read here (successData), not by octokit's JSON parser.
          request: { ...(req.signal ? { signal: req.signal } : {}), parseSuccessResponseBody: false },
        });
        const data = req.bytes
          ? await streamBytes(response.data as unknown)
          : await successData(response.data as unknown, response.headers['content-type']);
        return {
          status: response.status,
          headers: response.headers as Record<string, string | undefined>,
          data: data as T,
        };
      } catch (error) {
        const failure = error as {
          status?: number;
          message?: string;
          request?: unknown;
          response?: { status: number; headers?: Record<string, string> };
        };
        const headers = failure.response?.headers;
        // GitHub's documented rate-limit answers ("secondary rate limit", or the quota at 0) were
        // already waited out or given up on by plugin-throttling; the rest is the shared policy's.
        const throttled =
          headers !== undefined &&
          (/\bsecondary rate\b/i.test(failure.message ?? '') || headers['x-ratelimit-remaining'] === '0');
        // An Octokit RequestError (a network failure is one with status 500 and no response).
        const requestError = failure.request !== undefined && typeof failure.status === 'number';
        if (requestError && !throttled) {
          const decision = decideRetry(
            {
              method,
              status: failure.response?.status,
              headers,
              retries: attempt,
              elapsedMs: Date.now() - started,
            },
            this.options.policy,
          );
          if (decision.retry) {
            await sleep(decision.delayMs, req.signal);
            continue;
          }
        }
        const retryAt = headers ? retryHint(headers)?.at : undefined;
        throw toGitHubError(error, method, req.path, {
          secrets: this.secrets,
          authenticated: this.authenticated || REFUSED.has(error as object),
          ...(this.options.onTokenRefused ? { tokenHint: SIGNED_IN_REFUSED } : {}),
          ...(retryAt ? { retryAt } : {}),
        });
      }
    }
  }
}

/** What @octokit/graphql's GraphqlResponseError carries (duck-typed, as errors.ts does for RequestError). */
interface GraphqlFailure {
  name: string;
  errors?: { type?: string; message?: string }[];
}

/**
 * GitHub's GraphQL `errors` as one GitHubApiError: each message with its type (NOT_FOUND,
 * FORBIDDEN, …), scrubbed of the token; anything else is left as it was.
 */
function toGraphqlError(error: unknown, secrets: readonly string[]): unknown {
  const failure = error as GraphqlFailure;
  if (!(error instanceof Error) || failure.name !== 'GraphqlResponseError') return error;
  const listed = (failure.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.message ?? 'error'}${e.type ? ` (${e.type})` : ''}`);
  const first = failure.errors?.[0];
  const status = first?.type === 'NOT_FOUND' ? 404 : first?.type === 'FORBIDDEN' ? 403 : 422;
  return new GitHubApiError(
    redact(`GitHub GraphQL API: ${listed.join('; ') || error.message}`, secrets),
    status,
    {},
    first?.message ?? '',
  );
}

/**
 * A success response's body as octokit's own parsing gives it (@octokit/request 10,
 * getResponseData): JSON for application/json and application/scim+json (the text when it does not
 * parse), text for text/* or charset=utf-8 (never application/octet-stream), text when there is no
 * content type, an ArrayBuffer otherwise; undefined stays undefined (204, 205, HEAD). One
 * difference: JSON is read with JSON.parse, where octokit uses json-with-bigint, ~6x the CPU
 * (23-28 us against 3.9 us for a 1.2 KB issue, measured; ~6% of a get_issue call) to keep integers
 * beyond 2^53 exact as BigInt. GitHub's REST API sends none (ids are far below 2^53), and a BigInt
 * could not reach the model anyway: JSON.stringify throws on one.
 */
async function successData(body: unknown, contentType: string | undefined): Promise<unknown> {
  if (body === null || body === undefined) return body;
  const bytes = await streamBytes(body);
  // TextDecoder drops a leading BOM, as Response.text() does.
  const text = () => new TextDecoder().decode(bytes);
  if (!contentType) return text();
  const [type = '', ...parameters] = contentType
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  if (type === 'application/json' || type === 'application/scim+json') {
    const json = text();
    try {
      return JSON.parse(json);
    } catch {
      return json;
    }
  }
  const charset = parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length);
  if (
    type.startsWith('text/') ||
    (charset?.replace(/"/g, '') === 'utf-8' && type !== 'application/octet-stream')
  )
    return text();
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

async function streamBytes(body: unknown): Promise<Buffer> {
  if (body === null || body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
