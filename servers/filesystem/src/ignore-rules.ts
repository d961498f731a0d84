/**
 * `.gitignore` rules for a walk: the files in the start directory's ancestors (up to its allowed
 * root) and in every directory the walk enters, each applying to paths below its own directory,
 * deeper files overriding shallower ones (git's precedence). `.git` directories are always
 * skipped. Rule files are read only if they are regular files (never through a symlink) under 1 MiB.
 * Not covered: `.git/info/exclude` and the user's global excludes file.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pathFs as fs } from '@refmcp/shared/paths';
import ignore, { type Ignore } from 'ignore';
import type { WalkEntry } from './walk.js';

const MAX_RULES_BYTES = 1024 * 1024;

/** Reads a rules file if it is a regular, non-symlink file of sane size; undefined otherwise. */
async function readRulesFile(file: string): Promise<string | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = await handle.stat();
    if (!st.isFile() || st.size > MAX_RULES_BYTES) return undefined;
    return await handle.readFile('utf8');
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => {});
  }
}

interface Scope {
  ig: Ignore;
  /** How a walk-relative path is spelled relative to this scope's directory. */
  toScope(rel: string): string;
}

export class GitignoreRules {
  /** Scopes above the walk start (outermost first). */
  #outer: Scope[] = [];
  /** Scopes inside the walk, by walk-relative directory ('' = the start). */
  #inner = new Map<string, Ignore>();

  /**
   * Loads the rules of the directories between `rootReal` (the allowed root, included) and
   * `startReal` (excluded: the walk loads it when it enters it).
   */
  static async forWalk(startReal: string, rootReal: string): Promise<GitignoreRules> {
    const rules = new GitignoreRules();
    const fromRoot = path.relative(rootReal, startReal);
    if (!fromRoot || fromRoot.startsWith('..')) return rules;
    const segments = fromRoot.split(path.sep);
    for (let i = 0; i < segments.length; i++) {
      const dir = path.join(rootReal, ...segments.slice(0, i));
      const text = await readRulesFile(path.join(dir, '.gitignore'));
      if (text === undefined) continue;
      const prefix = segments.slice(i).join('/');
      rules.#outer.push({ ig: ignore().add(text), toScope: (rel) => `${prefix}/${rel}` });
    }
    return rules;
  }

  /**
   * Loads `<dir>/.gitignore` as the walk enters `dirRel` (walker `enterDirectory` hook); `at` reaches the
   * directory being walked (its pin, `/proc/self/fd/N`, in pinned walks), so the file read is the one in it.
   */
  async enter(dirRel: string, dirReal: string, at = dirReal): Promise<void> {
    const text = await readRulesFile(`${at}/.gitignore`);
    if (text !== undefined) this.#inner.set(dirRel, ignore().add(text));
  }

  /** True when git would ignore the entry (its parents are assumed not ignored: the walk prunes them). */
  ignores(entry: Pick<WalkEntry, 'rel' | 'name' | 'kind' | 'target'>): boolean {
    if (entry.name === '.git') return true;
    const isDir = entry.kind === 'directory' || (entry.kind === 'symlink' && entry.target === 'directory');
    const suffix = isDir ? '/' : '';
    let ignored = false;
    const apply = (ig: Ignore, p: string) => {
      const result = ig.test(p + suffix);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    };
    for (const scope of this.#outer) apply(scope.ig, scope.toScope(entry.rel));
    const segments = entry.rel.split('/');
    for (let i = 0; i < segments.length; i++) {
      const dirRel = segments.slice(0, i).join('/');
      const ig = this.#inner.get(dirRel);
      if (ig) apply(ig, segments.slice(i).join('/'));
    }
    return ignored;
  }
}
