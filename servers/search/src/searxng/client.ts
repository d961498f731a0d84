/**
 * A SearXNG (or searx) instance's JSON API: `GET /search?q=…&format=json&pageno=N` (docs.searxng.org
 * "Search API"; the instance must list `json` in `search.formats`). SearXNG pages are whatever its
 * engines return per page, so {@link SearXNG.window} fetches the pages that cover results
 * [start, start + count) and says whether more exist. Through the shared HttpClient (timeouts,
 * retries, the --search-interval pacing, errors summarised).
 */
import { HttpClient, HttpError, type HttpPolicy, ToolError } from '@refmcp/shared';

export interface SearxngOptions {
  baseUrl: URL;
  userAgent: string;
  policy: HttpPolicy;
  maxResponseBytes: number;
}

/** The parameters SearXNG's /search takes besides q, format and pageno. */
export interface SearxngQuery {
  categories?: string;
  language?: string;
  /** 0 none, 1 moderate, 2 strict. */
  safesearch?: 0 | 1 | 2;
  time_range?: 'day' | 'week' | 'month' | 'year';
}

/** An engine the instance asked that answered nothing usable, and the instance's reason. */
export interface FailedEngine {
  engine: string;
  /** As the instance words it: "CAPTCHA required", "HTTP error", "HTTP timeout", "too many requests", … */
  reason: string;
}

/** One page of SearXNG's JSON answer, read leniently. */
export interface SearxngPage {
  results: Record<string, unknown>[];
  numberOfResults: number;
  /** The answer's `unresponsive_engines` ([name, reason] pairs; SearXNG and searx alike). */
  failed: FailedEngine[];
}

/** Results [start, start + count), whether any follow, and the engines that failed on any page read. */
export interface SearxngWindow {
  results: Record<string, unknown>[];
  hasMore: boolean;
  failed: FailedEngine[];
}

/** At most this many failed engines are reported (an instance may ask dozens). */
const MAX_FAILED = 20;

/**
 * `unresponsive_engines` read leniently: `[[name, reason], …]` (searx, SearXNG) or objects with
 * `engine`/`name` and `error`/`reason`; anything else is skipped.
 */
export function failedEngines(value: unknown): FailedEngine[] {
  if (!Array.isArray(value)) return [];
  const out: FailedEngine[] = [];
  for (const entry of value.slice(0, MAX_FAILED)) {
    const o = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
    const [engine, reason] = Array.isArray(entry)
      ? [entry[0], entry[1]]
      : [o.engine ?? o.name, o.error ?? o.reason];
    if (typeof engine === 'string' && engine)
      out.push({ engine, reason: typeof reason === 'string' && reason ? reason : 'no reason given' });
  }
  return out;
}

const MAX_PAGES = 4;

export class SearXNG {
  private readonly http: HttpClient;

  constructor(readonly options: SearxngOptions) {
    this.http = new HttpClient({
      service: 'SearXNG',
      baseUrl: options.baseUrl,
      userAgent: options.userAgent,
      policy: options.policy,
      maxResponseBytes: options.maxResponseBytes,
    });
  }

  /** One page (1-based). Errors: HttpError (403 explained: the JSON format is not enabled). */
  async page(q: string, pageno: number, params: SearxngQuery, signal: AbortSignal): Promise<SearxngPage> {
    let data: unknown;
    try {
      data = (
        await this.http.request({ path: '/search', query: { q, format: 'json', pageno, ...params }, signal })
      ).data;
    } catch (error) {
      if (error instanceof HttpError && error.status === 403)
        throw new HttpError(
          `${error.message} SearXNG answers 403 when the instance does not allow format=json: add json to search.formats in its settings.yml.`,
          403,
        );
      throw error;
    }
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new ToolError(
        `SearXNG at ${this.options.baseUrl.href} did not answer JSON; is SEARXNG_URL the instance's base URL?`,
      );
    const body = data as Record<string, unknown>;
    const results = Array.isArray(body.results)
      ? body.results.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object')
      : [];
    return {
      results,
      numberOfResults: typeof body.number_of_results === 'number' ? body.number_of_results : 0,
      failed: failedEngines(body.unresponsive_engines),
    };
  }

  /**
   * Results [start, start + count): page 1 tells the instance's page size, later pages are fetched
   * as needed (at most 4 requests). `hasMore` when a result past the window was seen, or the last
   * page read was full. `failed`: the engines any page read reported unresponsive (first reason kept).
   */
  async window(
    q: string,
    start: number,
    count: number,
    params: SearxngQuery,
    signal: AbortSignal,
  ): Promise<SearxngWindow> {
    const first = await this.page(q, 1, params, signal);
    const failed = new Map(first.failed.map((f) => [f.engine, f]));
    const size = first.results.length;
    if (!size) return { results: [], hasMore: false, failed: [...failed.values()] };
    const seen: Record<string, unknown>[] = [];
    const firstPage = Math.floor(start / size) + 1;
    const lastPage = Math.min(Math.floor((start + count) / size) + 1, firstPage + MAX_PAGES - 1);
    let lastFull = false;
    for (let p = firstPage; p <= lastPage; p++) {
      const page = p === 1 ? first : await this.page(q, p, params, signal);
      for (const f of page.failed) if (!failed.has(f.engine)) failed.set(f.engine, f);
      seen.push(...page.results);
      lastFull = page.results.length >= size;
      if (!lastFull) break;
    }
    const from = start - (firstPage - 1) * size;
    const results = seen.slice(from, from + count);
    const hasMore = seen.length > from + count || (lastFull && seen.length >= from + count);
    return { results, hasMore, failed: [...failed.values()].slice(0, MAX_FAILED) };
  }
}
