/**
 * Header-driven pacing for APIs that announce several rate-limit windows at once, in the list form
 * of draft-ietf-httpapi-ratelimit-headers (-03) that Brave Search sends
 * (api.search.brave.com/app/documentation/web-search/response-headers):
 *
 *   X-RateLimit-Limit: 1, 15000            (1 per second, 15000 per month)
 *   X-RateLimit-Policy: 1;w=1, 15000;w=2592000
 *   X-RateLimit-Remaining: 0, 14999
 *   X-RateLimit-Reset: 1, 1419704          (seconds until each window resets)
 *
 * One {@link RateLimitWindows} per credential is the queue every call and sub-request passes: the
 * plan is learnt from the first answer (until then one request at a time, so only the probe can be
 * refused), then starts are spaced by the shortest window's limit (plus a margin of at most a tenth
 * of the spacing; see {@link RateLimitWindowsOptions.marginMs}), a window whose remaining count
 * is 0 is waited out when its reset is near, and a spent long window (a monthly quota) is refused
 * at once with its reset time — no request, no retry loop.
 */
import { ToolError } from '../server/errors.js';
import { sleep } from './pacer.js';
import { type HeaderSource, headerValue } from './policy.js';

/** What an HttpClient asks before each attempt and tells after each answer (see HttpClientOptions.gate). */
export interface RequestGate {
  /** Resolves when the next attempt may start. Errors: {@link QuotaExhausted}; the signal's reason on abort. */
  pass(signal?: AbortSignal): Promise<void>;
  /** Learns from an answer's status and headers (any status; called once per attempt that got one). */
  observe(status: number, headers: HeaderSource): void;
  /** Called after an attempt that got no answer (network failure, timeout), so a probe slot is freed. */
  abandon(): void;
}

/** One window of the plan as last announced. */
export interface RateWindow {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms (from X-RateLimit-Policy `w=`, else 1 s for the first and 30 days for later ones). */
  windowMs: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Epoch ms when the current window resets. */
  resetAt: number;
}

/** A long window (quota) is spent: no request is sent until `resetAt`. */
export class QuotaExhausted extends ToolError {
  override name = 'QuotaExhausted';
  constructor(
    message: string,
    /** The spent window. */
    readonly window: RateWindow,
  ) {
    super(message);
  }
}

const MONTH_MS = 30 * 24 * 3600 * 1000;

function numbers(value: string | undefined): number[] {
  if (!value) return [];
  return value.split(',').map((part) => Number.parseInt(part.trim(), 10));
}

/**
 * The windows the headers announce (empty when X-RateLimit-Limit is absent or malformed). `now` in
 * epoch ms. Pure.
 */
export function parseRateWindows(headers: HeaderSource, now = Date.now()): RateWindow[] {
  const limits = numbers(headerValue(headers, 'x-ratelimit-limit'));
  if (!limits.length || limits.some((n) => !Number.isFinite(n) || n < 0)) return [];
  const remaining = numbers(headerValue(headers, 'x-ratelimit-remaining'));
  const resets = numbers(headerValue(headers, 'x-ratelimit-reset'));
  const policy = (headerValue(headers, 'x-ratelimit-policy') ?? '').split(',');
  return limits.map((limit, i) => {
    const w = /;\s*w=(\d+)/.exec(policy[i] ?? '')?.[1];
    const windowMs = w ? Number(w) * 1000 : i === 0 ? 1000 : MONTH_MS;
    const left = remaining[i];
    const reset = resets[i];
    return {
      limit,
      windowMs,
      remaining: left !== undefined && Number.isFinite(left) ? left : limit,
      resetAt: now + (reset !== undefined && Number.isFinite(reset) ? reset * 1000 : windowMs),
    };
  });
}

