/**
 * The upstream policy every API server follows: how long one request may take, when a failed
 * request is retried and how long to wait, and how fast requests may be sent. The numbers live
 * here so GitHub, GitLab, Slack, Drive and search servers behave alike; each server may tighten
 * them from its own flags.
 *
 * Retry rules (RFC 9110 §10.2.3 Retry-After; GitHub REST "Rate limits" docs for
 * x-ratelimit-remaining / x-ratelimit-reset; IETF draft-ietf-httpapi-ratelimit-headers for
 * RateLimit-Reset):
 * - 429, and 403 carrying rate-limit headers: wait what the server asks (Retry-After, else the
 *   reset time when the remaining quota is 0), if that wait fits the budget; else give up at once
 *   and say when to retry.
 * - 502/503/504 (and 500 for idempotent methods), network resets: exponential backoff, only for
 *   idempotent methods (a retried POST can create a second issue), at most `maxRetries` times.
 * - Everything else is final.
 */

/** Numbers of the policy. All times in milliseconds. */
export interface HttpPolicy {
  /** Time one attempt may take, headers and body included. */
  timeoutMs: number;
  /** Retries after the first attempt (server errors and rate limits alike). */
  maxRetries: number;
  /** First backoff delay for server errors; doubles each retry. */
  backoffBaseMs: number;
  /** Longest single wait the server will sit out for a rate limit; longer ones fail fast. */
  maxRetryWaitMs: number;
  /** Time budget of one logical call, retries and waits included. */
  budgetMs: number;
  /** Least time between two writes (POST/PUT/PATCH/DELETE), client-side pacing. */
  minWriteIntervalMs: number;
  /** Least time between two search requests, client-side pacing. */
  minSearchIntervalMs: number;
  /** Most requests in flight at once. */
  maxConcurrent: number;
}

/**
 * Defaults. Pacing follows GitHub's "best practices for using the REST API" (a second between
 * mutative requests; search is limited to 30 requests a minute), which also suits GitLab and
 * Slack's tier-2/3 methods.
 */
export const DEFAULT_HTTP_POLICY: Readonly<HttpPolicy> = Object.freeze({
  timeoutMs: 20_000,
  maxRetries: 2,
  backoffBaseMs: 500,
  maxRetryWaitMs: 15_000,
  budgetMs: 60_000,
  minWriteIntervalMs: 1_000,
  minSearchIntervalMs: 2_000,
  maxConcurrent: 10,
});

/** Methods whose repetition has no further effect (RFC 9110 §9.2.2). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** A header lookup over any header shape (fetch Headers or a plain lower-case record). */
export type HeaderSource = Headers | Record<string, string | number | undefined | null>;

/** The value of header `name` (case-insensitive), or undefined. */
export function headerValue(headers: HeaderSource | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | number | undefined | null>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return value === undefined || value === null ? undefined : String(value);
}

// A reset "delta" above this (2001-09-09 in epoch seconds) can only be an epoch time.
const EPOCH_SECONDS_FLOOR = 1_000_000_000;

/** When the server says a request may be retried, and which header said so. */
export interface RetryHint {
  /** Epoch milliseconds from which a retry may succeed. */
  at: number;
  source: 'retry-after' | 'x-ratelimit-reset' | 'ratelimit-reset';
}

/**
 * The retry time the response headers announce, if any: `Retry-After` (delta seconds or an
 * HTTP-date), else `x-ratelimit-reset` (epoch seconds) when `x-ratelimit-remaining` is 0, else
 * `RateLimit-Reset` (delta seconds, or epoch seconds as GitLab sends) when `RateLimit-Remaining` is 0. `now` in epoch ms.
 */
export function retryHint(headers: HeaderSource | undefined, now = Date.now()): RetryHint | undefined {
  const hint = announcedRetry(headers, now);
  // A header far past what a Date can hold (Retry-After: 99999999999999999999) is still "much
  // later": clamp it to the last valid time so summaries can print it.
  return hint && { ...hint, at: Math.min(hint.at, MAX_DATE_MS) };
}

/** The latest time a JavaScript Date represents, in epoch ms (ECMA-262 §21.4.1.1). */
const MAX_DATE_MS = 8.64e15;

