import fs from 'node:fs/promises';
import path from 'node:path';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
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
    if ((await fs.stat(resolved.real)).isDirectory()) return resolved;
    throw new PathError('not_a_directory', input, `${quote(input)} exists and is not a directory.`);
  }
  // Walk up to the nearest existing ancestor; the segments below it are created one level at a time.
  const missing: string[] = [];
  let base = resolved.real;
  while (!(await exists(base))) {
    missing.unshift(path.basename(base));
    base = path.dirname(base);
  }
  try {
    for (const seg of missing) {
      // Re-check the parent right before each mkdir: a component swapped for a symlink mid-way stops us here.
      const parent = await fs.realpath(base);
      if (!roots.containsReal(parent)) throw await changedError(roots, base, input);
      if (!(await fs.stat(parent)).isDirectory()) {
        throw new PathError(
          'not_a_directory',
          input,
          `${quote(parent)} is a file, so ${quote(input)} cannot be created.`,
        );
      }
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
 * is a symlink to outside is 'outside'), checks the nearest existing ancestor is an inside directory, then creates
 * the missing levels one at a time, re-verifying each created directory's realpath is inside.
 * An existing directory is success. Returns the resolved directory (exists: true).
 * Errors: PathError 'invalid' | 'outside' | 'not_a_directory' (a file is in the way).
 */
export async function mkdirInside(roots: AllowedRoots, input: string): Promise<ResolvedPath> {
  return mkdirResolved(roots, await roots.resolve(input));
}
