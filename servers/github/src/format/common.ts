/**
 * Shapes shared by tool results: pagination facts (ALL-05, GH-06) and small helpers for the
 * compact text renderings.
 */
import { z } from '@refmcp/shared/schema';
import type { PageInfo } from '../github/client.js';

/**
 * An integer in an output schema, without zod's ±2^53 bounds (noise that costs every host ~60
 * bytes of tools/list per field; `undefined` meta values are dropped when serialised).
 */
export const count = () => z.number().int().meta({ minimum: undefined, maximum: undefined });

/** Pagination fields of every list result. */
export const pageShape = {
  page: count().describe('The page returned'),
  perPage: count().describe('Items per page asked for'),
  hasMore: z.boolean().describe('True when another page exists (from the Link header)'),
  nextPage: count().optional().describe('Pass as page to get the next page'),
  lastPage: count().optional().describe('Number of the last page, when GitHub says'),
};

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

/** "issues" → "issue", "entries" → "entry", "matches" → "match", "pull requests" → "pull request". */
export function singular(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ch|sh|x)es$/.test(plural)) return plural.slice(0, -2);
  return plural.replace(/s$/, '');
}

/** The login of a GitHub user object, or null. */
export function login(user: unknown): string | null {
  const l = (user as { login?: unknown } | null | undefined)?.login;
  return typeof l === 'string' ? l : null;
}

/** "@login" or "@ghost" for display. */
export function at(name: string | null | undefined): string {
  return `@${name ?? 'ghost'}`;
}

/** Drops undefined values (structuredContent must match the output schema exactly). */
export function compact<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}
