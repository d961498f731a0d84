import type { Stats } from 'node:fs';
import path from 'node:path';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import { fs } from './fs-names.js';
import { type DirPin, pinChild, pinDirectory, unpin } from './pin.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';
import { changedError } from './verify.js';

/** Test seams; not for production callers. */
export interface MkdirHooks {
  /** Called after each directory is created and verified, with its real path. */
  afterCreate?: (dirReal: string) => Promise<void>;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw err;
  }
}

function notDirectoryError(input: string, what: string): PathError {
  return new PathError(
    'not_a_directory',
    input,
    `${quote(what)} is a file, so ${quote(input)} cannot be created.`,
  );
}

/**
 * mkdir -p for an already resolved path (see {@link mkdirInside}); split out so tests can swap a component
 * for a symlink between levels through `hooks`.
 */
export async function mkdirResolved(
  roots: AllowedRoots,
  resolved: ResolvedPath,
  hooks: MkdirHooks = {},
): Promise<ResolvedPath> {
  const { input } = resolved;
  if (resolved.exists) {
    let st: Stats;
    try {
      st = await fs.stat(resolved.real);
    } catch (err) {
      throw fsErrorToPathError(err, input);
    }
    if (st.isDirectory()) return resolved;
    throw new PathError('not_a_directory', input, `${quote(input)} exists and is not a directory.`);
  }
  // Walk up to the nearest existing ancestor; the segments below it are created one level at a time.
  const missing: string[] = [];
  let base = resolved.real;
  try {
    while (!(await exists(base))) {
      missing.unshift(path.basename(base));
      base = path.dirname(base);
    }
  } catch (err) {
    throw fsErrorToPathError(err, input);
  }
  let pin: DirPin | null;
  try {
    pin = await pinDirectory(base, true);
  } catch (err) {
    if (errnoOf(err) === 'ENOTDIR') throw notDirectoryError(input, base);
    if (errnoOf(err) === 'ENOENT') throw await changedError(roots, base, input);
    throw fsErrorToPathError(err, input);
  }
  if (!pin) return mkdirByPath(roots, resolved, base, missing, hooks);
  try {
    if (!roots.containsReal(pin.real)) throw await changedError(roots, base, input);
    for (const seg of missing) {
      const next = path.join(pin.real, seg);
      // mkdirat(pinned, seg): created in the checked directory whatever its path leads to now.
      let created = true;
      try {
        await fs.mkdir(`${pin.at}/${seg}`);
      } catch (err) {
        const code = errnoOf(err);
        if (code === 'ENOENT') throw await changedError(roots, next, input); // the pinned directory was removed
        if (code !== 'EEXIST') throw err;
        created = false; // made concurrently; pinned and checked like ours
      }
      let child: DirPin;
      try {
        child = await pinChild(pin, seg); // never through a symlink
      } catch (err) {
        const code = errnoOf(err);
        if (code !== 'ENOTDIR' && code !== 'ELOOP' && code !== 'ENOENT') throw err;
        const st = await fs.lstat(`${pin.at}/${seg}`).catch(() => null);
        if (st && !st.isSymbolicLink() && !st.isDirectory()) {
          throw new PathError('not_a_directory', input, `${quote(next)} exists and is not a directory.`);
        }
        throw await changedError(roots, next, input);
      }
      if (!roots.containsReal(child.real)) {
        // Only possible if the pinned parent was moved out meanwhile: undo ours, in that same directory.
        unpin(child);
        if (created) await fs.rmdir(`${pin.at}/${seg}`).catch(() => {});
        throw await changedError(roots, next, input);
      }
      unpin(pin);
      pin = child;
      await hooks.afterCreate?.(child.real);
    }
    return { ...resolved, real: pin.real, exists: true };
  } catch (err) {
    throw err instanceof PathError ? err : fsErrorToPathError(err, input);
  } finally {
    unpin(pin);
  }
}

/** The fallback without /proc: each level re-checked by real path right before and after its mkdir. */
async function mkdirByPath(
  roots: AllowedRoots,
  resolved: ResolvedPath,
  start: string,
  missing: string[],
  hooks: MkdirHooks,
): Promise<ResolvedPath> {
  const { input } = resolved;
  let base = start;
  try {
    for (const seg of missing) {
      // Re-check the parent right before each mkdir: a component swapped for a symlink mid-way stops us here.
      const parent = await fs.realpath(base);
      if (!roots.containsReal(parent)) throw await changedError(roots, base, input);
      if (!(await fs.stat(parent)).isDirectory()) throw notDirectoryError(input, parent);
      const next = path.join(parent, seg);
      let created = true;
      try {
        await fs.mkdir(next);
      } catch (err) {
        if (errnoOf(err) !== 'EEXIST') throw err;
        created = false; // made concurrently; verified like ours
      }
      const real = await fs.realpath(next);
      if (!roots.containsReal(real)) {
        if (created) await fs.rmdir(next).catch(() => {});
        throw await changedError(roots, next, input);
      }
      if (!(await fs.stat(real)).isDirectory()) {
        throw new PathError('not_a_directory', input, `${quote(next)} exists and is not a directory.`);
      }
      base = real;
      await hooks.afterCreate?.(real);
    }
  } catch (err) {
    throw err instanceof PathError ? err : fsErrorToPathError(err, input);
  }
  return { ...resolved, real: base, exists: true };
}

/**
 * mkdir -p inside the roots (FS-12): resolves `input` (containment of the final real path, so a component that
 * is a symlink to outside is 'outside'), pins the nearest existing ancestor (Linux: O_PATH) and checks it is an
 * inside directory, then creates the missing levels one at a time, each through the pinned directory above it
 * (`mkdir /proc/self/fd/N/<name>`), pinning it without following symlinks before going deeper — so a component
 * swapped for a symlink cannot make anything be created outside. Without /proc: re-checked by path per level.
 * An existing directory is success. Returns the resolved directory (exists: true).
 * Errors: PathError 'invalid' | 'outside' | 'not_a_directory' (a file is in the way).
 */
export async function mkdirInside(roots: AllowedRoots, input: string): Promise<ResolvedPath> {
  return mkdirResolved(roots, await roots.resolve(input));
}
