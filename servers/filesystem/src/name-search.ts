/**
 * search_files' domain: entries below a directory whose relative path matches a name pattern
 * (see globs.namePattern), one bounded page at a time.
 */
import { type EntryKind, Walker, type WalkOptions } from './walk.js';

export interface NameMatch {
  rel: string;
  type: EntryKind;
  target?: 'file' | 'directory' | 'other';
}

export interface NameSearchOptions
  extends Pick<WalkOptions, 'contains' | 'deadline' | 'signal' | 'after' | 'onProgress'> {
  matches(rel: string, name: string): boolean;
  exclude(rel: string): boolean;
  maxResults: number;
  /** Budget of the page's text (one path per line, `prefixBytes` each plus the relative path). */
  maxBytes: number;
  prefixBytes: number;
}

export interface NameSearchPage {
  matches: NameMatch[];
  /** Entries examined on this page. */
  scanned: number;
  /** Resume point: the last entry examined. */
  last?: string;
  stoppedBy?: 'results' | 'bytes' | 'time' | 'cancelled';
  skippedLinks: number;
  unreadable: number;
  /** Directories at {@link MAX_SEARCH_DEPTH} whose contents were not searched. */
  depthLimited: number;
}

/** Walk depth limit of a name search: deep enough for any real tree, a stop for pathological ones. */
export const MAX_SEARCH_DEPTH = 128;

export async function searchNames(startReal: string, opts: NameSearchOptions): Promise<NameSearchPage> {
  const walker = new Walker(startReal, {
    contains: opts.contains,
    maxDepth: MAX_SEARCH_DEPTH,
    ...(opts.deadline !== undefined ? { deadline: opts.deadline } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.after ? { after: opts.after } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    prune: (e) => opts.exclude(e.rel),
  });
  const matches: NameMatch[] = [];
  let scanned = 0;
  let bytes = 0;
  let last: string | undefined;
  let stoppedBy: NameSearchPage['stoppedBy'];
  await walker.each((e) => {
    if (opts.matches(e.rel, e.name)) {
      if (matches.length >= opts.maxResults) {
        // A match beyond the page: more exist. `last` stays before it, so the next page starts with it.
        stoppedBy = 'results';
        return false;
      }
      const cost = opts.prefixBytes + Buffer.byteLength(e.rel) + 2;
      if (matches.length > 0 && bytes + cost > opts.maxBytes) {
        stoppedBy = 'bytes';
        return false; // `last` stays before this entry: the next page starts with it
      }
      matches.push({ rel: e.rel, type: e.kind, ...(e.target ? { target: e.target } : {}) });
      bytes += cost;
    }
    scanned++;
    last = e.rel;
    return true;
  });
  if (!stoppedBy && walker.stats.timedOut) stoppedBy = 'time';
  if (!stoppedBy && walker.stats.aborted) stoppedBy = 'cancelled';
  return {
    matches,
    scanned,
    ...(last !== undefined ? { last } : {}),
    ...(stoppedBy ? { stoppedBy } : {}),
    skippedLinks: walker.stats.skippedLinks,
    unreadable: walker.stats.unreadable,
    depthLimited: walker.stats.depthLimited,
  };
}
