import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import { fs } from './fs-names.js';
import { kindOf } from './kind.js';
import { openPinned, pinInside, readPinned, reopenPinned } from './pinned-open.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';
import { changedError, verifyOpened } from './verify.js';

/** O_NOFOLLOW: a final symlink swapped in after resolution fails the open; O_NONBLOCK: FIFOs cannot hang us. */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface OpenOptions {
  /** Accept a directory (e.g. to list it from a verified handle). Default false. */
  allowDirectory?: boolean;
}

export interface OpenedFile {
  /** Open read-only; the caller closes it. */
  handle: FileHandle;
  path: ResolvedPath;
  /** fstat of the handle (what was actually opened). */
  stat: Stats;
}

/** Test seams: force the no-/proc verification, or skip the pre-open kind check to exercise the post-open one. */
export interface OpenSeams {
  verify?: 'auto' | 'stat';
  precheck?: boolean;
}

function refuseKind(input: string, st: Stats, allowDirectory: boolean): PathError | null {
  if (st.isFile() || (allowDirectory && st.isDirectory())) return null;
  const want = allowDirectory ? 'a regular file or a directory' : 'a regular file';
  return new PathError('invalid', input, `${quote(input)} is ${kindOf(st)}, not ${want}.`);
}

/**
 * Open an already resolved path for reading and verify what was opened (see {@link openInside}).
 * Split out so the check-then-use race can be exercised: swap the path between resolve and this call.
 * Errors: PathError 'outside' (the path now leads outside), 'not_found', 'invalid' (kind refused, changed).
 */
export async function openResolved(
  roots: AllowedRoots,
  resolved: ResolvedPath,
  opts: OpenOptions & OpenSeams = {},
): Promise<OpenedFile> {
  const allowDirectory = opts.allowDirectory ?? false;
  // Refuse devices, sockets and FIFOs before opening: opening a device can have side effects.
  if (opts.precheck !== false) {
    let pre: Stats;
    try {
      pre = await fs.lstat(resolved.real);
    } catch (err) {
      throw fsErrorToPathError(err, resolved.input);
    }
    if (pre.isSymbolicLink()) throw await changedError(roots, resolved.real, resolved.input);
    const early = refuseKind(resolved.input, pre, allowDirectory);
    if (early) throw early;
  }

  let handle: FileHandle;
  try {
    handle = await fs.open(resolved.real, READ_FLAGS);
  } catch (err) {
    // ELOOP: the final component became a symlink after resolution.
    if (errnoOf(err) === 'ELOOP') throw await changedError(roots, resolved.real, resolved.input);
    throw fsErrorToPathError(err, resolved.input);
  }
  try {
    await verifyOpened(roots, handle, resolved.real, resolved.input, opts.verify ?? 'auto');
    const stat = await handle.stat();
    const refused = refuseKind(resolved.input, stat, allowDirectory);
    if (refused) throw refused;
    return { handle, path: resolved, stat };
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}

/**
 * Open a file for reading inside the roots. On Linux it first tries {@link openPinned} (O_PATH, checked, then
 * reopened through /proc/self/fd: three thread-pool round trips), which opens only what the general path below
 * would open and leaves every refusal to it. The general path: resolve (must exist), open with
 * O_RDONLY|O_NOFOLLOW|O_NONBLOCK, then verify the opened fd (Linux: /proc/self/fd/<fd> must be inside; elsewhere fstat dev+ino must match the
 * re-checked real path). Non-regular files (FIFOs, sockets, devices) are refused with PathError 'invalid'
 * naming the kind; directories too unless `opts.allowDirectory`.
 * Returns `{ handle, path, stat }`; the caller closes `handle`.
 * Errors: PathError 'invalid' | 'outside' | 'not_found'.
 */
export async function openInside(
  roots: AllowedRoots,
  input: string,
  opts: OpenOptions = {},
): Promise<OpenedFile> {
  const pinned = await openPinned(roots, input, opts.allowDirectory ?? false);
  if (pinned) return pinned;
  const resolved = await roots.resolve(input, { mustExist: true });
  return openResolved(roots, resolved, opts);
}

/** What {@link readInside} returns: the whole content of a small file, or a bigger one open for reading. */
export type ReadOpened =
  | { path: ResolvedPath; stat: Stats; bytes: Buffer; handle?: undefined }
  | { path: ResolvedPath; stat: Stats; handle: FileHandle; bytes?: undefined };

/**
 * Open a regular file inside the roots with the checks and errors of {@link openInside} and, when it is at most
 * `wholeBytes` long, read it whole in the same go (one read, the file closed again): `{ bytes }`. A bigger
 * file comes back open: `{ handle }`, which the caller closes. On Linux a small file costs three thread-pool
 * round trips in all (pin, reopen, read).
 */
export async function readInside(
  roots: AllowedRoots,
  input: string,
  wholeBytes: number,
): Promise<ReadOpened> {
  const pin = await pinInside(roots, input, false);
  if (pin) {
    if (pin.stat.size <= wholeBytes) {
      const read = await readPinned(pin, wholeBytes);
      if (read) return { path: pin.path, ...read };
    } else {
      const opened = await reopenPinned(pin);
      if (opened) return { path: pin.path, ...opened };
    }
  }
  const opened = await openResolved(roots, await roots.resolve(input, { mustExist: true }));
  if (opened.stat.size > wholeBytes) return opened;
  try {
    // The fstat size, not to EOF: a file growing meanwhile must not make this read unbounded.
    const bytes = Buffer.allocUnsafe(opened.stat.size);
    let n = 0;
    while (n < bytes.length) {
      const { bytesRead } = await opened.handle.read(bytes, n, bytes.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return { path: opened.path, stat: opened.stat, bytes: bytes.subarray(0, n) };
  } finally {
    await opened.handle.close().catch(() => {});
  }
}
