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
 *   as `other`, never opened). Symlinks are resolved; a link whose target is outside the allowed
 *   directories, dangling or looping is skipped and counted; a link inside is reported as
 *   `symlink` with its target's kind and is never descended into (no cycles, no duplicates).
 * - No check-then-use race (Linux): the start directory is pinned (O_PATH) and its real path checked, each
 *   subdirectory is pinned through its pinned parent (`/proc/self/fd/<parent>/<name>`, O_NOFOLLOW) and checked,
 *   and every directory is read, and its entries looked at, through `/proc/self/fd/N` — no path lookup happens
 *   between a check and a read, so a directory swapped for a symlink cannot make the walk show what is outside.
 *   At most {@link MAX_HELD} directories (plus those read ahead) stay pinned at once: deeper walks let go of the
 *   outermost ones and pin them again by path when they are needed (same device and inode, still inside, or
 *   the rest of that directory is counted unreadable). Without /proc the walk reads by path and re-checks the
 *   real path of each directory after reading it.
 */
import type { Dirent } from 'node:fs';
import {
  type DirPin,
  pathFs as fs,
  pinChild,
  pinDirectory,
  pinTarget,
  targetKind,
  unpin,
} from '@refmcp/shared/paths';

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
  /**
   * Called before a directory's children are reported (rel '' is the start), e.g. to load .gitignore. `at`
   * reaches the directory that is being walked itself (`/proc/self/fd/N` while it is pinned, else `real`):
   * read files in it as `${at}/<name>`, valid until the returned promise settles.
   */
  enterDirectory?(rel: string, real: string, at: string): Promise<void> | void;
  /** Called with the count of entries handed out so far, once per batch (for progress notifications). */
  onProgress?(visited: number): void;
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

/** Directories a walk keeps pinned at once (not counting those read ahead). */
export const MAX_HELD = 32;

/** A pinned directory shared by its frame and the reads in flight through it: unpinned when the last lets go. */
class Held {
  #refs = 1;
  constructor(readonly pin: DirPin) {}
  retain(): this {
    this.#refs++;
    return this;
  }
  release(): void {
    if (--this.#refs === 0) unpin(this.pin);
  }
}

/** A directory's entries sorted by name (and the pin it was read through), or undefined when it could not be read. */
type Listing = { entries: Dirent[]; held?: Held } | undefined;

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
  /** The pin it was read through, while held (pinned walks). */
  held?: Held;
  /** Device and inode of that pin: a pin taken again must be of the same directory. */
  dev?: number;
  ino?: number;
  /** Its pin was let go and could not be taken again: the rest of it is skipped. */
  lost?: boolean;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `parent/name` for an absolute, normalised parent (no path.join: names never hold "/" or ".."). */
function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

const byName = (a: Dirent, b: Dirent) => compareNames(a.name, b.name);

/**
 * Without /proc: reads the directory at `real` whole, sorted by name. Its real path is checked after the read:
 * a directory swapped for a symlink while it was read must not leak names from elsewhere. Never rejects.
 */
async function listByPath(real: string): Promise<Listing> {
  try {
    const entries = await fs.readdir(real, { withFileTypes: true });
    if ((await fs.realpath(real)) !== real) return undefined;
    return { entries: entries.sort(byName) };
  } catch {
    return undefined;
  }
}

/** Reads a pinned directory whole through /proc/self/fd, sorted by name; lets go of the pin if that fails. */
async function listHeld(held: Held): Promise<Listing> {
  try {
    const entries = await fs.readdir(held.pin.at, { withFileTypes: true });
    return { entries: entries.sort(byName), held };
  } catch {
    held.release();
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
  /** The start could be pinned: every directory is pinned and read through /proc/self/fd (else by path). */
  #pinned = false;
  /** Frames holding a pin. */
  #heldCount = 0;
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
      this.options.onProgress?.(this.stats.visited);
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
      this.options.onProgress?.(this.stats.visited);
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
   * directory is handed out before its children) or after BATCH entries. Lets go of every pin when it ends
   * (also when the consumer stops pulling).
   */
  async *#batches(): AsyncGenerator<WalkEntry[], void> {
    try {
      const root = await this.#openStart();
      if (!root) {
        this.stats.unreadable++;
        return;
      }
      await this.#enter(this.#push('', this.startReal, 0, root, this.#afterSegments.length > 0));
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
            (await this.#describeSlow(dirent, rel, frame, depth));
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
          const listing = await this.#take(frame, enter);
          if (listing)
            await this.#enter(this.#push(enter.rel, enter.real, enter.depth, listing, enterResuming));
          else this.stats.unreadable++;
        }
      }
      this.stats.complete = true;
    } finally {
      // Frames stay (pendingCount reads them); their pins go.
      for (const frame of this.#stack) this.#letGo(frame);
    }
  }

