// Paging helpers of the fake-API toolkit, one per style vendors page in: numbered pages with a
// Link header (GitHub, GitLab), opaque cursor tokens (Slack `response_metadata.next_cursor`,
// Google Drive `nextPageToken`) and offset/limit windows (Brave `offset`/`count`). Each takes the
// full list and answers one page; the vendor's route puts the page in its own body shape.
import { type FakeReply, Reply } from './reply.js';
import type { FakeRequest } from './server.js';

/** Options of {@link linkPage}; the defaults are GitHub's. */
export interface LinkPageOptions {
  /** Origin the Link URLs start with (the fake's `http://127.0.0.1:<port>`). */
  origin: string;
  /** Query parameter of the page number (1-based); default "page". */
  pageParam?: string;
  /** Query parameter of the page size; default "per_page". */
  perPageParam?: string;
  /** Page size when the request names none or a bad one; default 30 (GitLab: 20). */
  defaultPerPage?: number;
  /** Largest page size honoured; default 100. */
  maxPerPage?: number;
}

/** One numbered page and the headers that describe it. */
export interface LinkPage<T> {
  items: T[];
  /** 1-based page number served, page size, last page number (≥ 1) and the total item count. */
  page: number;
  perPage: number;
  last: number;
  total: number;
  /** `link` with rel prev/next/last/first as GitHub sends them (absent when there is one page). */
  headers: Record<string, string>;
}

/**
 * Page `items` by the request's page number and size and build a Link header whose URLs repeat
 * the request's own query with `page`/`per_page` set (as GitHub and GitLab do): rel="prev" and
 * rel="first" after page 1, rel="next" and rel="last" before the last page. A page past the last
 * is empty. GitLab's `x-total`/`x-next-page` headers can be added from the returned numbers.
 */
export function linkPage<T>(req: FakeRequest, items: T[], options: LinkPageOptions): LinkPage<T> {
  const pageParam = options.pageParam ?? 'page';
  const perPageParam = options.perPageParam ?? 'per_page';
  const fallback = options.defaultPerPage ?? 30;
  const perPage = Math.min(
    options.maxPerPage ?? 100,
    Math.max(1, Number(req.query.get(perPageParam) ?? fallback) || fallback),
  );
  const page = Math.max(1, Number(req.query.get(pageParam) ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const url = (n: number) => {
    const q = new URLSearchParams(req.rawQuery);
    q.set(pageParam, String(n));
    q.set(perPageParam, String(perPage));
    return `<${options.origin}${req.rawPath}?${q.toString()}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${url(page - 1)}; rel="prev"`);
  if (page < last) links.push(`${url(page + 1)}; rel="next"`, `${url(last)}; rel="last"`);
  if (page > 1) links.push(`${url(1)}; rel="first"`);
  return {
    items: slice,
    page,
    perPage,
    last,
    total: items.length,
    headers: links.length ? { link: links.join(', ') } : {},
  };
}

/** Options of {@link cursorPage}. */
export interface CursorPageOptions {
  /** The token the request carried (Slack `cursor`, Drive `pageToken`); undefined/"" for the first page. */
  cursor: string | undefined;
  /** Page size asked for; undefined → `defaultLimit`. */
  limit: number | undefined;
  /** Default page size (Slack 100, Drive 100). */
  defaultLimit: number;
  /** Largest page size honoured (Slack 1000, Drive 1000); default no cap. */
  maxLimit?: number;
  /** The vendor's reply to a token it never issued (Slack `{ok:false,error:"invalid_cursor"}`), thrown as a Reply. */
  invalid: () => FakeReply;
}

/** One cursor page: the items and the token of the next page (undefined on the last page). */
export interface CursorPage<T> {
  items: T[];
  next: string | undefined;
}

const CURSOR_PREFIX = 'fake-cursor:';

/**
 * Page `items` by an opaque token: the token is the next offset, base64url-encoded with a marker so
 * that a client which builds or edits tokens gets the vendor's invalid-cursor reply (thrown as a
 * {@link Reply}) instead of a page. `next` is undefined on the last page; Slack then sends
 * `next_cursor: ""`, Drive leaves `nextPageToken` out.
 */
export function cursorPage<T>(items: T[], options: CursorPageOptions): CursorPage<T> {
  let offset = 0;
  if (options.cursor) {
    const decoded = Buffer.from(options.cursor, 'base64url').toString('utf8');
    const n = decoded.startsWith(CURSOR_PREFIX) ? Number(decoded.slice(CURSOR_PREFIX.length)) : Number.NaN;
    if (!Number.isInteger(n) || n < 0 || n > items.length) throw new Reply(options.invalid());
    offset = n;
  }
  const asked = options.limit && options.limit > 0 ? options.limit : options.defaultLimit;
  const limit = Math.min(asked, options.maxLimit ?? asked);
  const end = offset + limit;
  return {
    items: items.slice(offset, end),
    next:
      end < items.length ? Buffer.from(`${CURSOR_PREFIX}${end}`, 'utf8').toString('base64url') : undefined,
  };
}

/** One offset window: the items, the window served and whether more follow. */
export interface OffsetPage<T> {
  items: T[];
  offset: number;
  limit: number;
  total: number;
  /** True when items remain after this window (Brave `query.more_results_available`). */
  more: boolean;
}

/**
 * The window `[offset, offset + limit)` of `items` (negative or non-numeric offsets → 0, limit
 * clamped to 1..`maxLimit`). Vendors counting offsets in pages (Brave: `offset` × `count`) pass
 * the item offset they mean.
 */
export function offsetPage<T>(items: T[], offset: number, limit: number, maxLimit = Infinity): OffsetPage<T> {
  const start = Number.isFinite(offset) && offset > 0 ? Math.floor(offset) : 0;
  const size = Math.min(maxLimit, Math.max(1, Number.isFinite(limit) ? Math.floor(limit) : 1));
  return {
    items: items.slice(start, start + size),
    offset: start,
    limit: size,
    total: items.length,
    more: start + size < items.length,
  };
}
