// Request plumbing of the fake GitLab: authentication (PRIVATE-TOKEN, Bearer, private_token),
// GitLab's two error shapes (`{"message": …}` from the API, `{"error": …}` from parameter
// validation and the router), project lookup by id or URL-encoded path with access levels,
// request bodies (JSON or form-encoded), and offset and keyset pages with GitLab's headers.
import { type FakeReply, type FakeRequest, linkPage, Reply } from '../../fake-api/index.js';
import { type GitLabState, type ProjectRecord, REPORTER, type UserRecord } from './state.js';

export { Reply };

/** Who a request comes from: the user and the token's scopes; undefined for anonymous. */
export interface GitLabCaller {
  user: UserRecord;
  scopes: string[];
}

/** An API error as GitLab answers it: `{"message": message}` (a string, a list or field → errors). */
export function glError(status: number, message: unknown): FakeReply {
  return { status, body: { message } };
}

/** A parameter or routing error as Grape answers it: `{"error": error}`. */
export function glInvalid(error: string, status = 400): FakeReply {
  return { status, body: { error } };
}

/** GitLab's "404 <What> Not Found" (e.g. "404 Project Not Found"). */
export function notFound(what: string): Reply {
  return new Reply(glError(404, `404 ${what} Not Found`));
}

/** GitLab's 401 and 403 replies. */
export const unauthorized = (): Reply => new Reply(glError(401, '401 Unauthorized'));
export const forbidden = (message = '403 Forbidden'): Reply => new Reply(glError(403, message));

/**
 * The caller of `req`: a token from the `PRIVATE-TOKEN` header, `Authorization: Bearer`, or the
 * `private_token` query parameter. No token → undefined (anonymous); an unknown token → 401.
 */
export function authenticate(state: GitLabState, req: FakeRequest): GitLabCaller | undefined {
  const bearer = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const token = req.headers['private-token'] || bearer || req.query.get('private_token') || undefined;
  if (!token) return undefined;
  const record = state.tokens.get(token);
  const user = record ? state.user(record.userId) : undefined;
  if (!record || !user) throw unauthorized();
  // GitLab's answer to an expired OAuth access token (Doorkeeper): 401 invalid_token.
  if (record.expiresAt !== undefined && Date.now() >= record.expiresAt)
    throw new Reply({
      status: 401,
      body: {
        error: 'invalid_token',
        error_description: 'Token is expired. You can either do re-authorization or token refresh.',
      },
    });
  return { user, scopes: record.scopes };
}

/** 401 for anonymous callers; 403 `insufficient_scope` for a read-only token on a write. */
export function requireCaller(who: GitLabCaller | undefined, write = false): GitLabCaller {
  if (!who) throw unauthorized();
  if (write && !who.scopes.includes('api'))
    throw new Reply({
      status: 403,
      body: {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      },
    });
  return who;
}

/**
 * The project `:id` names (numeric id or URL-encoded full path) if `who` may see it; otherwise
 * 404 "404 Project Not Found" (GitLab hides projects a caller may not see). Routes check the access
 * level an action needs themselves (403 below it).
 */
export function projectFor(
  state: GitLabState,
  req: FakeRequest,
  who: GitLabCaller | undefined,
): ProjectRecord {
  const project = state.project(req.params.id ?? '');
  if (!project || !state.canSee(project, who?.user.id)) throw notFound('Project');
  return project;
}

/** {@link projectFor} for reading its repository, issues, merge requests and CI: a private project needs Reporter (403 below). */
export function readableProject(
  state: GitLabState,
  req: FakeRequest,
  who: GitLabCaller | undefined,
): ProjectRecord {
  const p = projectFor(state, req, who);
  if (p.visibility === 'private' && state.accessLevel(p, who?.user.id) < REPORTER) throw forbidden();
  return p;
}