function announcedRetry(headers: HeaderSource | undefined, now: number): RetryHint | undefined {
  const retryAfter = headerValue(headers, 'retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return { at: now + Number(retryAfter) * 1000, source: 'retry-after' };
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return { at: Math.max(now, date), source: 'retry-after' };
  }
  const reset = headerValue(headers, 'x-ratelimit-reset');
  if (reset && /^\d+$/.test(reset) && headerValue(headers, 'x-ratelimit-remaining') === '0')
    return { at: Math.max(now, Number(reset) * 1000), source: 'x-ratelimit-reset' };
  const ietfReset = headerValue(headers, 'ratelimit-reset');
  if (ietfReset && /^\d+$/.test(ietfReset) && headerValue(headers, 'ratelimit-remaining') === '0') {
    // Delta seconds per the IETF draft; GitLab sends epoch seconds under the same name.
    const value = Number(ietfReset);
    const at = value > EPOCH_SECONDS_FLOOR ? Math.max(now, value * 1000) : now + value * 1000;
    return { at, source: 'ratelimit-reset' };
  }
  return undefined;
}

/** True when a response is a rate-limit refusal: 429, or 403 with a retry hint. */
export function isRateLimited(status: number, headers: HeaderSource | undefined): boolean {
  return status === 429 || (status === 403 && retryHint(headers) !== undefined);
}

/** What to do after a failed attempt. */
export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; reason: string; retryAt?: number };

/** The facts about a failed attempt that {@link decideRetry} needs. */
export interface FailedAttempt {
  method: string;
  /** True for a read sent with a non-idempotent method (a GraphQL query is a POST): retried as GET. */
  idempotent?: boolean;
  /** HTTP status, or undefined for a network error (reset, refused, DNS). */
  status?: number;
  headers?: HeaderSource;
  /** Retries already made (0 after the first attempt). */
  retries: number;
  /** Time spent on this logical call so far, in ms. */
  elapsedMs: number;
  /** Epoch ms; defaults to Date.now(). */
  now?: number;
  /**
   * The vendor's own reading (VendorHooks.rateLimited): true for a refusal the status and headers
   * do not show (Google's 403 `rateLimitExceeded`, Slack's `ratelimited`); default
   * {@link isRateLimited}.
   */
  rateLimited?: boolean;
}

/** Applies the policy (module comment) to one failed attempt. Pure; never throws. */
export function decideRetry(attempt: FailedAttempt, policy: HttpPolicy = DEFAULT_HTTP_POLICY): RetryDecision {
  const now = attempt.now ?? Date.now();
  const { status, method } = attempt;
  const left = policy.budgetMs - attempt.elapsedMs;
  const limited = status !== undefined && (attempt.rateLimited ?? isRateLimited(status, attempt.headers));
  if (limited) {
    const hint = retryHint(attempt.headers, now);
    const delayMs = hint ? hint.at - now : backoff(attempt.retries, policy);
    const retryAt = now + delayMs;
    if (attempt.retries >= policy.maxRetries)
      return { retry: false, reason: `rate limited; ${policy.maxRetries} retries used`, retryAt };
    if (delayMs > policy.maxRetryWaitMs || delayMs > left)
      return {
        retry: false,
        reason: `rate limited; the wait (${Math.ceil(delayMs / 1000)} s) is longer than this server waits (${Math.round(Math.min(policy.maxRetryWaitMs, Math.max(0, left)) / 1000)} s)`,
        retryAt,
      };
    return { retry: true, delayMs, reason: `rate limited (${hint?.source ?? 'backoff'})` };
  }
  const transient =
    status === undefined || status === 502 || status === 503 || status === 504 || status === 500;
  if (!transient) return { retry: false, reason: `status ${status} is final` };
  if (!attempt.idempotent && !IDEMPOTENT_METHODS.has(method.toUpperCase()))
    return { retry: false, reason: `${method} is not idempotent: not retried` };
  if (attempt.retries >= policy.maxRetries)
    return { retry: false, reason: `gave up after ${policy.maxRetries} retries` };
  const hint = status === 503 ? retryHint(attempt.headers, now) : undefined;
  const delayMs = hint ? hint.at - now : backoff(attempt.retries, policy);
  if (delayMs > policy.maxRetryWaitMs || delayMs > left)
    return { retry: false, reason: 'no time left in the budget to retry', retryAt: now + delayMs };
  return { retry: true, delayMs, reason: status === undefined ? 'network error' : `status ${status}` };
}

function backoff(retries: number, policy: HttpPolicy): number {
  return policy.backoffBaseMs * 2 ** retries;
}
