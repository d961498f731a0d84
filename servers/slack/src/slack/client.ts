/**
 * The Slack Web API client: @slack/web-api's WebClient, configured from the shared upstream policy
 * (`@refmcp/shared` http) instead of its own:
 * - `slackApiUrl` from SLACK_API_URL (validated: https except loopback) and `allowAbsoluteUrls:
 *   false`, so a method name can never send the token elsewhere;
 * - every attempt through the shared `timedFetch` (per-attempt timeout, response-size cap);
 * - its retry loop off (`retries: 0`; its default, ten retries in about 30 minutes, could block one
 *   call for half an hour) and `rejectRateLimitedCalls`, so a 429 comes straight back here, where the
 *   shared `decideRetry` waits out `Retry-After` when it fits `--rate-limit-wait` and the call's
 *   budget, and otherwise fails at once saying when to retry (case SL-09);
 * - reads are retried after 5xx and network failures (backoff); writes (chat.postMessage,
 *   reactions.add) never are, since a lost answer may hide a posted message;
 * - writes and searches paced client-side (--write-interval, --search-interval);
 * - `{ok:false}` answers become SlackApiErrors explaining the code (errors.ts); its logger is
 *   silenced (it would log request bodies at debug) and only metadata is written to stderr:
 *   method, outcome, duration — never arguments or message text.
 */
import {
  decideRetry,
  HttpError,
  type HttpPolicy,
  IntervalGate,
  redact,
  retryHint,
  SLACK_HOOKS,
  sleep,
  summarizeHttpFailure,
  ToolError,
  timedFetch,
} from '@refmcp/shared';
import type { Logger, WebClient } from '@slack/web-api';
import { explainSlackError } from './errors.js';

export interface SlackClientOptions {
  /** The Web API base with a trailing slash (`https://slack.com/api/`). */
  apiUrl: URL;
  /** The token; without one every call answers not_authed. */
  token?: string;
  /** SLACK_TEAM_ID (Enterprise Grid org tokens): sent as `team_id` on every call. */
  teamId?: string;
  userAgent: string;
  policy: HttpPolicy;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: number;
  /** Writes a diagnostic line to stderr (metadata only). */
  log: (line: string) => void;
}

/** How a call is sent. */
export interface CallOptions {
  /** A write (posting, reacting): paced by --write-interval, never retried after a 5xx or no answer. */
  write?: boolean;
  /** A search: paced by --search-interval. */
  search?: boolean;
  signal?: AbortSignal;
}

/** A Web API answer: `ok: true` and the method's fields, read leniently. */
export type SlackAnswer = { ok: true; response_metadata?: { next_cursor?: string } } & Record<
  string,
  unknown
>;

/** A failed Slack call; `reason` is Slack's error code (`not_in_channel`, `ratelimited`). */
export class SlackApiError extends HttpError {
  override name = 'SlackApiError';
}

/** Methods limited to one request a minute for apps not approved for the Slack Marketplace (2025). */
const HISTORY_METHODS = new Set(['conversations.history', 'conversations.replies']);

const SILENT: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => 'error' as ReturnType<Logger['getLevel']>,
  setName: () => {},
};

interface Failure {
  status?: number;
  headers?: Record<string, string>;
  /** Slack's error code, when the answer was `{ok:false}`. */
  code?: string;
  data?: Record<string, unknown>;
  /** A ToolError to pass on as is (timeout, oversized answer). */
  final?: Error;
}

export class SlackClient {
  private web: Promise<WebClient> | undefined;
  private readonly secrets: string[];
  private readonly writes: IntervalGate;
  private readonly searches: IntervalGate;

  constructor(private readonly options: SlackClientOptions) {
    const { policy } = options;
    this.secrets = options.token ? [options.token] : [];
    this.writes = new IntervalGate(policy.minWriteIntervalMs);
    this.searches = new IntervalGate(policy.minSearchIntervalMs);
  }

  /** The WebClient, made on first use (module comment). */
  private client(): Promise<WebClient> {
    const { options } = this;
    const { policy } = options;
    this.web ??= import('@slack/web-api').then(
      ({ WebClient }) =>
        new WebClient(options.token, {
          slackApiUrl: options.apiUrl.href,
          allowAbsoluteUrls: false,
          retryConfig: { retries: 0 },
          rejectRateLimitedCalls: true,
          maxRequestConcurrency: policy.maxConcurrent,
          fetch: timedFetch('Slack API', policy.timeoutMs, options.maxResponseBytes),
          headers: { 'User-Agent': options.userAgent },
          logger: SILENT,
          ...(options.teamId ? { teamId: options.teamId } : {}),
        }),
    );
    return this.web;
  }

