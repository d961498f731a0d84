/**
 * The Brave Search API client: the shared HttpClient with BRAVE_HOOKS, the X-Subscription-Token
 * header and one {@link RateLimitWindows} queue per API key (every call and sub-request of the
 * process, a local search's two lookups included, waits its turn; the pace comes from the plan's
 * X-RateLimit-* headers). Without a key no request is ever sent: each call says the key is not set.
 * Failures are worded for the model: a refused key, a rate limit with when to retry, a spent quota
 * with when it resets — never Brave's raw JSON, never the key.
 */
import {
  aboutDelay,
  HttpClient,
  HttpError,
  type HttpPolicy,
  type HttpRequest,
  QuotaExhausted,
  RateLimitWindows,
  ToolError,
} from '@refmcp/shared';
import { BRAVE_HOOKS } from './hooks.js';

/** The variables the key is read from, in order (the file form for Docker secrets). */
export const KEY_VARIABLE = 'BRAVE_API_KEY';
export const KEY_FILE_VARIABLE = 'BRAVE_API_KEY_FILE';

export interface BraveOptions {
  /** API base including /res/v1 (BRAVE_API_URL). */
  baseUrl: URL;
  /** The subscription token; undefined when not configured (every call then fails without a request). */
  key?: string;
  userAgent: string;
  policy: HttpPolicy;
  maxResponseBytes: number;
}

// One queue per API key for the whole process (case SE-02): clients made for the same key share it.
const gates = new Map<string, RateLimitWindows>();

function gateFor(key: string, maxWaitMs: number): RateLimitWindows {
  let gate = gates.get(key);
  if (!gate) {
    gate = new RateLimitWindows({ service: 'Brave Search API', maxWaitMs });
    gates.set(key, gate);
  }
  return gate;
}

export class Brave {
  private readonly http: HttpClient | undefined;
  private readonly gate: RateLimitWindows | undefined;

  constructor(options: BraveOptions) {
    if (!options.key) return;
    this.gate = gateFor(options.key, options.policy.maxRetryWaitMs);
    this.http = new HttpClient({
      service: 'Brave Search API',
      baseUrl: options.baseUrl,
      userAgent: options.userAgent,
      headers: { 'x-subscription-token': options.key },
      // The plan's headers pace Brave, not the generic search interval.
      policy: { ...options.policy, minSearchIntervalMs: 0 },
      maxResponseBytes: options.maxResponseBytes,
      hooks: BRAVE_HOOKS,
      secrets: [options.key],
      isSearch: () => false,
      gate: this.gate,
    });
  }

  /** True when a key is configured. */
  get configured(): boolean {
    return this.http !== undefined;
  }

  /**
   * GET `path` (under /res/v1) with `query`; resolves with the JSON body. Errors: ToolError when no
   * key is set (nothing sent), QuotaExhausted for a spent monthly quota, HttpError reworded for a
   * refused key (401/403/422) and a rate limit (429 with the retry time), else the shared summary.
   */
  async get<T = unknown>(path: string, query: HttpRequest['query'], signal: AbortSignal): Promise<T> {
    if (!this.http)
      throw new ToolError(
        `${KEY_VARIABLE} is not set: this server cannot call the Brave Search API. Set ${KEY_VARIABLE} (or ${KEY_FILE_VARIABLE}) to a key from https://api-dashboard.search.brave.com/, or configure SEARXNG_URL.`,
      );
    try {
      return (await this.http.request<T>({ path, ...(query ? { query } : {}), signal })).data;
    } catch (error) {
      throw this.reworded(error);
    }
  }

  private reworded(error: unknown): unknown {
    if (error instanceof QuotaExhausted || !(error instanceof HttpError)) return error;
    const spent = this.gate?.spent();
    if (spent) return spent;
    if (error.status === 401 || error.status === 403 || error.reason === 'SUBSCRIPTION_TOKEN_INVALID')
      return new HttpError(
        `Brave Search API refused the API key (${error.status}${error.reason ? ` ${error.reason}` : ''}): check ${KEY_VARIABLE} (mistyped, revoked, or not subscribed to this endpoint's plan).`,
        error.status,
        undefined,
        error.reason,
      );
    if (error.status === 429) {
      const plan = this.gate?.plan.map(
        (w) =>
          `${w.limit} per ${w.windowMs <= 1000 ? 'second' : w.windowMs >= 28 * 86_400_000 ? 'month' : `${w.windowMs / 1000} s`}`,
      );
      const when =
        error.retryAt !== undefined
          ? `Retry in ${aboutDelay(error.retryAt - Date.now())} (after ${new Date(error.retryAt).toISOString()}).`
          : 'Retry later; Brave did not say when.';
      return new HttpError(
        `Brave Search API rate limit hit${plan?.length ? ` (plan: ${plan.join(', ')})` : ''}; this server waits up to ${Math.round((this.http?.policy.maxRetryWaitMs ?? 0) / 1000)} s (--rate-limit-wait). ${when}`,
        429,
        error.retryAt,
        error.reason,
      );
    }
    return error;
  }
}
