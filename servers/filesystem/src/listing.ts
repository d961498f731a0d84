/**
 * One directory's entries, sorted and paged: what list_directory and list_directory_with_sizes
 * return. Entries come from a pinned, verified directory (see readListing), symlinks are resolved and
 * those leading outside the allowed directories (or dangling) are left out and counted.
 */
import type { Dirent } from 'node:fs';
import path from 'node:path';
import {
  type DirPin,
  pathFs as fs,
  PathError,
  pinDirectory,
  pinTarget,
  targetKind,
  unpin,
} from '@refmcp/shared/paths';
import { compareNames, type EntryKind } from './walk.js';

export interface ListedEntry {
  name: string;
  type: EntryKind;
  /** For a symlink: the kind of its target. */
  target?: 'file' | 'directory' | 'other';
  /** Bytes (files and links to files), when sizes were asked for. */
  size?: number;
}

export interface DirectoryListing {
  entries: ListedEntry[];
  files: number;
  directories: number;
  /** Symlinks, FIFOs, sockets, devices. */
  others: number;
  /** Sum of file sizes (only when sizes were asked for). */
  totalSize?: number;
  /** Symlinks left out: target outside the allowed directories, dangling or looping. */
  skippedLinks: number;
}

export type SortBy = 'name' | 'size';

/** Runs `fn` over `items` with at most `limit` in flight. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function changedError(real: string): PathError {
  return new PathError('invalid', real, `${JSON.stringify(real)} changed while it was being read; retry.`);
}

/** A failed pin or read: permission problems say so; anything else means the directory changed meanwhile. */
function readError(error: unknown, real: string): PathError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') {
    return new PathError('invalid', real, `Permission denied for ${JSON.stringify(real)}.`);
  }
  return changedError(real);
}

/** Counts what was listed. */
function summarise(
  described: (ListedEntry | undefined)[],
  withSizes: boolean,
  skippedLinks: number,
): DirectoryListing {
  const entries = described.filter((e): e is ListedEntry => e !== undefined);
  let files = 0;
  let directories = 0;
  let totalSize = 0;
  for (const e of entries) {
    if (e.type === 'directory') directories++;
    else if (e.type === 'file') files++;
    totalSize += e.size ?? 0;
  }
  return {
    entries,
    files,
    directories,
    others: entries.length - files - directories,
    ...(withSizes ? { totalSize } : {}),
    skippedLinks,
  };
}

/**
 * Reads every entry of the directory at `real` (already contained), with sizes when `withSizes`. `contains`
 * decides whether a symlink's real target may be shown.
 *
 * On Linux the directory is pinned first (O_PATH, see @refmcp/shared/paths pinDirectory) and its real path
 * checked; then it is read, and its entries looked at, only through `/proc/self/fd/N`: a directory swapped for
 * a symlink at any moment cannot make the listing show another directory's entries. Elsewhere it is read by path
 * and its real path re-checked after the read. Throws PathError 'invalid' ("changed …; retry") when the
 * directory is no longer what was resolved.
 */
export async function readListing(
  real: string,
  opts: { withSizes: boolean; contains(real: string): boolean },
): Promise<DirectoryListing> {
  let pin: DirPin | null;
  try {
    pin = await pinDirectory(real, false);
  } catch (error) {
    throw readError(error, real); // gone, or no longer a directory (a symlink now)
  }
  if (!pin) return readListingByPath(real, opts);
  try {
    if (pin.real !== real || !opts.contains(pin.real)) throw changedError(real);
    const at = pin.at;
    let dirents: Dirent[];
    try {
      dirents = await fs.readdir(at, { withFileTypes: true });
    } catch (error) {
      throw readError(error, real);
    }
    let skippedLinks = 0;
    const described = await mapLimit(dirents, 64, async (d): Promise<ListedEntry | undefined> => {
      if (d.isSymbolicLink()) {
        // The link is followed by the kernel from the pinned directory; its target is pinned, never opened.
        const target = await pinTarget(pin as DirPin, d.name);
        if (!target || !opts.contains(target.real)) {
          skippedLinks++;
          return undefined;
        }
        const kind = targetKind(target.stat);
        return {
          name: d.name,
          type: 'symlink',
          target: kind,
          ...(opts.withSizes && kind === 'file' ? { size: target.stat.size } : {}),
        };
      }
      const type: EntryKind = d.isDirectory() ? 'directory' : d.isFile() ? 'file' : 'other';
      if (!opts.withSizes || type !== 'file') return { name: d.name, type };
      return withSize(d.name, type, `${at}/${d.name}`);
    });
    return summarise(described, opts.withSizes, skippedLinks);
  } finally {
    unpin(pin);
  }
}

