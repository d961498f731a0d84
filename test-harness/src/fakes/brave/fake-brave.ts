// The fake Brave itself: the subscription keys it accepts, the plan it announces and enforces
// (X-RateLimit-Limit/Policy/Remaining/Reset on every answer, like Brave's response headers; a
// request over the per-second limit gets 429 with Retry-After, a spent monthly quota 429 too),
// Brave's error envelope, and the scene the routes answer from. Routes are registered by start.ts;
// they import this file, never the barrel.
import type { FakeApi, FakeRequest } from '../../fake-api/index.js';
import { FakeVendor, Reply } from '../../fake-api/index.js';

/** The key the scene accepts. */
export const BRAVE_KEY = 'TESTTOKEN123';

/** A plan: requests per second and per month, and what is already used this month. */
export interface BravePlan {
  perSecond: number;
  perMonth: number;
  /** Requests of the month already used. */
  usedThisMonth: number;
  /** Seconds until the monthly quota resets. */
  monthResetSeconds: number;
  /** Refuse requests over the limits (default true). */
  enforce: boolean;
}

/** Brave's free plan: 1 request a second, 15 000 a month (docs' response-headers example). */
export const FREE_PLAN: Readonly<Omit<BravePlan, 'usedThisMonth' | 'monthResetSeconds' | 'enforce'>> = {
  perSecond: 1,
  perMonth: 15000,
};

/** A paid plan as the cases stage it: 50 a second, 20 000 000 a month. */
export const PAID_PLAN = { perSecond: 50, perMonth: 20_000_000 } as const;

/** Brave's error envelope (specs/brave/defs.json ErrorResponse). */
export function braveError(status: number, code: string, detail: string, meta: Record<string, unknown> = {}) {
  return {
    status,
    body: {
      type: 'ErrorResponse',
      error: { id: `fake-${status}-${code.toLowerCase()}`, status, code, detail, meta },
      time: Math.floor(Date.now() / 1000),
    },
  };
}

/** What the routes answer from (start.ts seeds it with generated results for any query). */
export interface BraveScene {
  /** Web results by query (raw SearchResult objects); a query not here gets generated ones. */
  web: Map<string, Record<string, unknown>[]>;
  /** Location results (with ids) a web answer carries, by query. */
  locations: Map<string, Record<string, unknown>[]>;
  /** POIs (local/pois LocationResult) by id. */
  pois: Map<string, Record<string, unknown>>;
  /** Descriptions by POI id. */
  descriptions: Map<string, string>;
  /** News, videos and images by query; generated when absent. */
  news: Map<string, Record<string, unknown>[]>;
  videos: Map<string, Record<string, unknown>[]>;
  images: Map<string, Record<string, unknown>[]>;
  /** How many generated results a query has (default 30). */
  generated: number;
}

export class FakeBrave extends FakeVendor<string> {
  /** Keys accepted as X-Subscription-Token. */
  readonly keys = new Set<string>([BRAVE_KEY]);
  plan: BravePlan = { ...FREE_PLAN, usedThisMonth: 0, monthResetSeconds: 1_419_704, enforce: true };
  readonly scene: BraveScene = {
    web: new Map(),
    locations: new Map(),
    pois: new Map(),
    descriptions: new Map(),
    news: new Map(),
    videos: new Map(),
    images: new Map(),
    generated: 30,
  };
  /** Arrival times (epoch ms) of the requests the plan let through, for the per-second window. */
  private accepted: number[] = [];

  constructor(api: FakeApi) {
    super(api, {
      authenticate: (req) => this.authenticate(req),
      headers: () => this.rateHeaders(),
    });
  }

  /** The base URL servers are pointed at (BRAVE_API_URL): `http://127.0.0.1:<port>/res/v1`. */
  get apiUrl(): string {
    return this.url;
  }

  /** Sets the plan (limits and month usage); the window of accepted requests starts afresh. */
  setPlan(plan: Partial<BravePlan>): void {
    this.plan = { ...this.plan, ...plan };
    this.accepted = [];
  }

  private inWindow(now = Date.now()): number[] {
    this.accepted = this.accepted.filter((t) => now - t < 1000);
    return this.accepted;
  }

  private authenticate(req: FakeRequest): string {
    const key = req.headers['x-subscription-token'];
    if (!key || !this.keys.has(key))
      throw new Reply(
        braveError(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', {
          component: 'authentication',
        }),
      );
    const now = Date.now();
    const { perSecond, perMonth, usedThisMonth, enforce } = this.plan;
    if (enforce && usedThisMonth >= perMonth)
      throw new Reply(
        braveError(429, 'RATE_LIMITED', 'Request quota exceeded for plan.', {
          plan: 'Free',
          quota_limit: perMonth,
          quota_current: usedThisMonth,
          component: 'rate_limiter',
        }),
      );
    const window = this.inWindow(now);
    if (enforce && window.length >= perSecond) {
      const wait = Math.max(1, Math.ceil(((window[0] ?? now) + 1000 - now) / 1000));
      throw new Reply({
        ...braveError(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', {
          plan: 'Free',
          rate_limit: perSecond,
          rate_current: window.length,
          component: 'rate_limiter',
        }),
        headers: { 'retry-after': String(wait) },
      });
    }
    this.accepted.push(now);
    this.plan.usedThisMonth++;
    return key;
  }

  /** The plan's headers as Brave sends them (specs/brave RateLimitHeaders). */
  rateHeaders(): Record<string, string> {
    const now = Date.now();
    const window = this.inWindow(now);
    const { perSecond, perMonth, usedThisMonth, monthResetSeconds } = this.plan;
    const secondReset = window.length ? Math.max(0, Math.ceil(((window[0] ?? now) + 1000 - now) / 1000)) : 0;
    return {
      'x-ratelimit-limit': `${perSecond}, ${perMonth}`,
      'x-ratelimit-policy': `${perSecond};w=1, ${perMonth};w=2592000`,
      'x-ratelimit-remaining': `${Math.max(0, perSecond - window.length)}, ${Math.max(0, perMonth - usedThisMonth)}`,
      'x-ratelimit-reset': `${secondReset}, ${monthResetSeconds}`,
    };
  }

  /** Requests to `path` (under /res/v1, e.g. "/web/search") the fake received, in order. */
  requestsTo(path: string): FakeRequest[] {
    return this.api.requests.filter((r) => r.path === path);
  }
}
