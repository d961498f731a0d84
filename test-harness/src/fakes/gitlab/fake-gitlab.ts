// The fake GitLab itself: the state, the route wrapper every route shares (token authentication,
// GitLab's headers on every reply) and staged answers the cases need beyond the toolkit's faults:
// Rack::Attack-style 429s (plain-text body, Retry-After and RateLimit-* headers in any
// combination), errors that echo the request, and failures after the write happened. Routes are
// registered by start.ts; they import this file, never the barrel.
import type { FakeApi, FakeReply, FakeRequest, RequestMatcher } from '../../fake-api/index.js';
import { FakeVendor, Reply, type VendorHandler } from '../../fake-api/index.js';
import { type Checked, checkGitLabQuery } from './graphql-schema.js';
import { authenticate, type GitLabCaller, type PagingOptions } from './http.js';
import { FakeGitLabOAuth } from './oauth.js';
import { GitLabState } from './state.js';

export interface FakeGitLabOptions {
  /** API path prefix; default "/api/v4" (a self-hosted instance at a path: "/gitlab/api/v4"). */
  prefix?: string;
  /** Offset lists above this many records leave out X-Total, X-Total-Pages and rel="last"; default 10,000. */
  countLimit?: number;
}

/** A route handler of the fake: the request and the caller (undefined = anonymous). */
export type GitLabHandler = VendorHandler<GitLabCaller | undefined>;

/** A staged answer: replaces the route's reply for the next `times` matching requests. */
export interface StagedReply {
  match?: RequestMatcher;
  /** How many matching requests get it; default 1. */
  times?: number;
  /**
   * "before" (default) answers instead of the route; "after" runs the route first (its writes
   * happen) and answers `reply(req, routeReply)` — a 502 after creating the issue, a body with
   * fields removed.
   */
  when?: 'before' | 'after';
  reply: (req: FakeRequest, routeReply: FakeReply | undefined) => FakeReply;
}

/** Options of {@link FakeGitLab.throttle}: which of GitLab's rate-limit signals the 429 carries. */
export interface ThrottleOptions {
  match?: RequestMatcher;
  times?: number;
  /** `Retry-After` seconds; null leaves the header out. Default 60. */
  retryAfter?: number | null;
  /** Send `RateLimit-*` headers (Limit, Name, Observed, Remaining, Reset, ResetTime); default true. */
  rateLimitHeaders?: boolean;
  /** Seconds from now `RateLimit-Reset` names; default `retryAfter` (or 60). */
  resetIn?: number;
  /** "text" (Rack::Attack's `Retry later`, default) or "json" (an application limit's body). */
  body?: 'text' | 'json';
}

function matches(matcher: RequestMatcher | undefined, req: FakeRequest): boolean {
  if (!matcher) return true;
  if (typeof matcher === 'function') return matcher(req);
  if (matcher.method && matcher.method.toUpperCase() !== req.method) return false;
  if (matcher.path instanceof RegExp) return matcher.path.test(req.path);
  if (typeof matcher.path === 'string') return req.path.startsWith(matcher.path);
  return true;
}

/** GitLab.com's informational rate-limit headers (sent on every API reply). */
function rateLimitHeaders(observed: number, resetIn = 60): Record<string, string> {
  const reset = Math.floor(Date.now() / 1000) + resetIn;
  return {
    'ratelimit-name': 'throttle_authenticated_api',
    'ratelimit-limit': '2000',
    'ratelimit-observed': String(observed),
    'ratelimit-remaining': String(Math.max(0, 2000 - observed)),
    'ratelimit-reset': String(reset),
    'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
  };
}

/**
 * A running fake GitLab: `route(method, pattern, (req, who) => reply)` registers a route with
 * authentication, GitLab's headers, thrown replies and staged answers (`stage`, `throttle`).
 */
export class FakeGitLab extends FakeVendor<GitLabCaller | undefined> {
  readonly state: GitLabState;
  /**
   * The instance's code search back ends beside basic search (both off: a Free instance).
   * `search_type=zoekt` / `advanced` answer GitLab's 400 while off; group code search needs one.
   */
  readonly codeSearch = { zoekt: false, advanced: false };
  /** GraphQL queries refused by the schema check (routes-graphql.ts), with graphql-js's messages. */
  readonly graphqlRejected: { query: string; errors: string[] }[] = [];
  /**
   * GraphQL `Namespace.visibility` answers null while true (the schema types it a nullable
   * String): for tests of a client that must not read a missing visibility as "not public".
   */
  graphqlNullVisibility = false;
  /** Web base (the API URL without `/api/v4`): web_url values start with it. */
  readonly web: string;
  /** OAuth on the instance (oauth.ts): register a client id, approve or deny device codes, expire tokens. */
  readonly oauth: FakeGitLabOAuth;
  private readonly staged: Array<StagedReply & { left: number }> = [];
  private observed = 0;
  /** Requests answered by a throttle staged without RateLimit-* headers. */
  private readonly bare = new WeakSet<FakeRequest>();