  /**
   * Calls Web API `method` with `args` (undefined values dropped) under the policy (module
   * comment). Resolves with the answer (`ok: true`). Errors: SlackApiError with the code explained
   * or the rate limit's retry time, UpstreamTimeout, ResponseTooLarge, or the signal's reason.
   */
  async call<T extends SlackAnswer = SlackAnswer>(
    method: string,
    args: Record<string, unknown> = {},
    opts: CallOptions = {},
  ): Promise<T> {
    if (!/^[a-z]+(\.[a-zA-Z]+)+$/.test(method)) throw new Error(`not a Web API method: ${method}`);
    const clean = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      opts.signal?.throwIfAborted();
      if (opts.write) await this.writes.pass(opts.signal);
      if (opts.search) await this.searches.pass(opts.signal);
      try {
        const web = await this.client();
        return (await web.apiCall(method, clean)) as T;
      } catch (error) {
        const failure = readFailure(error);
        if (failure.final) throw failure.final;
        const rateLimited = failure.status === 429 || failure.code === 'ratelimited';
        const retryable = rateLimited || failure.code === undefined;
        if (retryable) {
          const decision = decideRetry(
            {
              method: opts.write ? 'POST' : 'GET',
              ...(failure.status !== undefined ? { status: failure.status } : {}),
              ...(failure.headers ? { headers: failure.headers } : {}),
              retries: attempt,
              elapsedMs: Date.now() - started,
              rateLimited,
            },
            this.options.policy,
          );
          if (decision.retry) {
            await sleep(decision.delayMs, opts.signal);
            continue;
          }
        }
        this.options.log(
          redact(
            `${method} failed: ${failure.code ?? failure.status ?? 'no answer'} after ${Date.now() - started} ms, ${attempt + 1} attempt(s)`,
            this.secrets,
          ),
        );
        throw this.toError(method, failure, rateLimited, opts.write === true);
      }
    }
  }

  /**
   * Downloads a file's `url_private_download` with the token, under the same policy: the shared
   * timed, size-capped fetch (`maxBytes`), no redirects followed (a redirect means the token was
   * refused, and would carry nothing worth following). The token goes only to Slack's file host
   * (https://files.slack.com or another *.slack.com) or, for self-hosted and test setups, the host
   * of SLACK_API_URL. Errors: ToolError (another host, a redirect or error status), UpstreamTimeout,
   * ResponseTooLarge.
   */
  async download(url: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
    const { apiUrl, token, policy, userAgent } = this.options;
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new ToolError('the file has no usable download URL');
    }
    const slackHost = target.protocol === 'https:' && /(^|\.)slack\.com$/.test(target.hostname);
    const apiHost = target.hostname === apiUrl.hostname && target.protocol === apiUrl.protocol;
    if (!slackHost && !apiHost) {
      throw new ToolError(
        `the file's download URL is on ${target.host}, not Slack's file host; it is not fetched`,
      );
    }
    const fetchCapped = timedFetch('Slack files', policy.timeoutMs, maxBytes);
    const response = await fetchCapped(target, {
      headers: { 'user-agent': userAgent, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      redirect: 'manual',
      ...(signal ? { signal } : {}),
    });
    if (response.status !== 200) {
      throw new ToolError(
        response.status >= 300 && response.status < 400
          ? 'Slack redirected the download instead of serving the file: the token may not read this file (it needs files:read)'
          : `Slack answered HTTP ${response.status} to the file download`,
      );
    }
    return Buffer.from(await response.arrayBuffer());
  }

  private toError(method: string, failure: Failure, rateLimited: boolean, write: boolean): SlackApiError {
    const status = failure.status ?? (failure.code ? 200 : 0);
    if (rateLimited) {
      const headers = failure.headers ?? {};
      const hints = HISTORY_METHODS.has(method)
        ? [
            'Apps not approved for the Slack Marketplace may call conversations.history and conversations.replies once a minute, 15 messages each (Slack, 2025): ask for fewer pages, or wait.',
          ]
        : [];
      const message = summarizeHttpFailure(
        {
          service: 'Slack API',
          status: failure.status ?? 429,
          method: 'POST',
          path: `/${method}`,
          headers,
          reason: 'ratelimited',
          rateLimited: true,
          hints,
        },
        this.secrets,
      );
      return new SlackApiError(message, status, retryHint(headers)?.at, 'ratelimited');
    }
    if (failure.code) {
      // A scope list (`channels:history,groups:history`), never free text from the answer.
      const needed =
        typeof failure.data?.needed === 'string' && /^[a-z0-9:._,-]{1,200}$/.test(failure.data.needed)
          ? failure.data.needed
          : undefined;
      // Slack's own words beside the code (response_metadata.messages, e.g. "[ERROR] missing
      // required field: channel"), read by the shared Slack hooks; the scope is already named.
      const said = SLACK_HOOKS.failure({ status: 200, headers: {}, data: failure.data ?? {} });
      const details = (said?.details ?? []).filter((d) => !/^(needed|provided) scopes?:/.test(d)).slice(0, 3);
      const upstream = details.length ? ` Slack says: ${details.join('; ').slice(0, 300)}.` : '';
      // An answer that could not be read says nothing about whether a write happened.
      const unknown =
        write && failure.code === 'invalid_response'
          ? ' Whether the write took effect is unknown: read the channel before trying again.'
          : '';
      return new SlackApiError(
        redact(
          `Slack ${method} failed — ${explainSlackError(failure.code, needed)}.${upstream}${unknown}`,
          this.secrets,
        ),
        status,
        undefined,
        failure.code,
      );
    }
    if (failure.status === undefined) {
      const unknown = write
        ? ' The message may or may not have been posted: read the channel before trying again.'
        : '';
      return new SlackApiError(
        `Slack API: no answer to ${method} (network failure).${unknown}`,
        0,
        undefined,
        'network',
      );
    }
    const outcome =
      write && failure.status >= 500
        ? ['Whether the write took effect is unknown: read the channel before trying again.']
        : [];
    return new SlackApiError(
      summarizeHttpFailure(
        {
          service: 'Slack API',
          status: failure.status,
          method: 'POST',
          path: `/${method}`,
          ...(failure.headers ? { headers: failure.headers } : {}),
          hints: outcome,
        },
        this.secrets,
      ),
      failure.status,
    );
  }
}

