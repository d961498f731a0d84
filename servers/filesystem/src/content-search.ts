/**
 * search_file_contents' domain: walk (or take one file), skip what should not be searched
 * (.gitignore'd, excluded, not included, binary, too large, non-regular), match lines, and fill one
 * bounded page of matches. A page can stop inside a file; the resume point then names the file
 * and how many of its matches were already returned.
 */
import path from 'node:path';
import { type AllowedRoots, type ReadOpened, type ResolvedPath, readInside } from '@refmcp/shared/paths';
import { buildMatches, type GrepMatch, looksBinary, splitLines } from './grep.js';
import type { GitignoreRules } from './ignore-rules.js';
import type { LineMatcher } from './line-matcher.js';
import { MAX_SEARCH_DEPTH } from './name-search.js';
import { type WalkEntry, Walker } from './walk.js';

export interface ResumePoint {
  /** Relative path (from the search directory) of the file to resume at or after. */
  file: string;
  /** Matches of `file` already returned; 0 with `inclusive: false` means "after this file". */
  skip: number;
  inclusive: boolean;
}

export interface ContentSearchOptions {
  roots: AllowedRoots;
  /** The resolved, existing search path (file or directory). */
  start: ResolvedPath;
  startIsFile: boolean;
  matcher: LineMatcher;
  include(rel: string): boolean;
  exclude(rel: string): boolean;
  gitignore?: GitignoreRules;
  contextLines: number;
  maxResults: number;
  maxPerFile: number;
  /** Budget of the rendered page text, in bytes. */
  maxBytes: number;
  /** Files larger than this are skipped (counted). */
  maxFileBytes: number;
  deadline: number;
  signal?: AbortSignal;
  resume?: ResumePoint;
  /** Entries walked so far, once per batch (progress notifications). */
  onProgress?(walked: number): void;
  /** The text of a binary file that is a document (PDF, Office), or undefined; absent: binaries are skipped. */
  documentText?: (bytes: Buffer, name: string) => Promise<string | undefined>;
}

export interface FileResult {
  rel: string;
  /** The file's path as shown to the model. */
  path: string;
  matches: GrepMatch[];
  /** The file has more matches than the per-file cap allows (only its first maxPerFile are ever returned). */
  capped: boolean;
}

export interface ContentSearchPage {
  files: FileResult[];
  matchCount: number;
  filesSearched: number;
  skippedBinary: number;
  skippedLarge: number;
  skippedUnreadable: number;
  skippedLinks: number;
  /** Directories at {@link MAX_SEARCH_DEPTH} whose contents were not searched. */
  depthLimited: number;
  /** Files whose regex evaluation ran out of time (skipped; the pattern may backtrack catastrophically). */
  regexTimedOut: string[];
  stoppedBy?: 'results' | 'bytes' | 'time' | 'cancelled';
  /** Where the next page starts (set exactly when stoppedBy is). */
  next?: ResumePoint;
}

/** Rough bytes a match adds to the rendered page. */
function matchCost(m: GrepMatch): number {
  let n = m.text.length + 12;
  for (const l of m.before) n += l.length + 12;
  for (const l of m.after) n += l.length + 12;
  if (m.lineTruncated) n += 200; // the "line cut" note
  return n;
}

interface Candidate {
  rel: string;
  real: string;
  /** The path shown to the model (the search path's spelling + rel). */
  display: string;
}

async function readCandidate(
  roots: AllowedRoots,
  c: Candidate,
  maxFileBytes: number,
  documentText?: ContentSearchOptions['documentText'],
): Promise<{ text: string } | 'binary' | 'large' | 'unreadable'> {
  // readInside pins the file (Linux: O_PATH, real path checked, reopened through /proc/self/fd), so a
  // directory swapped for a symlink meanwhile cannot make it read — or even open — anything outside.
  let opened: ReadOpened;
  try {
    opened = await readInside(roots, c.real, maxFileBytes);
  } catch {
    return 'unreadable';
  }
  if (!opened.bytes) {
    opened.handle.close().catch(() => {});
    return 'large';
  }
  if (looksBinary(opened.bytes)) {
    if (!documentText) return 'binary';
    const text = await documentText(opened.bytes, c.real).catch(() => null);
    return text === null ? 'unreadable' : text === undefined ? 'binary' : { text };
  }
  return { text: opened.bytes.toString('utf8') };
}

