// Following a cursor chain to its end, for protocol lists (ALL-05) and servers' own paged tools.

/** The pages of one walk, in order, and the cursors that led to pages 2..n. */
export interface PageWalk<P, C> {
  pages: P[];
  cursors: C[];
}

/**
 * Calls `call(undefined)`, then `call(cursor)` with each cursor `extractCursor` returns, until it
 * returns undefined (or null). A cursor is anything comparable with JSON (a string token, a page
 * number, `{ page, hasMore }`-derived values).
 * Errors: throws if a cursor repeats (the chain loops) or more than `maxPages` pages (default 1000)
 * are fetched; errors from `call` propagate.
 */
export async function followPages<P, C>(
  call: (cursor: C | undefined) => Promise<P>,
  extractCursor: (page: P) => C | undefined | null,
  opts: { maxPages?: number } = {},
): Promise<PageWalk<P, C>> {
  const maxPages = opts.maxPages ?? 1000;
  const pages: P[] = [];
  const cursors: C[] = [];
  const seen = new Set<string>();
  let cursor: C | undefined;
  for (;;) {
    if (pages.length >= maxPages) throw new Error(`pagination did not end within ${maxPages} pages`);
    const page = await call(cursor);
    pages.push(page);
    const next = extractCursor(page);
    if (next === undefined || next === null) return { pages, cursors };
    const key = JSON.stringify(next);
    if (seen.has(key)) throw new Error(`cursor ${key} repeated after page ${pages.length}: the chain loops`);
    seen.add(key);
    cursors.push(next);
    cursor = next;
  }
}

/** The keys that occur more than once in `items` (by `key(item)`), each listed once. */
export function findDuplicates<T>(items: T[], key: (item: T) => string): string[] {
  const seen = new Set<string>();
  const dups = new Set<string>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) dups.add(k);
    seen.add(k);
  }
  return [...dups];
}