/** Options of {@link RateLimitWindows}. */
export interface RateLimitWindowsOptions {
  /** Names the quota in messages, e.g. "Brave Search API". */
  service: string;
  /** Longest wait for a window to reset that is sat out, in ms; longer ones fail with the reset time. */
  maxWaitMs: number;
  /**
   * Most added to each spacing interval for clock and network jitter, in ms; default 50. The margin
   * is the smaller of this and a tenth of the interval (`windowMs / limit`), so a slow plan keeps it
   * whole (1 per second: starts 1050 ms apart) and a fast one runs near its limit (50 per second:
   * 22 ms apart, ~45/s). 0: no margin.
   */
  marginMs?: number;
  /** Clock (tests); default Date.now. */
  now?: () => number;
}

/** "about 2 hours" / "about 1 day" / "42 s": a wait in words, for messages. */
export function aboutDelay(ms: number): string {
  if (ms < 90_000) return `${Math.max(1, Math.ceil(ms / 1000))} s`;
  if (ms < 45 * 60_000) return `about ${Math.round(ms / 60_000)} min`;
  if (ms < 20 * 3_600_000) {
    const h = Math.max(1, Math.round(ms / 3_600_000));
    return `about ${h === 1 ? 'an hour' : `${h} hours`}`;
  }
  const d = Math.round(ms / 86_400_000);
  return `about ${d === 1 ? 'a day' : `${d} days`}`;
}

/** The per-credential queue described in the module comment. */
export class RateLimitWindows implements RequestGate {
  private windows: RateWindow[] = [];
  private known = false;
  private probing: Promise<void> | undefined;
  private endProbe: (() => void) | undefined;
  private next = 0;
  private readonly now: () => number;

  constructor(private readonly options: RateLimitWindowsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The plan as last announced (empty before the first answer with headers). */
  get plan(): readonly RateWindow[] {
    return this.windows;
  }

  async pass(signal?: AbortSignal): Promise<void> {
    // Until an answer has told the plan, requests go one at a time.
    while (!this.known && this.probing) await abortable(this.probing, signal);
    if (!this.known) {
      this.probing = new Promise((resolve) => {
        this.endProbe = resolve;
      });
      return;
    }
    const now = this.now();
    let start = Math.max(now, this.next);
    for (const w of this.windows) {
      if (w.remaining > 0 || w.resetAt <= start) continue;
      const wait = w.resetAt - now;
      if (w.windowMs > 60_000 || wait > this.options.maxWaitMs) throw this.exhausted(w, now);
      start = Math.max(start, w.resetAt);
    }
    const shortest = this.windows.reduce<RateWindow | undefined>(
      (a, w) => (w.limit > 0 && (!a || w.windowMs < a.windowMs) ? w : a),
      undefined,
    );
    const base = shortest ? shortest.windowMs / shortest.limit : 0;
    const interval = base + Math.min(this.options.marginMs ?? 50, base / 10);
    this.next = start + interval;
    // Count this request against every window now, so queued callers see it.
    for (const w of this.windows) if (w.resetAt > start && w.remaining > 0) w.remaining--;
    await sleep(start - now, signal);
  }

  observe(_status: number, headers: HeaderSource): void {
    const parsed = parseRateWindows(headers, this.now());
    if (parsed.length) {
      this.windows = parsed;
      this.known = true;
    }
    this.finishProbe();
  }

  abandon(): void {
    this.finishProbe();
  }

  /** The error for a spent window, or undefined while every long window has requests left. */
  spent(): QuotaExhausted | undefined {
    const now = this.now();
    const w = this.windows.find((x) => x.windowMs > 60_000 && x.remaining <= 0 && x.resetAt > now);
    return w ? this.exhausted(w, now) : undefined;
  }

  private finishProbe(): void {
    const end = this.endProbe;
    this.endProbe = undefined;
    this.probing = undefined;
    end?.();
  }

  private exhausted(w: RateWindow, now: number): QuotaExhausted {
    const kind =
      w.windowMs >= 28 * 86_400_000 ? 'monthly' : w.windowMs >= 86_400_000 ? 'daily' : 'per-window';
    return new QuotaExhausted(
      `${this.options.service}: the ${kind} quota of the plan (${w.limit} requests) is spent; it resets in ${aboutDelay(w.resetAt - now)} (at ${new Date(w.resetAt).toISOString()}). No request was sent.`,
      w,
    );
  }
}

function abortable(promise: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
