/**
 * The fast way to open an existing file for reading on Linux, tried by {@link openInside} and
 * {@link readInside} before the general resolve-then-open path. Three thread-pool round trips instead of ten:
 *
 * 1. `open(path, O_PATH)` pins the inode the path leads to (symlinks followed) without opening the file itself:
 *    no device driver or FUSE daemon is called, a FIFO cannot block, nothing can have side effects.
 * 2. Synchronously, from kernel memory only (never from disk or the network): `fstat` of the pinned fd (the
 *    kind: only regular files, and directories when asked, go on) and `readlink(/proc/self/fd/N)` (its real
 *    path, which must lie inside the roots). A few microseconds, less than one thread-pool hop.
 * 3. `open(/proc/self/fd/N, O_RDONLY | O_NONBLOCK)` reopens exactly that inode, so no path can be swapped in
 *    between check and use; its fstat must match the pinned one. Then the file is read (step 4, the third
 *    round trip) by the caller, or here in one read when it is small.
 *
 * Anything unusual (missing, refused, outside, odd kind, relative path with several roots, no /proc, a platform
 * whose O_PATH value we do not know) returns null: the caller then takes the general path, which produces the
 * precise error. So this path never decides an error, it only ever opens what the general path would open.
 */
import { close, closeSync, constants, fstatSync, read, readlinkSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fromFsName, fs } from './fs-names.js';
import { parseInput } from './input.js';
import { O_PATH, openFd, pinningAvailable, pinningUnavailable } from './pin.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';

const REOPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** A verified O_PATH fd: the file is inside the roots and of an accepted kind, but not open for reading yet. */
export interface Pin {
  /** The O_PATH fd; {@link reopenPinned} and {@link readPinned} close it. */
  fd: number;
  path: ResolvedPath;
  /** fstat of the pinned inode. */
  stat: Stats;
}

/** Test seam: runs between pinning the inode and reopening it (to swap the path in between). */
export interface PinnedHooks {
  afterPin?: () => Promise<void>;
}

function readFd(fd: number, buffer: Buffer, offset: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, offset, buffer.length - offset, position, (error, n) =>
      error ? reject(error) : resolve(n),
    );
  });
}

function closed(fd: number): null {
  closeSync(fd); // an O_PATH fd: closing it never reaches the filesystem
  return null;
}

/**
 * Pin `input` (see above), or null when the general path must decide. Never throws for filesystem reasons;
 * a syntactically bad input throws the PathError parseInput throws.
 */
export async function pinInside(
  roots: AllowedRoots,
  input: string,
  allowDirectory: boolean,
): Promise<Pin | null> {
  if (!pinningAvailable()) return null;
  const parsed = parseInput(input);
  const first = roots.roots[0];
  if (!first) return null;
  if (parsed.kind === 'relative' && roots.roots.length > 1) return null; // which root depends on existence
  const absolute =
    parsed.kind === 'relative' ? path.resolve(first.configured, parsed.path) : path.resolve(parsed.path);

  let fd: number;
  try {
    fd = await openFd(absolute, O_PATH);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EINVAL') pinningUnavailable(); // kernel without O_PATH
    return null;
  }
  let stat: Stats;
  let held: string;
  try {
    stat = fstatSync(fd);
    held = fromFsName(readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' }));
  } catch {
    pinningUnavailable(); // no /proc (or fstat refused an O_PATH fd): use the general path from now on
    return closed(fd);
  }
  if (!(stat.isFile() || (allowDirectory && stat.isDirectory()))) return closed(fd);
  // " (deleted)" may be the kernel's mark or part of a real name: let the general path sort that out.
  if (held.endsWith(' (deleted)')) return closed(fd);
  const root = roots.rootOf(held);
  if (!root) return closed(fd);
  return { fd, path: { input, absolute, real: held, exists: true, root }, stat };
}

/** The pinned inode opened for reading (the caller closes the handle) and its fstat, or null. Closes the pin. */
export async function reopenPinned(
  pin: Pin,
  hooks: PinnedHooks = {},
): Promise<{ handle: FileHandle; stat: Stats } | null> {
  let handle: FileHandle;
  try {
    await hooks.afterPin?.();
    handle = await fs.open(`/proc/self/fd/${pin.fd}`, REOPEN_FLAGS);
  } catch {
    return null;
  } finally {
    closeSync(pin.fd);
  }
  const stat = fstatSync(handle.fd);
  if (stat.ino !== pin.stat.ino || stat.dev !== pin.stat.dev) {
    await handle.close().catch(() => {});
    return null; // cannot happen (same inode by construction); belt and braces
  }
  return { handle, stat };
}

/**
 * The whole content of a pinned regular file in one read (raw fds: no FileHandle for a file closed right
 * away), with the fstat of what was read. Null when reopening fails or the file has grown past `maxBytes`
 * since it was pinned. Closes the pin.
 */
export async function readPinned(
  pin: Pin,
  maxBytes: number,
  hooks: PinnedHooks = {},
): Promise<{ bytes: Buffer; stat: Stats } | null> {
  let fd: number;
  try {
    await hooks.afterPin?.();
    fd = await openFd(`/proc/self/fd/${pin.fd}`, REOPEN_FLAGS);
  } catch {
    return null;
  } finally {
    closeSync(pin.fd);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.ino !== pin.stat.ino || stat.dev !== pin.stat.dev || !stat.isFile()) return null;
    if (stat.size > maxBytes) return null;
    const bytes = Buffer.allocUnsafe(stat.size);
    let n = 0;
    // A short read is legal; loop until the buffer is full or the file ends (it may have shrunk).
    while (n < bytes.length) {
      const got = await readFd(fd, bytes, n, n);
      if (got === 0) break;
      n += got;
    }
    return { bytes: n < bytes.length ? bytes.subarray(0, n) : bytes, stat };
  } finally {
    // Not awaited: nothing waits on it, so the caller does not pay for another round trip.
    close(fd, () => {});
  }
}

/** {@link pinInside} then {@link reopenPinned}: what the general open would return, or null. */
export async function openPinned(
  roots: AllowedRoots,
  input: string,
  allowDirectory: boolean,
  hooks: PinnedHooks = {},
): Promise<{ handle: FileHandle; path: ResolvedPath; stat: Stats } | null> {
  const pin = await pinInside(roots, input, allowDirectory);
  if (!pin) return null;
  const opened = await reopenPinned(pin, hooks);
  return opened ? { ...opened, path: pin.path } : null;
}