  /** The start directory: pinned and checked (it must still be the resolved directory), then read. */
  async #openStart(): Promise<Listing> {
    let pin: DirPin | null;
    try {
      pin = await pinDirectory(this.startReal, false);
    } catch {
      return undefined; // gone, or a symlink now
    }
    if (!pin) return listByPath(this.startReal);
    this.#pinned = true;
    if (pin.real !== this.startReal || !this.options.contains(pin.real)) {
      unpin(pin);
      return undefined;
    }
    return listHeld(new Held(pin));
  }

  /** Runs the enterDirectory hook for the frame just pushed. */
  async #enter(frame: Frame): Promise<void> {
    if (!this.options.enterDirectory) return;
    const held = frame.held?.retain();
    try {
      await this.options.enterDirectory(frame.rel, frame.real, held ? held.pin.at : frame.real);
    } finally {
      held?.release();
    }
  }

  #push(rel: string, real: string, depth: number, listing: NonNullable<Listing>, resuming: boolean): Frame {
    const frame: Frame = { rel, real, depth, entries: listing.entries, index: 0, resuming, ahead: 0 };
    if (listing.held) {
      frame.held = listing.held;
      frame.dev = listing.held.pin.dev;
      frame.ino = listing.held.pin.ino;
      this.#heldCount++;
      this.#evict();
    }
    this.#stack.push(frame);
    return frame;
  }

  #pop(): void {
    const frame = this.#stack.pop();
    if (frame) this.#letGo(frame);
  }

  /** Lets go of a frame's pin and of what was read ahead below it (pruned, or the walk ended, meanwhile). */
  #letGo(frame: Frame): void {
    if (frame.held) {
      frame.held.release();
      frame.held = undefined;
      this.#heldCount--;
    }
    if (frame.early) {
      this.#early -= frame.early.size;
      for (const listing of frame.early.values()) void listing.then((l) => l?.held?.release());
      frame.early = undefined;
    }
    frame.lost = true; // never pinned again
  }

  /** Lets go of the outermost frames' pins while more than MAX_HELD are held (never the current one's). */
  #evict(): void {
    for (let i = 0; this.#heldCount > MAX_HELD && i < this.#stack.length - 1; i++) {
      const frame = this.#stack[i] as Frame;
      if (!frame.held) continue;
      frame.held.release();
      frame.held = undefined;
      this.#heldCount--;
    }
  }

  /**
   * The pin of `frame`, retained for the caller (who releases it), or undefined when it is lost. A pin let
   * go by {@link #evict} is taken again by path: only the very same directory (device and inode) still inside
   * will do, else the rest of the directory is skipped and counted unreadable.
   */
  async #heldOf(frame: Frame): Promise<Held | undefined> {
    if (frame.held) return frame.held.retain();
    if (frame.lost) return undefined;
    let pin: DirPin | null = null;
    try {
      pin = await pinDirectory(frame.real, false);
    } catch {
      // gone or replaced
    }
    const meanwhile = frame.held as Held | undefined; // taken again by another read while this one waited
    if (meanwhile) {
      if (pin) unpin(pin);
      return meanwhile.retain();
    }
    if (!pin || pin.dev !== frame.dev || pin.ino !== frame.ino || !this.options.contains(pin.real)) {
      if (pin) unpin(pin);
      frame.lost = true;
      frame.index = frame.entries.length;
      this.stats.unreadable++;
      return undefined;
    }
    frame.held = new Held(pin);
    this.#heldCount++;
    this.#evict();
    return frame.held.retain();
  }

  /** Reads subdirectory `name` of `frame`: pinned through the frame's pin (never through a symlink) and checked. */
  async #listChild(frame: Frame, name: string): Promise<Listing> {
    if (!this.#pinned) return listByPath(childPath(frame.real, name));
    const parent = await this.#heldOf(frame);
    if (!parent) return undefined;
    let pin: DirPin;
    try {
      pin = await pinChild(parent.pin, name);
    } catch {
      return undefined; // gone, or no longer a directory
    } finally {
      parent.release();
    }
    if (!this.options.contains(pin.real)) {
      unpin(pin);
      return undefined;
    }
    return listHeld(new Held(pin));
  }

  /** The listing of `dir` (a child of `frame`): the one read ahead if there is one, else read now. */
  #take(frame: Frame, dir: WalkEntry): Promise<Listing> {
    const early = frame.early?.get(dir.name);
    if (!early) return this.#listChild(frame, dir.name);
    frame.early?.delete(dir.name);
    this.#early--;
    return early;
  }

  /**
   * Starts reading the directories the walk will enter next, in walk order (the deepest directory's
   * next subdirectories first), while fewer than READ_AHEAD are pending. Pinned walks read ahead only below
   * directories whose pin is held.
   */
  #readAhead(): void {
    for (let f = this.#stack.length - 1; f >= 0 && this.#early < READ_AHEAD; f--) {
      const frame = this.#stack[f] as Frame;
      if (frame.resuming || frame.depth + 1 >= this.#maxDepth) continue;
      if (this.#pinned && !frame.held) continue;
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
        frame.early.set(dirent.name, this.#listChild(frame, dirent.name));
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
    frame: Frame,
    depth: number,
  ): Promise<WalkEntry | undefined> {
    if (!this.#pinned) return this.#describeByPath(dirent, rel, frame.real, depth);
    const held = await this.#heldOf(frame);
    if (!held) return undefined;
    try {
      const name = dirent.name;
      const real = childPath(frame.real, name);
      let d: Pick<Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink'> = dirent;
      if (!d.isSymbolicLink()) {
        // DT_UNKNOWN on some filesystems: ask lstat, in the pinned directory (never stat: links are not followed).
        try {
          d = await fs.lstat(`${held.pin.at}/${name}`);
        } catch {
          return undefined;
        }
      }
      if (d.isDirectory()) return { rel, name, real, kind: 'directory', depth };
      if (d.isFile()) return { rel, name, real, kind: 'file', depth };
      if (!d.isSymbolicLink()) return { rel, name, real, kind: 'other', depth };
      // Followed by the kernel from the pinned directory; the target is pinned (never opened) and checked.
      const target = await pinTarget(held.pin, name);
      if (!target || !this.options.contains(target.real)) {
        this.stats.skippedLinks++; // outside, dangling or looping
        return undefined;
      }
      return { rel, name, real: target.real, kind: 'symlink', target: targetKind(target.stat), depth };
    } finally {
      held.release();
    }
  }

  /** {@link #describeSlow} without /proc. */
  async #describeByPath(
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
