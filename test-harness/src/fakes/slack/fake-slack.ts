// The fake Slack itself: the state, the method wrapper every Web API method shares (GET and POST
// `/api/<method>`, token authentication, `x-oauth-scopes` headers, Slack's errors) and what the
// cases stage beyond the toolkit's faults: per-method rate limits by Slack's tiers (429 with
// `Retry-After` and `{ok:false,error:"ratelimited"}`), the 2025 limit for apps that are not
// Marketplace-approved, staged `ok:false` answers and arbitrary staged replies. Routes are
// registered by start.ts; they import this file, never the barrel.
import type { FakeApi, FakeReply, FakeRequest } from '../../fake-api/index.js';
import { FakeVendor, Reply } from '../../fake-api/index.js';
import { authenticate, type SlackArgs, type SlackCaller, slackArgs, slackError } from './http.js';
import { SlackState } from './state.js';

/** A method handler: the request, its arguments and the caller. */
export type SlackHandler = (
  req: FakeRequest,
  args: SlackArgs,
  who: SlackCaller,
) => FakeReply | Promise<FakeReply>;

/** Requests per minute of Slack's rate-limit tiers (api.slack.com/apis/rate-limits). */
export const SLACK_TIERS: Readonly<Record<1 | 2 | 3 | 4, number>> = { 1: 1, 2: 20, 3: 50, 4: 100 };

/** The documented tier of each method the fake serves ("special" limits as their nearest tier). */
export const METHOD_TIERS: Readonly<Record<string, 1 | 2 | 3 | 4>> = {
  'auth.test': 4,
  'chat.getPermalink': 4,
  'chat.delete': 3,
  'chat.deleteScheduledMessage': 3,
  'chat.postMessage': 4, // special: about one message a second per channel
  'chat.scheduleMessage': 3,
  'chat.scheduledMessages.list': 3,
  'chat.update': 3,
  'conversations.history': 3,
  'conversations.info': 3,
  'conversations.list': 2,
  'conversations.mark': 3,
  'conversations.replies': 3,
  'reactions.add': 3,
  'reactions.remove': 2,
  'search.messages': 2,
  'users.info': 4,
  'users.list': 2,
  'users.lookupByEmail': 3,
  'users.profile.get': 4,
};

/**
 * Since 2025-05-29 (existing installs from 2026-03-03), apps not approved for the Slack
 * Marketplace get 1 conversations.history / conversations.replies request a minute, with at most
 * (and by default) 15 messages each.
 */
export const NON_MARKETPLACE_LIMIT = { perMinute: 1, maxMessages: 15 } as const;

/** A staged answer: replaces the method's reply for the next `times` matching requests. */
export interface StagedReply {
  /** The method (e.g. "chat.postMessage"); all methods when omitted. */
  method?: string;
  /** Further narrowing: a predicate over the request and its arguments. */
  match?: (req: FakeRequest, args: SlackArgs) => boolean;
  /** How many matching requests get it; default 1 (Infinity for all). */
  times?: number;
  /** "before" (default) answers instead of the method; "after" runs it first (writes happen). */
  when?: 'before' | 'after';
  reply: (req: FakeRequest, routeReply: FakeReply | undefined) => FakeReply;
}

/** Options of {@link FakeSlack.fail}: a staged `{ok:false}` answer. */
export interface StagedError {
  method: string;
  /** Slack's error code, e.g. "not_in_channel", "missing_scope", "thread_not_found". */
  error: string;
  /** More fields of the error body (`needed`, `provided`, `warning`). */
  extra?: Record<string, unknown>;
  match?: StagedReply['match'];
  times?: number;
}

interface Window {
  perMinute: number;
  calls: number[];
}

/**
 * A running fake Slack Web API: `method(name, handler, scopes)` registers a method under GET and
 * POST `/<name>` with authentication, Slack's headers, rate limits and staged answers.
 */
export class FakeSlack extends FakeVendor<SlackCaller> {
  readonly state: SlackState;
  /** The files.slack.com stand-in serving downloads (set by startFakeSlack). */
  files?: FakeApi;
  /** conversations.history / replies: largest (and default) page in messages, when capped. */
  messageLimitCap: number | undefined;
  /**
   * Where conversations.replies puts the thread parent: on every page (default; also when it is
   * older than `oldest`) or on the first page only. Reports differ on what Slack does on cursor
   * pages, so a client should pass with both.
   */
  repliesParent: 'every-page' | 'first-page' = 'every-page';
  private readonly staged: Array<StagedReply & { left: number }> = [];
  private readonly windows = new Map<string, Window>();
  private readonly scopes = new Map<string, string[]>();
  private offset = 0;
  private serial = 0;

  constructor(api: FakeApi, state = new SlackState()) {
    super(api, {
      authenticate: (req) => authenticate(state, req),
      headers: (req, who) => ({
        'x-slack-req-id': `fake${String(++this.serial).padStart(12, '0')}`,
        ...(who ? { 'x-oauth-scopes': who.record.scopes.join(',') } : {}),
        'x-accepted-oauth-scopes': (this.scopes.get(req.path.slice(1)) ?? []).join(','),
      }),
    });
    this.state = state;
  }

  /** The Web API base with a trailing slash (`http://127.0.0.1:<port>/api/`): `slackApiUrl`, `SLACK_API_URL`. */
  get apiUrl(): string {
    return `${this.url}/`;
  }

  /** The fake's clock in epoch ms (rate-limit windows); moved by {@link FakeSlack.advance}. */
  now(): number {
    return Date.now() + this.offset;
  }

