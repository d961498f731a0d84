/**
 * Vendor hooks: what "failed" and "rate limited" mean for an API, beyond the HTTP status. The
 * client (client.ts) asks the hooks about every answer; the summary names status, reason and the
 * vendor's message. Presets for the error envelopes of the APIs refmcp serves:
 * - REST (GitHub and the default): a 4xx/5xx with `{message, errors[]}`; rate limits by status and
 *   headers (429, or 403 with x-ratelimit-remaining: 0 / Retry-After).
 * - GitLab: `{message}` (a string, or field → messages for validation failures) or OAuth's
 *   `{error, error_description}`.
 * - Slack Web API: HTTP 200 with `{ok:false, error}` (and `needed`/`provided` scopes,
 *   `response_metadata.messages`); rate limits are HTTP 429 with Retry-After per method tier.
 * - Google APIs (Drive, Gmail): `{error:{code, message, status, errors[]:{reason, message}}}`; a
 *   403 whose reason is `userRateLimitExceeded`/`rateLimitExceeded` is a rate limit (retried with
 *   backoff), not a permission failure.
 */
import { type HeaderSource, isRateLimited } from './policy.js';

/** One answer of the upstream: status, headers and the parsed body (JSON, else text). */
export interface VendorAnswer {
  status: number;
  headers: HeaderSource;
  data: unknown;
}

/** What a failed answer says, in the vendor's terms. */
export interface VendorFailure {
  /** The vendor's human message. */
  message?: string;
  /** Field-level or secondary messages. */
  details?: string[];
  /** The vendor's machine-readable code (Slack `error`, Google `errors[0].reason`, OAuth `error`). */
  reason?: string;
}

/** A vendor's readings of an answer. */
export interface VendorHooks {
  /** The failure `answer` reports, or undefined when it succeeded. */
  failure(answer: VendorAnswer): VendorFailure | undefined;
  /** True when the failed `answer` is a rate-limit refusal (to wait out, not to report). */
  rateLimited(answer: VendorAnswer, failure: VendorFailure): boolean;
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

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value : undefined;
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const defined = (failure: VendorFailure): VendorFailure =>
  Object.fromEntries(
    Object.entries(failure).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  );

/** GitHub-style REST APIs: failure = status ≥ 400; rate limit by status and headers. */
export const REST_HOOKS: VendorHooks = {
  failure: (a) => (a.status >= 400 ? upstreamMessage(a.data) : undefined),
  rateLimited: (a) => isRateLimited(a.status, a.headers),
};

/** GitLab REST API v4 (docs.gitlab.com/api/rest/troubleshooting, "Status codes"). */
export const GITLAB_HOOKS: VendorHooks = {
  failure(a) {
    if (a.status < 400) return undefined;
    const body = record(a.data);
    if (typeof a.data === 'string' || body.message === undefined) {
      const oauth = text(body.error);
      return defined({
        ...upstreamMessage(a.data),
        ...(oauth && body.error_description ? { reason: oauth } : {}),
      });
    }
    if (typeof body.message === 'string') return { message: body.message };
    // Validation failures: {"message": {"title": ["can't be blank"]}} or {"message": ["…"]}.
    const details = Array.isArray(body.message)
      ? strings(body.message)
      : Object.entries(record(body.message)).map(
          ([field, v]) => `${field} ${strings(v).join(', ') || String(v)}`,
        );
    return defined({ message: details.length ? 'validation failed' : undefined, details });
  },
  rateLimited: (a) => isRateLimited(a.status, a.headers),
};

/** Slack Web API (api.slack.com/web#evaluating_responses, api.slack.com/apis/rate-limits). */
export const SLACK_HOOKS: VendorHooks = {
  failure(a) {
    const body = record(a.data);
    if (a.status < 400 && body.ok !== false) return undefined;
    const reason = text(body.error) ?? (typeof a.data === 'string' ? text(a.data)?.slice(0, 100) : undefined);
    const details = strings(record(body.response_metadata).messages);
    if (text(body.needed)) details.push(`needed scope: ${body.needed}`);
    if (text(body.provided)) details.push(`provided scopes: ${body.provided}`);
    return defined({ reason, details, message: text(body.warning) });
  },
  rateLimited: (a, f) => a.status === 429 || f.reason === 'ratelimited' || f.reason === 'rate_limited',
};

/** Google's rate-limit reasons (developers.google.com/drive/api/guides/limits: 403/429). */
export const GOOGLE_RATE_LIMIT_REASONS: ReadonlySet<string> = new Set([
  'userRateLimitExceeded',
  'rateLimitExceeded',
]);

/** Google APIs' JSON error envelope (cloud.google.com/apis/design/errors, Drive "Resolve errors"). */
export const GOOGLE_HOOKS: VendorHooks = {
  failure(a) {
    if (a.status < 400) return undefined;
    const error = record(a.data).error;
    // OAuth endpoints answer {error: "invalid_grant", error_description}.
    if (typeof error === 'string') return defined({ ...upstreamMessage(a.data), reason: error });
    const body = record(error);
    const errors = Array.isArray(body.errors) ? body.errors.map(record) : [];
    const reason = text(errors[0]?.reason) ?? text(body.status);
    const details =
      errors.length > 1
        ? errors.map((e) => [e.reason, e.message].filter((x) => typeof x === 'string').join(': '))
        : [];
    return defined({ message: text(body.message) ?? upstreamMessage(a.data).message, reason, details });
  },
  rateLimited: (a, f) =>
    isRateLimited(a.status, a.headers) ||
    ((a.status === 403 || a.status === 429) &&
      f.reason !== undefined &&
      GOOGLE_RATE_LIMIT_REASONS.has(f.reason)),
};
