import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import { kindOf } from './kind.js';
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
 * Open a file for reading inside the roots: resolve (must exist), open with O_RDONLY|O_NOFOLLOW|O_NONBLOCK,
 * then verify the opened fd (Linux: /proc/self/fd/<fd> must be inside; elsewhere fstat dev+ino must match the
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
  const resolved = await roots.resolve(input, { mustExist: true });
  return openResolved(roots, resolved, opts);
}