  /** Moves the fake's clock forward by `ms` (a rate-limit window passes without waiting). */
  advance(ms: number): this {
    this.offset += ms;
    return this;
  }

  /** Registers Web API method `name` (GET and POST `/<name>`); `scopes` are what `x-accepted-oauth-scopes` names. */
  override async close(): Promise<void> {
    await Promise.all([super.close(), this.files?.close()]);
  }

  method(name: string, handler: SlackHandler, scopes: string[] = []): this {
    this.scopes.set(name, scopes);
    const wrapped = async (req: FakeRequest, who: SlackCaller): Promise<FakeReply> =>
      withCharsetWarning(req, await answer(req, who));
    const answer = async (req: FakeRequest, who: SlackCaller): Promise<FakeReply> => {
      const args = slackArgs(req);
      const limited = this.limited(name);
      if (limited) return limited;
      const staged = this.staged.find(
        (s) => s.left > 0 && (!s.method || s.method === name) && (!s.match || s.match(req, args)),
      );
      if (!staged) return handler(req, args, who);
      staged.left--;
      if (staged.when !== 'after') return staged.reply(req, undefined);
      let reply: FakeReply;
      try {
        reply = await handler(req, args, who);
      } catch (error) {
        if (!(error instanceof Reply)) throw error;
        reply = error.reply;
      }
      return staged.reply(req, reply);
    };
    this.route('POST', `/${name}`, wrapped);
    this.route('GET', `/${name}`, wrapped);
    return this;
  }

  /** Delays every call of `method` by `ms` (a slow `users.list` page on a big workspace). */
  slow(method: string, ms: number): this {
    this.api.latency(ms, { path: `/${method}` });
    return this;
  }

  /** The arguments of every call of `method` so far, in order (what chat.postMessage was asked, e.g. `unfurl_links`). */
  calls(method: string): SlackArgs[] {
    return this.api.requests.filter((r) => r.path === `/${method}`).map((r) => slackArgs(r));
  }

  /** Stages an answer (see {@link StagedReply}); staged answers are consumed in order. */
  stage(staged: StagedReply): this {
    this.staged.push({ ...staged, left: staged.times ?? 1 });
    return this;
  }

  /** Stages Slack's `{ok:false, error, ...extra}` for `method` (HTTP 200). */
  fail(o: StagedError): this {
    return this.stage({
      method: o.method,
      ...(o.match ? { match: o.match } : {}),
      times: o.times ?? 1,
      reply: () => slackError(o.error, o.extra),
    });
  }

  /** Stages Slack's 429 `{ok:false,error:"ratelimited"}` with `Retry-After: retryAfter` (seconds; default 30). */
  throttle(o: { method?: string; retryAfter?: number; times?: number } = {}): this {
    return this.stage({
      ...(o.method ? { method: o.method } : {}),
      times: o.times ?? 1,
      reply: () => ratelimited(o.retryAfter ?? 30),
    });
  }

  /**
   * Limits `method` to `perMinute` requests in any sliding minute of the fake's clock; past it,
   * 429 with `Retry-After` = seconds until the oldest call leaves the window.
   */
  rateLimit(method: string, perMinute: number): this {
    this.windows.set(method, { perMinute, calls: [] });
    return this;
  }

  /** Applies Slack's documented tier ({@link METHOD_TIERS}) to every method the fake serves. */
  enforceTiers(): this {
    for (const [method, tier] of Object.entries(METHOD_TIERS)) this.rateLimit(method, SLACK_TIERS[tier]);
    return this;
  }

  /**
   * The 2025 limit for apps not approved for the Marketplace ({@link NON_MARKETPLACE_LIMIT}):
   * conversations.history and conversations.replies 1 a minute, pages of at most 15 messages.
   */
  nonMarketplaceApp(): this {
    this.rateLimit('conversations.history', NON_MARKETPLACE_LIMIT.perMinute);
    this.rateLimit('conversations.replies', NON_MARKETPLACE_LIMIT.perMinute);
    this.messageLimitCap = NON_MARKETPLACE_LIMIT.maxMessages;
    return this;
  }

  /** Drops staged answers, rate limits, the message cap and the toolkit's faults and latencies. */
  resetFaults(): void {
    this.staged.length = 0;
    this.windows.clear();
    this.messageLimitCap = undefined;
    this.api.resetFaults();
  }

  private limited(method: string): FakeReply | undefined {
    const window = this.windows.get(method);
    if (!window) return undefined;
    const now = this.now();
    window.calls = window.calls.filter((t) => now - t < 60_000);
    if (window.calls.length < window.perMinute) {
      window.calls.push(now);
      return undefined;
    }
    const oldest = window.calls[0] ?? now;
    return ratelimited(Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000)));
  }
}

/**
 * As Slack does, a successful answer to a JSON body whose content type names no charset carries
 * `warning: "missing_charset"` (still `ok: true`).
 */
function withCharsetWarning(req: FakeRequest, reply: FakeReply): FakeReply {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const body = reply.body as { ok?: boolean; warning?: string } | undefined;
  if (!type.startsWith('application/json') || type.includes('charset') || body?.ok !== true) return reply;
  return {
    ...reply,
    body: { ...body, warning: body.warning ? `${body.warning},missing_charset` : 'missing_charset' },
  };
}

/** Slack's rate-limited answer: 429, `Retry-After` seconds, `{ok:false,error:"ratelimited"}`. */
export function ratelimited(retryAfter: number): FakeReply {
  return {
    status: 429,
    headers: { 'retry-after': String(retryAfter) },
    body: { ok: false, error: 'ratelimited' },
  };
}
