/**
 * The page fields and the page line of page-numbered list results (ALL-05, GH-06): what every
 * paginated tool of an API server puts in structuredContent and says in its text, so a model reads
 * pagination the same way from every server.
 */
import { z } from '../schema.js';

/** Pagination facts of one page of a page-numbered list. */
export interface PageInfo {
  /** The page returned, from 1. */
  page: number;
  /** Items per page asked for. */
  perPage: number;
  /** True when another page exists. */
  hasMore: boolean;
  nextPage?: number;
  lastPage?: number;
}

/** One page of items and its pagination facts. */
export interface Page<T> {
  items: T[];
  info: PageInfo;
}

/**
 * An integer in an output schema, without zod's ±2^53 bounds (noise that costs every host ~60
 * bytes of tools/list per field; `undefined` meta values are dropped when serialised).
 */
export const count = () => z.number().int().meta({ minimum: undefined, maximum: undefined });

/**
 * Pagination fields of every list result's output schema. `service` names the upstream in the
 * lastPage description ("GitHub" → "Number of the last page, when GitHub says").
 */
export function pageShapeFor(service: string) {
  return {
    page: count().describe('The page returned'),
    perPage: count().describe('Items per page asked for'),
    hasMore: z.boolean().describe('True when another page exists (from the Link header)'),
    nextPage: count().optional().describe('Pass as page to get the next page'),
    lastPage: count().optional().describe(`Number of the last page, when ${service} says`),
  };
}

/** The {@link pageShapeFor} fields of `info`, without absent ones. */
export function pageFields(info: PageInfo) {
  return {
    page: info.page,
    perPage: info.perPage,
    hasMore: info.hasMore,
    ...(info.nextPage ? { nextPage: info.nextPage } : {}),
    ...(info.lastPage ? { lastPage: info.lastPage } : {}),
  };
}

/**
 * "Page 2 of 4, 30 per page. More: call again with page: 3." — `pageArg` is the tool's argument
 * name for the page ("page"); `count` is how many items this page holds.
 */
export function pageLine(info: PageInfo, count: number, what: string, pageArg = 'page'): string {
  const of = info.lastPage ? ` of ${info.lastPage}` : info.hasMore ? '' : ` of ${info.page}`;
  const head = `${count} ${count === 1 ? singular(what) : what} on page ${info.page}${of} (${info.perPage} per page).`;
  return info.hasMore
    ? `${head} More exist: call again with ${pageArg}: ${info.nextPage}.`
    : `${head} No more pages.`;
}

/** `3 matches`, `1 match`: `n` and `plural` ("matches"), made singular (see {@link singular}) when n is 1. */
export function counted(n: number, plural: string): string {
  return `${n} ${n === 1 ? singular(plural) : plural}`;
}

/** "issues" → "issue", "entries" → "entry", "matches" → "match", "pull requests" → "pull request". */
export function singular(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ch|sh|x)es$/.test(plural)) return plural.slice(0, -2);
  return plural.replace(/s$/, '');
}

/** Drops undefined values (structuredContent must match the output schema exactly). */
export function compact<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}
