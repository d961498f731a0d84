/**
 * Link-header pagination (RFC 8288 §3, as GitHub and GitLab send it): `<url>; rel="next",
 * <url>; rel="last"`. Page-numbered lists read the `page` parameter of rel="next"/"last"/"prev";
 * keyset lists (GitLab `pagination=keyset`, GitHub's cursor-paged endpoints) continue with the
 * query parameters of rel="next", which are opaque and carried in a cursor (see cursor.ts).
 */
import type { PageInfo } from '../server/pages.js';

/** The targets of a Link header by relation type (lower-case), e.g. { next: URL, last: URL }. */
export type LinkRels = Partial<Record<string, URL>>;

// One link-value: `<target>` then `; param` pairs, up to the next comma outside quotes.
const LINK_VALUE = /<([^>]*)>((?:\s*;\s*[^;,"=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,]*))?)*)/g;
const REL_PARAM = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i;

/**
 * Parses a Link header into its targets by relation. A `rel` naming several relations
 * (`rel="next last"`) maps each; the first link of a relation wins. Relative targets are resolved
 * against `base` (the request URL) and skipped without one; malformed targets are skipped. Never
 * throws; an absent header gives {}.
 */
export function parseLinkHeader(link: string | null | undefined, base?: URL | string): LinkRels {
  const rels: LinkRels = {};
  for (const match of (link ?? '').matchAll(LINK_VALUE)) {
    const rel = REL_PARAM.exec(match[2] ?? '');
    const names = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    let url: URL;
    try {
      url = new URL(match[1] ?? '', base);
    } catch {
      continue;
    }
    for (const name of names) rels[name] ??= url;
  }
  return rels;
}

/** The positive integer `page` parameter of `url`, or undefined. */
export function pageNumberOf(url: URL | undefined, param = 'page'): number | undefined {
  const raw = url?.searchParams.get(param);
  const n = raw ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * Pagination facts of a page-numbered list from its Link header: `hasMore` when rel="next"
 * exists, `nextPage`/`lastPage` from their `page` parameters. `page`/`perPage` are what was asked.
 */
export function linkPageInfo(link: string | null | undefined, page: number, perPage: number): PageInfo {
  const rels = parseLinkHeader(link);
  const next = pageNumberOf(rels.next);
  const last = pageNumberOf(rels.last);
  return {
    page,
    perPage,
    hasMore: next !== undefined,
    ...(next ? { nextPage: next } : {}),
    ...(last ? { lastPage: last } : {}),
  };
}

/**
 * The query parameters of rel="next" of a keyset-paginated list (GitLab: `cursor`, `id_after`,
 * `order_by`, `pagination=keyset`, …), to send again on the same path — or undefined when there is
 * no next page. A next link to another origin or path is refused (undefined), so a cursor can never
 * carry the client to a URL the server did not build.
 */
export function keysetNext(
  link: string | null | undefined,
  requestUrl: URL,
): Record<string, string> | undefined {
  const next = parseLinkHeader(link, requestUrl).next;
  if (!next || next.origin !== requestUrl.origin || next.pathname !== requestUrl.pathname) return undefined;
  return Object.fromEntries(next.searchParams);
}