/** Longest error code taken from an answer (Slack's longest is about 40 characters). */
const MAX_CODE_LENGTH = 64;

/**
 * Slack's error code from an `{ok:false}` answer's `error`: a code is lower-case letters, digits
 * and `_` (`not_in_channel`). Anything else — a body that was not JSON (WebClient puts the raw text
 * there: an HTML error page, a truncated answer), a number, a huge or multi-line string — is never
 * echoed into a result or stderr: it becomes `invalid_response`, or `unknown_error` when absent.
 */
export function slackErrorCode(error: unknown): string {
  if (error === undefined || error === null || error === '') return 'unknown_error';
  if (typeof error === 'string' && error.length <= MAX_CODE_LENGTH && /^[a-z0-9_]+$/.test(error))
    return error;
  return 'invalid_response';
}

/** @slack/web-api's ErrorCode values (the enum is not loaded at startup). */
const ErrorCode = {
  RequestError: 'slack_webapi_request_error',
  HTTPError: 'slack_webapi_http_error',
  PlatformError: 'slack_webapi_platform_error',
  RateLimitedError: 'slack_webapi_rate_limited_error',
} as const;

/** What a WebClient error says: Slack's code, an HTTP status and headers, or a network failure. */
function readFailure(error: unknown): Failure {
  const e = error as {
    code?: string;
    data?: Record<string, unknown>;
    retryAfter?: number;
    statusCode?: number;
    headers?: Record<string, string>;
    original?: unknown;
  };
  switch (e?.code) {
    case ErrorCode.PlatformError: {
      const code = slackErrorCode(e.data?.error);
      return { code, ...(e.data ? { data: e.data } : {}) };
    }
    case ErrorCode.RateLimitedError:
      return { status: 429, headers: { 'retry-after': String(e.retryAfter ?? 0) } };
    case ErrorCode.HTTPError:
      return { status: e.statusCode ?? 500, ...(e.headers ? { headers: e.headers } : {}) };
    case ErrorCode.RequestError: {
      const original = e.original;
      if (original instanceof ToolError) return { final: original };
      const name = (original as { name?: string } | undefined)?.name;
      if (name === 'AbortError') return { final: original as Error };
      return {};
    }
    default:
      if (error instanceof ToolError) return { final: error };
      // A 429 without a usable Retry-After: rate limited, no time given.
      if (error instanceof Error && /retry header/i.test(error.message)) return { status: 429, headers: {} };
      return {};
  }
}
