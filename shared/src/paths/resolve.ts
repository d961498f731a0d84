import path from 'node:path';
import { type Canonical, canonicalize, isWithin, PathChangedError } from './canonical.js';
import { changedWhileUsed, fsErrorToPathError, PathError, quote } from './errors.js';
import { decodeEscapes } from './fs-names.js';
import { backslashError, parseInput } from './input.js';
import type { AllowedRoot, RootSet } from './root-set.js';

/** A path that passed containment. */
export interface ResolvedPath {
  /** What the caller gave. */
  input: string;
  /** Lexical absolute form (after `~`, file:// and relative resolution), before symlinks. */
  absolute: string;
  /** Canonical: realpath if it exists, else realpath(nearest existing ancestor) + the remaining segments. */
  real: string;
  exists: boolean;
  /** The root `real` lies in (the most specific one). */
  root: AllowedRoot;
}

export interface ResolveOptions {
  mustExist: boolean;
  /** false: do not follow a final symlink (see AllowedRoots.resolveEntry). */
  followFinal: boolean;
}

function relativeHint(roots: RootSet): string {
  const first = roots.roots[0];
  if (!first) return '';
  if (roots.roots.length === 1) {
    return ` Relative paths are resolved against the allowed directory ${quote(first.configured)}, not the server's working directory.`;
  }
  return (
    ' Relative paths are resolved against the first allowed directory in which they exist, else against ' +
    `${quote(first.configured)}; give an absolute path to be explicit.`
  );
}

function outsideError(roots: RootSet, input: string, absolute: string, relative: boolean): PathError {
  if (roots.roots.length === 0) return new PathError('outside', input, roots.emptyReason);
  const lexicallyInside = roots.roots.some(
    (r) => isWithin(absolute, r.configured) || isWithin(absolute, r.real),
  );
  const what = relative ? `${quote(input)} (resolved to ${quote(absolute)})` : quote(input);
  const why = lexicallyInside
    ? `${what} lies in an allowed directory, but it or a symlink in it points outside the allowed directories.`
    : `${what} is outside the allowed directories.`;
  return new PathError(
    'outside',
    input,
    `Access denied: ${why} Allowed directories: ${roots.describe()}.${relative ? relativeHint(roots) : ''}`,
  );
}

/**
 * Canonicalise `input` and contain it in `roots`.
 * Steps: syntax check (parseInput) → absolute form (relative paths against the roots, never process.cwd():
 * one root → that root; several → the first root in which the path exists, else the first root) →
 * canonicalize (symlinks, dangling final links, NFC/NFD lookups) → containment by segments on the real path.
 * Errors (PathError): 'invalid' (syntax, symlink loop, backslash path that does not exist, a path that kept
 * changing while it was resolved: "changed while it was being used; retry"), 'outside'
 * (checked before existence so nothing leaks about outside paths), 'not_found' (mustExist and missing).
 */
export async function resolvePath(
  roots: RootSet,
  input: string,
  opts: ResolveOptions,
): Promise<ResolvedPath> {
  const parsed = parseInput(input);
  const relative = parsed.kind === 'relative';
  const follow = { followFinal: opts.followFinal };
  const first = roots.roots[0];
  if (!first) throw outsideError(roots, input, parsed.path, relative);

  const canonical = async (abs: string): Promise<Canonical> => {
    try {
      return await canonicalize(abs, follow);
    } catch (err) {
      if (err instanceof PathChangedError) throw changedWhileUsed(input);
      throw fsErrorToPathError(err, input);
    }
  };
  let absolute = relative ? path.resolve(first.configured, parsed.path) : path.resolve(parsed.path);
  let canon = await canonical(absolute);
  // `\xHH` escapes as a listing shows a name that is not UTF-8: those bytes, unless the literal exists.
  const decoded = canon.exists ? undefined : decodeEscapes(absolute);
  if (decoded !== undefined) {
    const raw = await canonical(decoded);
    if (raw.exists) {
      absolute = decoded;
      canon = raw;
    }
  }
  if (relative && roots.roots.length > 1 && !(canon.exists && roots.containsReal(canon.real))) {
    for (const r of roots.roots.slice(1)) {
      const abs = path.resolve(r.configured, parsed.path);
      const c = await canonical(abs);
      if (c.exists && !c.problem && roots.containsReal(c.real)) {
        absolute = abs;
        canon = c;
        break;
      }
    }
  }

  if (canon.problem) {
    if (!roots.containsReal(canon.problem.at)) throw outsideError(roots, input, absolute, relative);
    const msg =
      canon.problem.kind === 'loop'
        ? `Too many levels of symbolic links in ${quote(input)} (a symlink loop?).`
        : `Permission denied while resolving ${quote(input)}.`;
    throw new PathError('invalid', input, msg);
  }
  const root = roots.rootOf(canon.real);
  if (!root) throw outsideError(roots, input, absolute, relative);
  // A backslash path that exists is a real POSIX name; one that does not was meant as a Windows path.
  if (!canon.exists && parsed.hasBackslash) throw backslashError(input);
  if (opts.mustExist && !canon.exists) {
    const where = relative ? ` (resolved to ${quote(absolute)})` : '';
    throw new PathError(
      'not_found',
      input,
      `${quote(input)}${where} does not exist.${relative ? relativeHint(roots) : ''}`,
    );
  }
  return { input, absolute, real: canon.real, exists: canon.exists, root };
}