  constructor(
    api: FakeApi,
    readonly options: FakeGitLabOptions = {},
    state = new GitLabState(),
  ) {
    super(api, {
      authenticate: (req) => authenticate(state, req),
      headers: (req) => ({
        ...(this.bare.has(req) ? {} : rateLimitHeaders(++this.observed)),
        'x-request-id': `01FAKE${String(this.observed).padStart(20, '0')}`,
        'x-gitlab-meta': JSON.stringify({ correlation_id: `fake-${this.observed}`, version: '1' }),
      }),
    });
    this.state = state;
    // An instance at a path (`/gitlab/api/v4`) has its web pages at that path (`/gitlab/…`).
    this.web = api.url.replace(/\/api\/v4$/, '');
    this.oauth = new FakeGitLabOAuth(state, this.web);
  }

  /** Paging options for `offsetPage`/`keysetPage` (origin of Link URLs, count limit). */
  get paging(): PagingOptions {
    return {
      origin: new URL(this.api.url).origin,
      ...(this.options.countLimit !== undefined ? { countLimit: this.options.countLimit } : {}),
    };
  }

  override route(method: string, pattern: string, handler: GitLabHandler): this {
    return super.route(method, pattern, async (req, who) => {
      const staged = this.staged.find((s) => s.left > 0 && matches(s.match, req));
      if (!staged) return handler(req, who);
      staged.left--;
      if (staged.when !== 'after') return staged.reply(req, undefined);
      let reply: FakeReply;
      try {
        reply = await handler(req, who);
      } catch (error) {
        if (!(error instanceof Reply)) throw error;
        reply = error.reply;
      }
      return staged.reply(req, reply);
    });
  }

  /** Parses and validates a GraphQL query against the schema subset (what the endpoint does first). */
  checkQuery(query: string): Checked {
    return checkGitLabQuery(query);
  }

  /** Stages an answer (see {@link StagedReply}); staged answers are consumed in order. */
  stage(staged: StagedReply): this {
    this.staged.push({ ...staged, left: staged.times ?? 1 });
    return this;
  }

  /**
   * Stages GitLab's 429 for matching requests: `Retry later` as text/plain (or an application
   * limit's JSON body) with `Retry-After` and/or `RateLimit-*` as chosen.
   */
  throttle(o: ThrottleOptions = {}): this {
    const retryAfter = o.retryAfter === undefined ? 60 : o.retryAfter;
    return this.stage({
      ...(o.match ? { match: o.match } : {}),
      times: o.times ?? 1,
      reply: (req) => {
        if (o.rateLimitHeaders === false) this.bare.add(req);
        return {
          status: 429,
          headers: {
            ...(o.rateLimitHeaders === false ? {} : rateLimitHeaders(2001, o.resetIn ?? retryAfter ?? 60)),
            ...(o.rateLimitHeaders === false ? {} : { 'ratelimit-remaining': '0' }),
            ...(retryAfter === null ? {} : { 'retry-after': String(retryAfter) }),
            ...(o.body === 'json' ? {} : { 'content-type': 'text/plain' }),
          },
          ...(o.body === 'json'
            ? {
                body: {
                  message: { error: 'This endpoint has been requested too many times. Try again later.' },
                },
              }
            : { raw: 'Retry later\n' }),
        };
      },
    });
  }

  /** Stages a 500 whose message echoes the request's credentials (a leaky proxy): for token-redaction tests. */
  failEchoingAuth(match?: RequestMatcher, status = 500): this {
    return this.stage({
      ...(match ? { match } : {}),
      reply: (req) => ({
        status,
        body: {
          message: `${status} Internal Server Error (PRIVATE-TOKEN: ${req.headers['private-token'] ?? ''}; Authorization: ${req.headers.authorization ?? ''})`,
        },
      }),
    });
  }

  /** Drops staged answers and the toolkit's faults and latencies. */
  resetFaults(): void {
    this.staged.length = 0;
    this.api.resetFaults();
  }
}
