/**
 * The bounded directory walker every recursive tool shares (directory_tree, search_files,
 * search_file_contents, resources/list).
 *
 * - Iterative pre-order depth-first walk; each directory is read whole (`readdir` with file types: one
 *   thread-pool round trip) and its entries sorted by name (UTF-16 code units), so the order is
 *   deterministic and a position in it (the relative path of the last entry handed out) is a stable
 *   resume point for cursors. The directories the walk will enter next are read ahead, a few at a
 *   time ({@link READ_AHEAD}), so their I/O overlaps; the output order does not depend on it.
 * - Entries are described synchronously from their directory entry (only symlinks and DT_UNKNOWN
 *   need a syscall) and handed out in batches: `each` costs one await per batch, not per entry.
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
/** Directories read ahead of the walk (being read, or read and not entered yet), at most. */
export const READ_AHEAD = 8;
/** Entries per batch at most: budgets and the event loop are checked at least this often. */
const BATCH = 1024;

/** A directory's entries sorted by name, or undefined when it could not be read. */
type Listing = Dirent[] | undefined;

interface Frame {
  rel: string;
  real: string;
  depth: number;
  entries: Dirent[];
  index: number;
  /** This directory lies on the path to `after`: children before the resume point are skipped. */
  resuming: boolean;
  /** Next entry to consider for reading ahead (only moves forward). */
  ahead: number;
  /** Subdirectories being read ahead, by name. */
  early?: Map<string, Promise<Listing>>;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `parent/name` for an absolute, normalised parent (no path.join: names never hold "/" or ".."). */
function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/**
 * Reads the directory at `real` whole, sorted by name. Its real path is checked after the read: a directory
 * swapped for a symlink while it was read must not leak names from elsewhere. Never rejects.
 */
async function listDirectory(real: string): Promise<Listing> {
  try {
    const entries = await fs.readdir(real, { withFileTypes: true });
    if ((await fs.realpath(real)) !== real) return undefined;
    return entries.sort((a, b) => compareNames(a.name, b.name));
  } catch {
    return undefined;
  }
}

/** The entry a directory entry describes, or null when that takes a syscall (symlinks, DT_UNKNOWN). */
function describeDirent(d: Dirent, rel: string, parentReal: string, depth: number): WalkEntry | null {
  const name = d.name;
  const real = childPath(parentReal, name);
  if (d.isDirectory()) return { rel, name, real, kind: 'directory', depth };
  if (d.isFile()) return { rel, name, real, kind: 'file', depth };
  if (d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice()) {
    return { rel, name, real, kind: 'other', depth };
  }
  return null;
}

/**
 * A walk over `startReal` (an existing directory, already contained). Pull entries with
 * `for await (const e of walker)`, or hand them to a callback with `each` (cheaper); stop pulling to
 * end it. `stats` is final once the loop ends.
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
  /** Directories read ahead and not entered yet. */
  #early = 0;
  /** Entries of the current batch not handed out yet. */
  #unsent = 0;
  readonly #afterSegments: string[];
  readonly #maxDepth: number;

