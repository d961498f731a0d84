/**
 * Upstream failures summarised for the model: the status, what it means in practice and what to
 * do next — never the token, never a raw response dump. Status meanings follow RFC 9110 §15 with
 * the readings REST APIs (GitHub, GitLab, Slack) give them.
 */
import { scrubSecrets } from '../audit.js';
import { ToolError } from '../server/errors.js';
import { type HeaderSource, isRateLimited, retryHint } from './policy.js';

/** What each status means to someone choosing the next call. */
export const STATUS_MEANINGS: Readonly<Record<number, string>> = {
  400: 'bad request: the API refused the arguments',
  401: 'authentication failed: the token is missing, invalid, expired or revoked',
  403: 'forbidden: the token is valid but lacks the permission (scope, role, SSO authorisation or a policy block)',
  404: 'not found: it does not exist, or the token may not see it (APIs answer 404 rather than 403 to hide private resources)',
  405: 'method not allowed for this resource in its current state',
  409: 'conflict with the current state (e.g. a stale sha or an empty repository)',
  410: 'gone: the resource was removed or the feature is disabled',
  412: 'precondition failed (the resource changed)',
  413: 'request too large',
  422: 'validation failed: the request was understood but some field is invalid',
  429: 'rate limited: too many requests',
  451: 'unavailable for legal reasons',
  500: 'upstream server error',
  502: 'bad gateway: the upstream is unreachable or overloaded',
  503: 'service unavailable: the upstream is down or overloaded',
  504: 'gateway timeout: the upstream took too long',
};

/** The parts of a failed response a summary may use. */
export interface HttpFailure {
  /** Service name for the message, e.g. "GitHub API". */
  service: string;
  status: number;
  method?: string;
  /** Request path (no query: queries may carry credentials in some APIs). */
  path?: string;
  headers?: HeaderSource;
  /** The upstream's own message (e.g. JSON `message`), shown bounded. */
  message?: string;
  /** Field-level details (e.g. GitHub's `errors[]`), shown bounded. */
  details?: string[];
  /** The vendor's machine-readable code (Slack `error`, Google `reason`), named after the status. */
  reason?: string;
  /** The vendor hook's reading (VendorHooks.rateLimited); default: by status and headers. */
  rateLimited?: boolean;
  /** Extra, service-specific sentences (e.g. the token's scopes). */
  hints?: string[];
  /** Epoch ms for "in N s" phrases; defaults to Date.now(). */
  now?: number;
}

const MAX_UPSTREAM_MESSAGE = 300;

/** "in 42 s" / "in 3 min" / "now". */
export function humanDelay(ms: number): string {
  if (ms <= 0) return 'now';
  if (ms < 90_000) return `in ${Math.ceil(ms / 1000)} s`;
  if (ms < 90 * 60_000) return `in ${Math.round(ms / 60_000)} min`;
  return `in ${(ms / 3_600_000).toFixed(1)} h`;
}

/**
 * One paragraph for the model: "<service> <status> [(<reason>)] on <METHOD path>: <meaning>. <upstream message>.
 * <details>. <when to retry>. <hints>". Every value in `secrets` (and anything that looks like a
 * bearer credential) is replaced by "[redacted]".
 */
export function summarizeHttpFailure(failure: HttpFailure, secrets: readonly string[] = []): string {
  const now = failure.now ?? Date.now();
  const where = failure.method && failure.path ? ` on ${failure.method.toUpperCase()} ${failure.path}` : '';
  const limited = failure.rateLimited ?? isRateLimited(failure.status, failure.headers);
  const meaning = limited
    ? STATUS_MEANINGS[429]
    : (STATUS_MEANINGS[failure.status] ?? (failure.status >= 500 ? STATUS_MEANINGS[500] : 'request failed'));
  const reason = failure.reason ? ` (${bounded(failure.reason, 100)})` : '';
  const parts = [`${failure.service} ${failure.status}${reason}${where}: ${meaning}.`];
  const upstream = failure.message?.trim();
  if (upstream) parts.push(`Upstream says: "${bounded(redact(upstream, secrets), MAX_UPSTREAM_MESSAGE)}".`);
  if (failure.details?.length)
    parts.push(
      `Details: ${bounded(redact(failure.details.slice(0, 5).join('; '), secrets), MAX_UPSTREAM_MESSAGE)}.`,
    );
  if (limited || failure.status === 503) {
    const hint = retryHint(failure.headers, now);
    if (hint)
      parts.push(
        `Retry after ${new Date(hint.at).toISOString()} (${humanDelay(hint.at - now)}, from ${hint.source}).`,
      );
    else if (limited) parts.push('Retry later; the response did not say when.');
  }
  parts.push(...(failure.hints ?? []));
  return redact(parts.join(' '), secrets);
}

/**
 * `text` with secrets and credential-looking strings removed: Bearer/token/Basic headers, plus
 * everything {@link redactCredentials} removes.
 */
export function redact(text: string, secrets: readonly string[]): string {
  return redactCredentials(text, secrets).replace(
    /\b(token|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
    '$1 [redacted]',
  );
}

/**
 * `text` with `secrets` and unmistakable credentials removed, safe on any log line (prose such as
 * "no token configured" is kept): `Bearer <value>`, OAuth token JSON fields
 * (`"access_token": "…"`), Google OAuth tokens (ya29.…, 1//…), gh*_ / glpat- / xox* tokens.
 */
export function redactCredentials(text: string, secrets: readonly string[]): string {
  return scrubSecrets(text, secrets)
    .replace(/\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]')
    .replace(
      /("(?:access_token|refresh_token|id_token|client_secret|private_key)"\s*:\s*")(?:[^"\\]|\\.)*"/g,
      '$1[redacted]"',
    )
    .replace(/\b(ya29\.[A-Za-z0-9._-]{8,}|1\/\/[A-Za-z0-9._-]{20,})/g, '[redacted]')
    .replace(
      /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,})/g,
      '[redacted]',
    );
}

function bounded(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** An upstream HTTP failure whose message is the summary; `status` and `retryAt` for callers. */
export class HttpError extends ToolError {
  override name = 'HttpError';
  constructor(
    message: string,
    readonly status: number,
    /** Epoch ms from which a retry may succeed, when the server said so. */
    readonly retryAt?: number,
    /** The vendor's machine-readable code (Slack `error`, Google `reason`), for tools to branch on. */
    readonly reason?: string,
  ) {
    super(message);
  }
}