async function* candidates(
  opts: ContentSearchOptions,
  walkerOut: { walker?: Walker },
): AsyncGenerator<Candidate> {
  if (opts.startIsFile) {
    const rel = path.basename(opts.start.absolute);
    if (!opts.resume || (opts.resume.inclusive && opts.resume.file === rel))
      yield { rel, real: opts.start.real, display: opts.start.absolute };
    return;
  }
  const walker = new Walker(opts.start.real, {
    contains: (real) => opts.roots.containsReal(real),
    maxDepth: MAX_SEARCH_DEPTH,
    deadline: opts.deadline,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(opts.resume ? { after: opts.resume.file, inclusive: opts.resume.inclusive } : {}),
    prune: (e: WalkEntry) => opts.exclude(e.rel) || (opts.gitignore?.ignores(e) ?? false),
    ...(opts.gitignore
      ? { enterDirectory: (rel: string, real: string, at: string) => opts.gitignore?.enter(rel, real, at) }
      : {}),
  });
  walkerOut.walker = walker;
  for await (const e of walker) {
    const isFile = e.kind === 'file' || (e.kind === 'symlink' && e.target === 'file');
    if (isFile && opts.include(e.rel))
      yield { rel: e.rel, real: e.real, display: path.join(opts.start.absolute, e.rel) };
  }
}

export async function searchContents(opts: ContentSearchOptions): Promise<ContentSearchPage> {
  const page: ContentSearchPage = {
    files: [],
    matchCount: 0,
    filesSearched: 0,
    skippedBinary: 0,
    skippedLarge: 0,
    skippedUnreadable: 0,
    skippedLinks: 0,
    depthLimited: 0,
    regexTimedOut: [],
  };
  let bytes = 0;
  const holder: { walker?: Walker } = {};
  const stop = (why: NonNullable<ContentSearchPage['stoppedBy']>, next: ResumePoint) => {
    page.stoppedBy = why;
    page.next = next;
  };
  let lastFile: string | undefined;
  for await (const c of candidates(opts, holder)) {
    if (opts.signal?.aborted) {
      stop('cancelled', { file: c.rel, skip: 0, inclusive: true });
      break;
    }
    if (performance.now() > opts.deadline) {
      stop('time', { file: c.rel, skip: 0, inclusive: true });
      break;
    }
    const skip = opts.resume?.inclusive && opts.resume.file === c.rel ? opts.resume.skip : 0;
    const read = await readCandidate(opts.roots, c, opts.maxFileBytes, opts.documentText);
    lastFile = c.rel;
    if (read === 'binary') page.skippedBinary++;
    else if (read === 'large') page.skippedLarge++;
    else if (read === 'unreadable') page.skippedUnreadable++;
    if (typeof read === 'string') continue;
    page.filesSearched++;
    const lines = splitLines(read.text);
    const outcome = await opts.matcher.match(lines, opts.maxPerFile + 1, opts.deadline);
    if (outcome.timedOut) {
      page.regexTimedOut.push(c.rel);
      stop('time', { file: c.rel, skip: 0, inclusive: false });
      break;
    }
    const capped = outcome.hits.length > opts.maxPerFile;
    const wanted = buildMatches(lines, outcome.hits.slice(skip, opts.maxPerFile), opts.contextLines);
    const taken: GrepMatch[] = [];
    let cut: 'results' | 'bytes' | undefined;
    for (const m of wanted) {
      if (page.matchCount >= opts.maxResults) {
        cut = 'results';
        break;
      }
      const cost =
        matchCost(m) + (taken.length === 0 ? Buffer.byteLength(c.rel) + opts.start.absolute.length + 8 : 0);
      if (page.matchCount > 0 && bytes + cost > opts.maxBytes) {
        cut = 'bytes';
        break;
      }
      taken.push(m);
      page.matchCount++;
      bytes += cost;
    }
    if (taken.length > 0)
      page.files.push({ rel: c.rel, path: c.display, matches: taken, capped: capped && !cut });
    if (cut) {
      stop(cut, { file: c.rel, skip: skip + taken.length, inclusive: true });
      break;
    }
  }
  const walker = holder.walker;
  if (walker) {
    page.skippedLinks = walker.stats.skippedLinks;
    page.depthLimited = walker.stats.depthLimited;
    page.skippedUnreadable += walker.stats.unreadable;
    if (!page.stoppedBy && (walker.stats.timedOut || walker.stats.aborted)) {
      // Resume after the last entry the walk examined (every one up to it was handled).
      const after = walker.stats.last ?? lastFile;
      const position: ResumePoint = after
        ? { file: after, skip: 0, inclusive: false }
        : (opts.resume ?? { file: '', skip: 0, inclusive: false });
      stop(walker.stats.timedOut ? 'time' : 'cancelled', position);
    }
  }
  return page;
}