  constructor(
    readonly startReal: string,
    readonly options: WalkOptions,
  ) {
    this.#afterSegments = options.after ? options.after.split('/') : [];
    this.#maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  }

  /** Entries after the current position in directories already read (before pruning): an estimate of what is left. */
  pendingCount(): number {
    let n = this.#unsent;
    for (const frame of this.#stack) n += frame.entries.length - frame.index;
    return n;
  }

  /** Hands the entries to `visit` in walk order until it returns false (or the walk ends). */
  async each(visit: (entry: WalkEntry) => boolean | undefined): Promise<void> {
    for await (const batch of this.#batches()) {
      for (let i = 0; i < batch.length; i++) {
        if (this.#interrupted()) return;
        const entry = batch[i] as WalkEntry;
        this.#handOut(entry, batch.length - i - 1);
        if (visit(entry) === false) return;
      }
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WalkEntry, void> {
    for await (const batch of this.#batches()) {
      for (let i = 0; i < batch.length; i++) {
        if (this.#interrupted()) return;
        const entry = batch[i] as WalkEntry;
        this.#handOut(entry, batch.length - i - 1);
        yield entry;
      }
    }
  }

  #handOut(entry: WalkEntry, unsent: number): void {
    this.stats.visited++;
    this.stats.last = entry.rel;
    if (entry.depthLimited) this.stats.depthLimited++;
    this.#unsent = unsent;
  }

  /**
   * The walk as runs of entries in walk order. A run ends at a directory to enter (pre-order: the
   * directory is handed out before its children) or after BATCH entries.
   */
  async *#batches(): AsyncGenerator<WalkEntry[], void> {
    await this.options.enterDirectory?.('', this.startReal);
    const root = await listDirectory(this.startReal);
    if (!root) {
      this.stats.unreadable++;
      return;
    }
    this.#push('', this.startReal, 0, root, this.#afterSegments.length > 0);
    for (;;) {
      // Leave finished directories before checking budgets: a walk with nothing left is complete, not timed out.
      let frame = this.#stack[this.#stack.length - 1];
      while (frame && frame.index >= frame.entries.length) {
        this.#pop();
        frame = this.#stack[this.#stack.length - 1];
      }
      if (!frame) break;
      if (await this.#mustStop()) return;
      this.#readAhead();
      const batch: WalkEntry[] = [];
      let enter: WalkEntry | undefined;
      let enterResuming = false;
      while (frame.index < frame.entries.length && batch.length < BATCH) {
        const dirent = frame.entries[frame.index++] as Dirent;
        const depth = frame.depth + 1;
        // Resume handling: skip what an earlier page already handed out.
        let report = true;
        let resuming = false;
        if (frame.resuming) {
          const order = compareNames(dirent.name, this.#afterSegments[frame.depth] as string);
          if (order < 0) continue;
          if (order === 0) {
            const isLast = depth === this.#afterSegments.length;
            report = isLast && this.options.inclusive === true;
            resuming = !isLast;
          } else {
            frame.resuming = false; // past the resume point: everything from here on is new
          }
        }
        const rel = frame.rel ? `${frame.rel}/${dirent.name}` : dirent.name;
        const entry =
          describeDirent(dirent, rel, frame.real, depth) ??
          (await this.#describeSlow(dirent, rel, frame.real, depth));
        if (!entry) continue;
        if (entry.kind === 'directory' && depth >= this.#maxDepth) entry.depthLimited = true;
        if (this.options.prune?.(entry)) continue;
        if (report) batch.push(entry);
        if (entry.kind === 'directory' && !entry.depthLimited) {
          enter = entry;
          enterResuming = resuming;
          break;
        }
      }
      if (batch.length > 0) yield batch;
      if (enter) {
        await this.options.enterDirectory?.(enter.rel, enter.real);
        const listing = await this.#take(frame, enter);
        if (listing) this.#push(enter.rel, enter.real, enter.depth, listing, enterResuming);
        else this.stats.unreadable++;
      }
    }
    this.stats.complete = true;
  }

  #push(rel: string, real: string, depth: number, entries: Dirent[], resuming: boolean): void {
    this.#stack.push({ rel, real, depth, entries, index: 0, resuming, ahead: 0 });
  }

  #pop(): void {
    const frame = this.#stack.pop();
    this.#early -= frame?.early?.size ?? 0; // read ahead but pruned meanwhile: dropped
  }

  /** The listing of `dir` (a child of `frame`): the one read ahead if there is one, else read now. */
  #take(frame: Frame, dir: WalkEntry): Promise<Listing> {
    const early = frame.early?.get(dir.name);
    if (!early) return listDirectory(dir.real);
    frame.early?.delete(dir.name);
    this.#early--;
    return early;
  }

  /**
   * Starts reading the directories the walk will enter next, in walk order (the deepest directory's
   * next subdirectories first), while fewer than READ_AHEAD are pending.
   */
  #readAhead(): void {
    for (let f = this.#stack.length - 1; f >= 0 && this.#early < READ_AHEAD; f--) {
      const frame = this.#stack[f] as Frame;
      if (frame.resuming || frame.depth + 1 >= this.#maxDepth) continue;
      let i = Math.max(frame.ahead, frame.index);
      for (; i < frame.entries.length && this.#early < READ_AHEAD; i++) {
        const dirent = frame.entries[i] as Dirent;
        if (!dirent.isDirectory()) continue;
        const rel = frame.rel ? `${frame.rel}/${dirent.name}` : dirent.name;
        const real = childPath(frame.real, dirent.name);
        if (
          this.options.prune?.({ rel, name: dirent.name, real, kind: 'directory', depth: frame.depth + 1 })
        ) {
          continue;
        }
        frame.early ??= new Map();
        frame.early.set(dirent.name, listDirectory(real));
        this.#early++;
      }
      frame.ahead = i;
    }
  }

  #interrupted(): boolean {
    if (this.options.signal?.aborted) {
      this.stats.aborted = true;
      return true;
    }
    if (this.options.deadline !== undefined && performance.now() > this.options.deadline) {
      this.stats.timedOut = true;
      return true;
    }
    return false;
  }

  async #mustStop(): Promise<boolean> {
    if (this.#interrupted()) return true;
    if (performance.now() - this.#lastYield > SLICE_MS) {
      await yieldToLoop();
      this.#lastYield = performance.now();
    }
    return false;
  }

  /** Symlinks and DT_UNKNOWN entries: undefined when the entry is skipped (link outside, dangling, looping). */
  async #describeSlow(
    dirent: Dirent,
    rel: string,
    parentReal: string,
    depth: number,
  ): Promise<WalkEntry | undefined> {
    const name = dirent.name;
    const real = childPath(parentReal, name);
    let d: Pick<Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink'> = dirent;
    if (!d.isSymbolicLink()) {
      // DT_UNKNOWN on some filesystems: ask lstat (never stat: links must not be followed here).
      try {
        d = await fs.lstat(real);
      } catch {
        return undefined;
      }
    }
    if (d.isDirectory()) return { rel, name, real, kind: 'directory', depth };
    if (d.isFile()) return { rel, name, real, kind: 'file', depth };
    if (!d.isSymbolicLink()) return { rel, name, real, kind: 'other', depth };
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
      return { rel, name, real: target, kind: 'symlink', target: kind, depth };
    } catch {
      this.stats.skippedLinks++;
      return undefined;
    }
  }
}
