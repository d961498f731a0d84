/**
 * The bounded directory walker every recursive tool shares (directory_tree, search_files,
 * search_file_contents, resources/list).
 *
 * - Iterative pre-order depth-first walk with `fs.opendir`; each directory's entries are sorted by
 *   name (UTF-16 code units), so the order is deterministic and a position in it (the relative path
 *   of the last entry handed out) is a stable resume point for cursors.
 * - Budgets: depth (`maxDepth`), wall time (`deadline`, after which the walk ends flagged
 *   `timedOut`), cancellation (`signal`). Entry budgets are the consumer's: it stops pulling.
 * - Yields to the event loop every few milliseconds, so one long walk never starves other calls.
 * - Never opens anything: entry kinds come from the directory entry (FIFOs and devices are reported
 *   as `other`, never opened). Symlinks are realpath'd; a link whose target is outside the allowed
 *   directories, dangling or looping is skipped and counted; a link inside is reported as
 *   `symlink` with its target's kind and is never descended into (no cycles, no duplicates).
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface WalkEntry {
  /** Path relative to the walk's start, `/`-separated; never empty. */
  rel: string;
  name: string;
  /** Real absolute path: of the entry itself, or for a symlink, of its target (inside the roots). */
  real: string;
  kind: EntryKind;
  /** For `symlink`: the kind of its target. */
  target?: 'file' | 'directory' | 'other';
  /** 1 for the start directory's children. */
  depth: number;
  /** A directory at `maxDepth`: reported but not descended into. */
  depthLimited?: boolean;
}

export interface WalkOptions {
  /** Containment of real paths (AllowedRoots.containsReal). */
  contains(real: string): boolean;
  /** Deepest entry depth reported (1 = only the start's children). Default: unlimited. */
  maxDepth?: number;
  /** performance.now() value after which the walk stops with `timedOut`. */
  deadline?: number;
  signal?: AbortSignal;
  /** Resume point: the walk skips every entry up to and including `after` (its descendants follow). */
  after?: string;
  /** With `after`: resume AT `after` (report it again) instead of after it. */
  inclusive?: boolean;
  /** True: skip the entry and, for a directory, everything below it (not counted as visited). */
  prune?(entry: WalkEntry): boolean;
  /** Called before a directory's children are reported (rel '' is the start), e.g. to load .gitignore. */
  enterDirectory?(rel: string, real: string): Promise<void> | void;
}

export interface WalkStats {
  /** Entries handed to the consumer. */
  visited: number;
  /** The walk ended because the deadline passed; what was handed out is a partial result. */
  timedOut: boolean;
  /** The signal aborted the walk. */
  aborted: boolean;
  /** Symlinks skipped because their target is outside the allowed directories, dangling or looping. */
  skippedLinks: number;
  /** Directories that could not be read (permissions, vanished). */
  unreadable: number;
  /** Directories reported but not descended into because of maxDepth. */
  depthLimited: number;
  /** True once every entry has been handed out. */
  complete: boolean;
  /** Relative path of the last entry handed out: resuming `after` it continues this walk. */
  last?: string;
}

/** Order of names within a directory: plain UTF-16 code-unit order (locale-independent, stable). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Milliseconds of work between yields to the event loop. */
const SLICE_MS = 8;

interface RawEntry {
  name: string;
  dirent: Dirent;
}

interface Frame {
  rel: string;
  real: string;
  depth: number;
  entries: RawEntry[];
  index: number;
  /** This directory lies on the path to `after`: children before the resume point are skipped. */
  resuming: boolean;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A walk over `startReal` (an existing directory, already contained). Pull entries with
 * `for await (const e of walker)`; stop pulling to end it. `stats` is final once the loop ends.
 */
export class Walker implements AsyncIterable<WalkEntry> {
  readonly stats: WalkStats = {
    visited: 0,
    timedOut: false,
    aborted: false,
    skippedLinks: 0,
    unreadable: 0,
    depthLimited: 0,
    complete: false,
  };
  #stack: Frame[] = [];
  #lastYield = performance.now();
  readonly #afterSegments: string[];

  constructor(
    readonly startReal: string,
    readonly options: WalkOptions,
  ) {
    this.#afterSegments = options.after ? options.after.split('/') : [];
  }