/** The request body as an object: JSON, or `application/x-www-form-urlencoded`; 400 when malformed. */
export function body<T = Record<string, unknown>>(req: FakeRequest): T {
  if (!req.body) return {} as T;
  if ((req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(req.body)) as T;
  try {
    return JSON.parse(req.body) as T;
  } catch {
    throw new Reply(glInvalid('400 Bad Request'));
  }
}

/** `value` as a string parameter named `name`; 400 `{"error":"<name> is missing"}` when absent. */
export function required(value: unknown, name: string): string {
  if (value === undefined || value === null || value === '') throw new Reply(glInvalid(`${name} is missing`));
  return String(value);
}

/** A path or query integer parameter; 400 `{"error":"<name> is invalid"}` unless digits. */
export function intParam(value: string | undefined | null, name: string): number {
  if (!value || !/^\d+$/.test(value)) throw new Reply(glInvalid(`${name} is invalid`));
  return Number(value);
}

/** Options of the fake's pages. */
export interface PagingOptions {
  /** Origin the `Link` URLs start with. */
  origin: string;
  /**
   * Above this many records GitLab leaves out `X-Total`, `X-Total-Pages` and `rel="last"` (for
   * performance; GitLab's limit is 10,000). Default 10,000.
   */
  countLimit?: number;
}

/**
 * One offset page of `items` as GitLab serves it: `page` (default 1) and `per_page` (default 20,
 * max 100); headers `Link` (rel prev/next/first/last, URLs repeating the request's query),
 * `X-Page`, `X-Per-Page`, `X-Next-Page`, `X-Prev-Page` (empty when none), `X-Total` and
 * `X-Total-Pages` (both, and rel="last", left out past `countLimit` records).
 */
export function offsetPage<T>(req: FakeRequest, items: T[], o: PagingOptions): FakeReply & { body: T[] } {
  const page = linkPage(req, items, { origin: o.origin, defaultPerPage: 20, maxPerPage: 100 });
  const counted = items.length <= (o.countLimit ?? 10_000);
  const url = (n: number) => {
    const q = new URLSearchParams(req.rawQuery);
    q.set('page', String(n));
    q.set('per_page', String(page.perPage));
    return `<${o.origin}${req.rawPath}?${q.toString()}>`;
  };
  const hasNext = page.page < page.last;
  const links = [
    ...(page.page > 1 ? [`${url(page.page - 1)}; rel="prev"`] : []),
    ...(hasNext ? [`${url(page.page + 1)}; rel="next"`] : []),
    `${url(1)}; rel="first"`,
    ...(counted ? [`${url(page.last)}; rel="last"`] : []),
  ];
  return {
    body: page.items,
    headers: {
      link: links.join(', '),
      'x-page': String(page.page),
      'x-per-page': String(page.perPage),
      'x-next-page': hasNext ? String(page.page + 1) : '',
      'x-prev-page': page.page > 1 ? String(page.page - 1) : '',
      ...(counted ? { 'x-total': String(page.total), 'x-total-pages': String(page.last) } : {}),
    },
  };
}

/**
 * One keyset page (`pagination=keyset`) of `items` ordered by numeric `id`: `order_by` must be
 * "id" (else 405 as GitLab), `sort` asc (default) or desc, the cursor `id_after` / `id_before`,
 * `per_page` (default 20, max 100). Only header: `Link` with rel="next" (its URL carries the
 * cursor), present while more records follow. No totals, no page numbers.
 */
export function keysetPage<T extends { id: number }>(
  req: FakeRequest,
  items: T[],
  o: PagingOptions,
): FakeReply & { body: T[] } {
  if ((req.query.get('order_by') ?? 'id') !== 'id')
    throw new Reply(glInvalid('Keyset pagination is not yet available for this type of request', 405));
  const desc = req.query.get('sort') === 'desc';
  const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 20) || 20));
  const after = req.query.get('id_after');
  const before = req.query.get('id_before');
  const sorted = [...items].sort((a, b) => (desc ? b.id - a.id : a.id - b.id));
  const window = sorted.filter(
    (x) => (after === null || x.id > Number(after)) && (before === null || x.id < Number(before)),
  );
  const slice = window.slice(0, perPage);
  const last = slice.at(-1);
  const headers: Record<string, string> = {};
  if (last && window.length > perPage) {
    const q = new URLSearchParams(req.rawQuery);
    q.delete('id_after');
    q.delete('id_before');
    q.set(desc ? 'id_before' : 'id_after', String(last.id));
    headers.link = `<${o.origin}${req.rawPath}?${q.toString()}>; rel="next"`;
  }
  return { body: slice, headers };
}