/**
 * A file entry with its size; without one when the size cannot be read (a directory with read but no search
 * permission lists names only); undefined when the file vanished meanwhile.
 */
async function withSize(name: string, type: EntryKind, at: string): Promise<ListedEntry | undefined> {
  try {
    return { name, type, size: (await fs.lstat(at)).size };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : { name, type };
  }
}

/** {@link readListing} without /proc: read by path, then the real path re-checked. */
async function readListingByPath(
  real: string,
  opts: { withSizes: boolean; contains(real: string): boolean },
): Promise<DirectoryListing> {
  const dirents = await fs.readdir(real, { withFileTypes: true });
  // A directory swapped for a symlink between resolution and reading must not leak names from elsewhere.
  if ((await fs.realpath(real)) !== real) throw changedError(real);
  let skippedLinks = 0;
  const described = await mapLimit(dirents, 64, async (d): Promise<ListedEntry | undefined> => {
    const full = path.join(real, d.name);
    if (d.isSymbolicLink()) {
      try {
        const target = await fs.realpath(full);
        if (!opts.contains(target)) throw new Error('outside');
        const st = await fs.stat(target);
        const kind = st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
        return {
          name: d.name,
          type: 'symlink',
          target: kind,
          ...(opts.withSizes && st.isFile() ? { size: st.size } : {}),
        };
      } catch {
        skippedLinks++;
        return undefined;
      }
    }
    const type: EntryKind = d.isDirectory() ? 'directory' : d.isFile() ? 'file' : 'other';
    if (!opts.withSizes || type !== 'file') return { name: d.name, type };
    return withSize(d.name, type, full);
  });
  return summarise(described, opts.withSizes, skippedLinks);
}

/** Sort key of an entry: name order, or largest first with name order among equal sizes. */
export function sortKey(e: ListedEntry, sortBy: SortBy): [number, string] {
  return [sortBy === 'size' ? -(e.size ?? 0) : 0, e.name];
}

export function compareKeys(a: readonly [number, string], b: readonly [number, string]): number {
  return a[0] - b[0] || compareNames(a[1], b[1]);
}

/** Sorts in place by `sortBy` (see sortKey). */
export function sortEntries(entries: ListedEntry[], sortBy: SortBy): ListedEntry[] {
  return entries.sort((a, b) => compareKeys(sortKey(a, sortBy), sortKey(b, sortBy)));
}

/** The entries strictly after `after` (a sort key from a previous page), in order. */
export function entriesAfter(
  sorted: readonly ListedEntry[],
  sortBy: SortBy,
  after?: [number, string],
): ListedEntry[] {
  if (!after) return [...sorted];
  return sorted.filter((e) => compareKeys(sortKey(e, sortBy), after) > 0);
}

/** Sizes as the official server prints them: "0 B", "512 B", "1.50 KB", "2.00 MB" (1024-based). */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  if (bytes <= 0) return '0 B';
  const i = Math.floor(Math.log(bytes) / Math.log(1024));
  if (i <= 0) return `${bytes} B`;
  const unit = Math.min(i, units.length - 1);
  return `${(bytes / 1024 ** unit).toFixed(2)} ${units[unit]}`;
}

/** The `[FILE]`/`[DIR]` line tag of the official server; symlinks `[LINK]`, others `[OTHER]`. */
export function entryTag(e: Pick<ListedEntry, 'type'>): string {
  return e.type === 'directory'
    ? '[DIR]'
    : e.type === 'file'
      ? '[FILE]'
      : e.type === 'symlink'
        ? '[LINK]'
        : '[OTHER]';
}