  /** Entries after the current position in directories already read (before pruning): an estimate of what is left. */
  pendingCount(): number {
    let n = 0;
    for (const frame of this.#stack) n += frame.entries.length - frame.index;
    return n;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WalkEntry, void> {
    const { maxDepth = Number.POSITIVE_INFINITY } = this.options;
    await this.options.enterDirectory?.('', this.startReal);
    const root = await this.#readDir('', this.startReal, 0, this.#afterSegments.length > 0);
    if (!root) return;
    this.#stack.push(root);
    while (this.#stack.length > 0) {
      if (await this.#mustStop()) return;
      const frame = this.#stack[this.#stack.length - 1] as Frame;
      const raw = frame.entries[frame.index++];
      if (!raw) {
        this.#stack.pop();
        continue;
      }
      const rel = frame.rel ? `${frame.rel}/${raw.name}` : raw.name;
      const depth = frame.depth + 1;
      // Resume handling: skip what an earlier page already handed out.
      let report = true;
      let descendResuming = false;
      if (frame.resuming) {
        const target = this.#afterSegments[frame.depth] as string;
        const order = compareNames(raw.name, target);
        if (order < 0) continue;
        if (order === 0) {
          const isLast = depth === this.#afterSegments.length;
          report = isLast && this.options.inclusive === true;
          descendResuming = !isLast;
        } else {
          frame.resuming = false; // past the resume point: everything from here on is new
        }
      }
      const entry = await this.#describe(raw, rel, frame.real, depth);
      if (!entry) continue;
      if (entry.kind === 'directory' && depth >= maxDepth) entry.depthLimited = true;
      if (this.options.prune?.(entry)) continue;
      if (report) {
        this.stats.visited++;
        this.stats.last = entry.rel;
        if (entry.depthLimited) this.stats.depthLimited++;
        yield entry;
      }
      if (entry.kind === 'directory' && !entry.depthLimited) {
        await this.options.enterDirectory?.(entry.rel, entry.real);
        const child = await this.#readDir(entry.rel, entry.real, depth, descendResuming);
        if (child) this.#stack.push(child);
      }
    }
    this.stats.complete = true;
  }

  async #mustStop(): Promise<boolean> {
    if (this.options.signal?.aborted) {
      this.stats.aborted = true;
      return true;
    }
    const now = performance.now();
    if (this.options.deadline !== undefined && now > this.options.deadline) {
      this.stats.timedOut = true;
      return true;
    }
    if (now - this.#lastYield > SLICE_MS) {
      await yieldToLoop();
      this.#lastYield = performance.now();
    }
    return false;
  }

  async #readDir(rel: string, real: string, depth: number, resuming: boolean): Promise<Frame | undefined> {
    const entries: RawEntry[] = [];
    try {
      const dir = await fs.opendir(real, { bufferSize: 256 });
      for await (const dirent of dir) {
        entries.push({ name: dirent.name, dirent });
        if (entries.length % 1024 === 0 && (await this.#mustStop())) break;
      }
      // A directory swapped for a symlink while it was read must not leak names from elsewhere.
      if ((await fs.realpath(real)) !== real) throw new Error('directory changed while it was read');
    } catch {
      this.stats.unreadable++;
      return undefined;
    }
    entries.sort((a, b) => compareNames(a.name, b.name));
    return { rel, real, depth, entries, index: 0, resuming };
  }

  async #describe(
    raw: RawEntry,
    rel: string,
    parentReal: string,
    depth: number,
  ): Promise<WalkEntry | undefined> {
    const real = path.join(parentReal, raw.name);
    const base = { rel, name: raw.name, depth };
    let d: Pick<Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink'> = raw.dirent;
    const known =
      d.isFile() ||
      d.isDirectory() ||
      d.isSymbolicLink() ||
      raw.dirent.isFIFO() ||
      raw.dirent.isSocket() ||
      raw.dirent.isBlockDevice() ||
      raw.dirent.isCharacterDevice();
    if (!known) {
      // DT_UNKNOWN on some filesystems: ask lstat (never stat: links must not be followed here).
      try {
        d = await fs.lstat(real);
      } catch {
        return undefined;
      }
    }
    if (d.isDirectory()) return { ...base, real, kind: 'directory' };
    if (d.isFile()) return { ...base, real, kind: 'file' };
    if (!d.isSymbolicLink()) return { ...base, real, kind: 'other' };
    let target: string;
    try {
      target = await fs.realpath(real);
    } catch {
      this.stats.skippedLinks++; // dangling or looping
      return undefined;
    }
    if (!this.options.contains(target)) {
      this.stats.skippedLinks++;
      return undefined;
    }
    try {
      const st = await fs.stat(target);
      const kind = st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
      return { ...base, real: target, kind: 'symlink', target: kind };
    } catch {
      this.stats.skippedLinks++;
      return undefined;
    }
  }
}
