import type { Stats } from 'node:fs';
import path from 'node:path';
import { errnoOf } from './errors.js';
import { fs } from './fs-names.js';
import { MAX_NAME_BYTES } from './input.js';

/** Symlinks followed in one resolution before we call it a loop (Linux's MAXSYMLINKS). */
export const MAX_SYMLINKS = 40;

/** What {@link canonicalize} found. */
export interface Canonical {
  /** Realpath if the path exists, else realpath(nearest existing ancestor) + the remaining segments. */
  real: string;
  exists: boolean;
  /**
   * Set when the walk could not finish: `at` is the real path of the entry that stopped it, so the caller can
   * check containment of `at` first and not leak anything about paths outside the roots.
   */
  problem?: { kind: 'loop' | 'denied'; at: string };
}

/**
 * True when `child` equals `parent` or lies below it, compared by path segments (never by string prefix:
 * `/tmp/allowed_secrets` is not within `/tmp/allowed`). Both must be absolute and normalised.
 */
export function isWithin(child: string, parent: string): boolean {
  if (parent === '/') return child.startsWith('/');
  return child === parent || child.startsWith(`${parent}/`);
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/**
 * Find an entry of `dir` whose name is `wanted` in another Unicode normalisation form (NFC vs NFD),
 * because macOS and some tools store names decomposed while models type them composed.
 * Returns the stored name, or null. Only runs after an exact lookup missed.
 */
async function findEquivalentName(dir: string, wanted: string): Promise<string | null> {
  const nfc = wanted.normalize('NFC');
  const nfd = wanted.normalize('NFD');
  if (nfc === wanted && nfd === wanted) return null; // nothing to normalise (e.g. plain ASCII)
  for (const form of [nfc, nfd]) {
    // A decomposed spelling can be longer than a name may be (ENAMETOOLONG): it cannot exist then.
    if (Buffer.byteLength(form) > MAX_NAME_BYTES) continue;
    if (form !== wanted && (await lstatOrNull(path.join(dir, form)))) return form;
  }
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return null;
  }
  return names.find((n) => n.normalize('NFC') === nfc) ?? null;
}

/** Canonicalisations restarted after the path changed under the walk, before giving up with {@link PathChangedError}. */
const RACE_RETRIES = 4;

/**
 * The path kept changing while it was being canonicalised (an entry lstat'ed as a symlink was no longer one,
 * or had vanished, when its target was read). Callers word it as "changed while it was being used; retry".
 */
export class PathChangedError extends Error {
  override readonly name = 'PathChangedError';
}

/** Thrown inside one walk when the entry it looks at changed between lstat and readlink. */
class Raced extends Error {}

/**
 * Canonicalise an absolute, lexically normalised path by walking it one segment at a time with lstat:
 * symlinks are followed (relative targets against the link's directory, `..` in targets applied physically),
 * missing segments are looked up under NFC/NFD spellings, and the first segment that still does not exist
 * ends the walk (the rest is appended as given). A dangling final symlink yields its target's path.
 * `followFinal: false` keeps a final symlink itself (for operations on the entry: move, delete).
 * Throws {@link PathChangedError} when the path kept changing under the walk (it is restarted a few times
 * first), else only for unexpected fs errors; loops and permission problems are reported in `problem`.
 */
export async function canonicalize(absolute: string, opts: { followFinal: boolean }): Promise<Canonical> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await canonicalizeOnce(absolute, opts);
    } catch (error) {
      if (!(error instanceof Raced)) throw error;
      if (attempt >= RACE_RETRIES) {
        throw new PathChangedError(`${absolute} changed while it was being resolved`);
      }
    }
  }
}

async function canonicalizeOnce(absolute: string, opts: { followFinal: boolean }): Promise<Canonical> {
  if (opts.followFinal) {
    // Fast path: the path exists as spelled.
    try {
      return { real: await fs.realpath(absolute), exists: true };
    } catch (err) {
      const code = errnoOf(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP' && code !== 'EACCES') throw err;
    }
  }
  const pending = absolute.split('/').reverse(); // a stack: pop() yields the next segment
  let cur = '/';
  let links = 0;
  while (pending.length > 0) {
    const seg = pending.pop() as string;
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      cur = path.dirname(cur); // cur has no symlinks in it, so the lexical parent is the physical one
      continue;
    }
    const isFinal = pending.every((s) => s === '' || s === '.');
    let name = seg;
    let st: Stats | null;
    try {
      st = await lstatOrNull(path.join(cur, name));
      if (!st) {
        const alt = await findEquivalentName(cur, seg);
        if (alt !== null) {
          name = alt;
          st = await lstatOrNull(path.join(cur, name));
        }
      }
    } catch (err) {
      if (errnoOf(err) === 'EACCES') {
        return {
          real: path.join(cur, seg),
          exists: false,
          problem: { kind: 'denied', at: path.join(cur, seg) },
        };
      }
      throw err;
    }
    const next = path.join(cur, name);
    if (!st) {
      return { real: path.join(next, ...pending.reverse()), exists: false };
    }
    if (st.isSymbolicLink() && (!isFinal || opts.followFinal)) {
      if (++links > MAX_SYMLINKS) return { real: next, exists: false, problem: { kind: 'loop', at: next } };
      let target: string;
      try {
        target = await fs.readlink(next);
      } catch (err) {
        // EINVAL: no longer a symlink; ENOENT/ENOTDIR: gone. It changed since the lstat: walk again.
        const code = errnoOf(err);
        if (code === 'EINVAL' || code === 'ENOENT' || code === 'ENOTDIR') throw new Raced();
        throw err;
      }
      if (target.startsWith('/')) cur = '/';
      pending.push(...target.split('/').reverse());
      continue;
    }
    if (!isFinal && !st.isDirectory()) {
      // A file where a directory is needed: the path cannot exist.
      return { real: path.join(next, ...pending.reverse()), exists: false };
    }
    cur = next;
  }
  return { real: cur, exists: true };
}
