import type { FileHandle } from 'node:fs/promises';
import { canonicalize } from './canonical.js';
import { changedWhileUsed, errnoOf, PathError, quote } from './errors.js';
import { fs } from './fs-names.js';
import type { AllowedRoots } from './roots.js';

/**
 * The path the kernel holds for an open fd, read from /proc/self/fd/<fd> (Linux).
 * Returns null where /proc is absent (macOS, BSD) so the caller can fall back.
 */
export async function fdPath(fd: number): Promise<string | null> {
  try {
    return await fs.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * The error for a path that changed between resolution and use: 'outside' if it now leads outside the roots,
 * else 'invalid' asking to retry. Never throws anything else.
 */
export async function changedError(roots: AllowedRoots, real: string, input: string): Promise<PathError> {
  let leadsOutside = true;
  try {
    const c = await canonicalize(real, { followFinal: true });
    leadsOutside = !!c.problem || !roots.containsReal(c.real);
  } catch {
    // unknowable: treat as outside, the safe answer
  }
  return leadsOutside
    ? new PathError(
        'outside',
        input,
        `Access denied: ${quote(input)} or a symlink in it now points outside the allowed directories. ` +
          `Allowed directories: ${roots.describe()}.`,
      )
    : changedWhileUsed(input);
}

/**
 * Verify that an open handle refers to something inside the roots, closing the check-then-use race:
 * on Linux the kernel's path of the fd (/proc/self/fd) must be contained; without /proc (or with
 * `method: 'stat'`), the expected real path must still canonicalise to itself (no symlink appeared on the way)
 * and its dev+ino must equal the handle's. Throws PathError 'outside' (or 'invalid' when it changed but stayed
 * inside). Does not close the handle.
 */
export async function verifyOpened(
  roots: AllowedRoots,
  handle: FileHandle,
  expectedReal: string,
  input: string,
  method: 'auto' | 'stat' = 'auto',
): Promise<void> {
  const held = method === 'auto' ? await fdPath(handle.fd) : null;
  if (held !== null) {
    if (!roots.containsReal(held.replace(/ \(deleted\)$/, '')))
      throw await changedError(roots, expectedReal, input);
    return;
  }
  const c = await canonicalize(expectedReal, { followFinal: false }).catch(() => null);
  if (!c || c.problem || !c.exists || c.real !== expectedReal || !roots.containsReal(c.real)) {
    throw await changedError(roots, expectedReal, input);
  }
  const [opened, onDisk] = await Promise.all([
    handle.stat(),
    fs.lstat(expectedReal).catch((err: unknown) => {
      if (errnoOf(err) === 'ENOENT') return null;
      throw err;
    }),
  ]);
  if (!onDisk || opened.dev !== onDisk.dev || opened.ino !== onDisk.ino) {
    throw await changedError(roots, expectedReal, input);
  }
}
