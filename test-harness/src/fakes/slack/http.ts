// Request plumbing of the fake Slack: Web API arguments (query string, form-encoded or JSON body),
// Slack's error answers (HTTP 200 `{ok: false, error}`; `missing_scope` with `needed`/`provided`),
// token authentication (`Authorization: Bearer` or a `token` argument) and scope checks.
import { type FakeReply, type FakeRequest, Reply } from '../../fake-api/index.js';
import type { SlackState, TokenRecord, UserRecord } from './state.js';

/** Who calls: the token's record and its user. */
export interface SlackCaller {
  token: string;
  record: TokenRecord;
  user: UserRecord;
}

/** A method's arguments, as sent (form and query values are strings; JSON keeps its types). */
export type SlackArgs = Record<string, unknown>;

/** The arguments of `req`: the query string, overlaid by a form-encoded or JSON body. */
export function slackArgs(req: FakeRequest): SlackArgs {
  const args: SlackArgs = Object.fromEntries(req.query);
  if (!req.body) return args;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') {
    const parsed = JSON.parse(req.body) as unknown;
    if (parsed && typeof parsed === 'object') Object.assign(args, parsed);
  } else Object.assign(args, Object.fromEntries(new URLSearchParams(req.body)));
  return args;
}

/** Slack's error answer: HTTP 200 `{ok: false, error, ...extra}`. */
export function slackError(error: string, extra: Record<string, unknown> = {}): FakeReply {
  return { status: 200, body: { ok: false, error, ...extra } };
}

/** Throws Slack's error answer (see {@link slackError}). */
export function fail(error: string, extra: Record<string, unknown> = {}): never {
  throw new Reply(slackError(error, extra));
}

/** String argument `name` (numbers and booleans from JSON bodies as text); undefined when absent or "". */
export function str(args: SlackArgs, name: string): string | undefined {
  const v = args[name];
  if (v === undefined || v === null || v === '') return undefined;
  return String(v);
}

/** Required string argument: `invalid_arguments`-style `<error>` when absent (Slack names the missing thing). */
export function need(args: SlackArgs, name: string, error: string): string {
  return str(args, name) ?? fail(error);
}

/** Boolean argument: `true`, `1` (any case) are true; absent → `fallback`. */
export function bool(args: SlackArgs, name: string, fallback: boolean): boolean {
  const v = args[name];
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  return /^(true|1)$/i.test(String(v));
}

/** Integer argument; undefined when absent; Slack's `invalid_limit`-like `error` when not a number. */
export function int(args: SlackArgs, name: string, error = 'invalid_arguments'): number | undefined {
  const s = str(args, name);
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isInteger(n)) fail(error);
  return n;
}

/**
 * The caller of `req`: the token from `Authorization: Bearer` or the `token` argument. No token →
 * `not_authed`; an unknown one → `invalid_auth`; a revoked one → `token_revoked`.
 */
export function authenticate(state: SlackState, req: FakeRequest): SlackCaller {
  const bearer = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  let token = bearer;
  if (!token) {
    try {
      token = str(slackArgs(req), 'token');
    } catch {
      token = undefined;
    }
  }
  if (!token) fail('not_authed');
  const record = state.tokens.get(token);
  const user = record ? state.users.get(record.userId) : undefined;
  if (!record || !user) fail('invalid_auth');
  if (record.revoked) fail('token_revoked');
  return { token, record, user };
}

/**
 * Throws `missing_scope` (with `needed` and `provided`, as Slack sends them) unless the caller's
 * token has every scope of `needed`.
 */
export function requireScopes(who: SlackCaller, needed: string[]): void {
  const missing = needed.filter((s) => !who.record.scopes.includes(s));
  if (missing.length)
    fail('missing_scope', { needed: missing.join(','), provided: who.record.scopes.join(',') });
}
