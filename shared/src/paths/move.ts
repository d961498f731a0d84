import fs from 'node:fs/promises';
import path from 'node:path';
import { isWithin } from './canonical.js';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';
import { changedError } from './verify.js';

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

/** The destination's parent, re-checked now: must be an existing directory inside the roots. */
async function checkDestParent(roots: AllowedRoots, to: ResolvedPath): Promise<void> {
  const parent = path.dirname(to.real);
  let real: string;
  try {
    real = await fs.realpath(parent);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') {
      throw new PathError(
        'not_found',
        to.input,
        `The parent directory of ${quote(to.input)} does not exist; create it first.`,
      );
    }
    throw fsErrorToPathError(err, to.input);
  }
  if (real !== parent || !roots.containsReal(real)) throw await changedError(roots, to.real, to.input);
  if (!(await fs.stat(real)).isDirectory()) {
    throw new PathError('not_a_directory', to.input, `The parent of ${quote(to.input)} is not a directory.`);
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
 * the only thing rename(2) may replace is an empty directory, so no content is ever overwritten.
 */
async function moveDirectory(roots: AllowedRoots, from: ResolvedPath, to: ResolvedPath): Promise<void> {
  try {
    await fs.mkdir(to.real);
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') throw existsError(to.input);
    throw err;
  }
  try {
    const placed = await fs.realpath(to.real);
    if (!roots.containsReal(placed)) throw await changedError(roots, to.real, to.input);
    await fs.rename(from.real, to.real);
  } catch (err) {
    await fs.rmdir(to.real).catch(() => {});
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
  try {
    await checkDestParent(roots, dst);
    const st = await fs.lstat(src.real);
    if (st.isDirectory()) {
      if (isWithin(dst.real, src.real)) {
        throw new PathError('invalid', from, `Cannot move directory ${quote(from)} into itself.`);
      }
      await moveDirectory(roots, src, dst);
    } else {
      await moveEntry(src.real, dst.real, src, dst, st.isSymbolicLink());
    }
  } catch (err) {
    throw err instanceof PathError ? err : fsErrorToPathError(err, from);
  }
  return { from: { ...src, exists: false }, to: { ...dst, exists: true } };
}
