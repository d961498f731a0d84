import path from 'node:path';
import { isWithin } from './canonical.js';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import { fs } from './fs-names.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';
import { changedError } from './verify.js';
import { pinParent } from './write.js';

function existsError(to: string): PathError {
  return new PathError(
    'exists',
    to,
    `Cannot move: destination exists (${quote(to)}); moving never overwrites. Choose another name or remove it first.`,
  );
}

function crossDeviceError(from: string, to: string): PathError {
  return new PathError(
    'invalid',
    from,
    `Cannot move ${quote(from)} to ${quote(to)}: they are on different filesystems. Copy it and delete the original instead.`,
  );
}

/** Codes meaning "this filesystem cannot hard-link", so the checked-rename fallback applies. */
const NO_LINK = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

async function lexists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return false;
    throw err;
  }
}

/** Files and symlinks: link(2) then unlink, so an existing destination makes it fail atomically (EEXIST). */
async function moveEntry(
  src: string,
  dst: string,
  from: ResolvedPath,
  to: ResolvedPath,
  isLink: boolean,
): Promise<void> {
  // link(2) may follow a symlink source on some platforms; symlinks use the checked rename instead.
  if (!isLink) {
    try {
      await fs.link(src, dst);
    } catch (err) {
      const code = errnoOf(err) ?? '';
      if (code === 'EEXIST') throw existsError(to.input);
      if (code === 'EXDEV') throw crossDeviceError(from.input, to.input);
      if (!NO_LINK.has(code)) throw err;
      return checkedRename(src, dst, from, to);
    }
    try {
      await fs.unlink(src);
    } catch (err) {
      await fs.unlink(dst).catch(() => {}); // undo: leave exactly one name
      throw err;
    }
    return;
  }
  return checkedRename(src, dst, from, to);
}

async function checkedRename(src: string, dst: string, from: ResolvedPath, to: ResolvedPath): Promise<void> {
  if (await lexists(dst)) throw existsError(to.input);
  try {
    await fs.rename(src, dst);
  } catch (err) {
    if (errnoOf(err) === 'EXDEV') throw crossDeviceError(from.input, to.input);
    throw err;
  }
}

/**
 * Directories: reserve the destination with mkdir (atomic EEXIST), then rename onto that empty placeholder —
 * the only thing rename(2) may replace is an empty directory, so no content is ever overwritten. `dstAt` goes
 * through the pinned destination directory (when pinned, `checkPlaced` is false: nothing to re-check).
 */
async function moveDirectory(
  roots: AllowedRoots,
  srcAt: string,
  dstAt: string,
  from: ResolvedPath,
  to: ResolvedPath,
  checkPlaced: boolean,
): Promise<void> {
  try {
    await fs.mkdir(dstAt);
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') throw existsError(to.input);
    throw err;
  }
  try {
    if (checkPlaced) {
      const placed = await fs.realpath(dstAt);
      if (!roots.containsReal(placed)) throw await changedError(roots, to.real, to.input);
    }
    await fs.rename(srcAt, dstAt);
  } catch (err) {
    await fs.rmdir(dstAt).catch(() => {}); // through the same directory: only our placeholder
    const code = errnoOf(err);
    if (code === 'EXDEV') throw crossDeviceError(from.input, to.input);
    if (code === 'EINVAL') {
      throw new PathError('invalid', from.input, `Cannot move directory ${quote(from.input)} into itself.`);
    }
    throw err;
  }
}

/**
 * Move/rename `from` to `to` inside the roots, never overwriting (FS-08). Both are resolved as entries
 * (a final symlink is moved itself, not its target); both must be inside. A destination that exists —
 * including a dangling symlink — is PathError 'exists' ("destination exists"). Files use link+unlink
 * (no-overwrite is atomic); directories reserve the name with mkdir and rename onto it.
 * Returns both resolved paths (real = the entries' paths). Errors: PathError 'invalid' (moving an allowed
 * directory itself, into itself, across filesystems) | 'outside' | 'not_found' | 'not_a_directory' | 'exists'.
 */
export async function moveInside(
  roots: AllowedRoots,
  from: string,
  to: string,
): Promise<{ from: ResolvedPath; to: ResolvedPath }> {
  const src = await roots.resolveEntry(from, { mustExist: true });
  if (roots.roots.some((r) => r.real === src.real || r.configured === src.real)) {
    throw new PathError(
      'invalid',
      from,
      `${quote(from)} is an allowed directory itself and cannot be moved.`,
    );
  }
  const dst = await roots.resolveEntry(to);
  if (dst.exists) throw existsError(to);
  // Both parents pinned and checked (Linux): the link/rename/mkdir below go through them, so neither side can
  // be redirected outside by a directory swapped for a symlink after the check.
  const dstParent = await pinParent(roots, dst);
  try {
    const srcParent = await pinParent(roots, src);
    try {
      const srcAt = `${srcParent.at}/${path.basename(src.real)}`;
      const dstAt = `${dstParent.at}/${path.basename(dst.real)}`;
      const srcReal = path.join(srcParent.real, path.basename(src.real));
      const dstReal = path.join(dstParent.real, path.basename(dst.real));
      const st = await fs.lstat(srcAt);
      if (st.isDirectory()) {
        if (isWithin(dstReal, srcReal)) {
          throw new PathError('invalid', from, `Cannot move directory ${quote(from)} into itself.`);
        }
        await moveDirectory(roots, srcAt, dstAt, src, dst, dstParent.at === dstParent.real);
      } else {
        await moveEntry(srcAt, dstAt, src, dst, st.isSymbolicLink());
      }
    } finally {
      srcParent.release();
    }
  } catch (err) {
    throw err instanceof PathError ? err : fsErrorToPathError(err, from);
  } finally {
    dstParent.release();
  }
  return { from: { ...src, exists: false }, to: { ...dst, exists: true } };
}
