/**
 * Unit tests of the shared walker and the rules it is driven with (globs, .gitignore), on real temp
 * directories, without MCP.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@refmcp/test-harness';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excluder, includer, isGlob, namePattern } from '../src/globs.js';
import { GitignoreRules } from '../src/ignore-rules.js';
import { type WalkEntry, Walker, type WalkOptions } from '../src/walk.js';
import { makeGrid, writeTree } from './fixtures/trees.js';

let root: string;
let outside: string;
let cleanups: (() => Promise<void>)[] = [];

const inside = (real: string) => real === root || real.startsWith(`${root}/`);

async function collect(
  start: string,
  opts: Partial<WalkOptions> = {},
): Promise<{ entries: WalkEntry[]; walker: Walker }> {
  const walker = new Walker(start, { contains: inside, ...opts });
  const entries: WalkEntry[] = [];
  for await (const e of walker) entries.push(e);
  return { entries, walker };
}

beforeAll(async () => {
  const a = await tempDir('refmcp-walk-');
  const b = await tempDir('refmcp-walk-outside-');
  cleanups = [a.cleanup, b.cleanup];
  root = a.dir;
  outside = b.dir;
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  makeGrid(root, { depth: 3, width: 3, filesPerDir: 2 });
  symlinkSync(outside, join(root, 'd0', 'to-outside'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link'));
  symlinkSync(join(root, 'd1'), join(root, 'd2', 'to-d1'));
  symlinkSync(join(root, 'nowhere'), join(root, 'dangling'));
  execFileSync('mkfifo', [join(root, 'd1', 'pipe')]);
});

afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('Walker', () => {
  it('walks depth-first in name order, deterministically', async () => {
    const first = (await collect(root)).entries.map((e) => e.rel);
    const second = (await collect(root)).entries.map((e) => e.rel);
    expect(first).toEqual(second);
    expect(first.slice(0, 5)).toEqual(['d0', 'd0/d0', 'd0/d0/f0.txt', 'd0/d0/f1.txt', 'd0/d1']);
    // Siblings are in code-unit order and every directory precedes its contents.
    const index = new Map(first.map((r, i) => [r, i]));
    for (const rel of first) {
      const parent = rel.split('/').slice(0, -1).join('/');
      if (parent) expect(index.get(parent)).toBeLessThan(index.get(rel) as number);
    }
  });

  it('skips symlinks leading outside (and dangling ones), never following them', async () => {
    const { entries, walker } = await collect(root);
    const rels = entries.map((e) => e.rel);
    expect(rels).not.toContain('d0/to-outside');
    expect(rels).not.toContain('secret-link');
    expect(rels).not.toContain('dangling');
    expect(rels.some((r) => r.includes('secret.txt'))).toBe(false);
    expect(walker.stats.skippedLinks).toBe(3);
  });

  it('reports a symlink inside as a symlink with its target kind, without descending into it', async () => {
    const { entries } = await collect(root);
    const link = entries.find((e) => e.rel === 'd2/to-d1');
    expect(link).toMatchObject({ kind: 'symlink', target: 'directory' });
    expect(entries.some((e) => e.rel.startsWith('d2/to-d1/'))).toBe(false);
  });

  it('reports a FIFO as "other" without opening it (the walk does not hang)', async () => {
    const { entries } = await collect(root);
    expect(entries.find((e) => e.rel === 'd1/pipe')).toMatchObject({ kind: 'other' });
  });

  it('resumes after any entry with no duplicates and nothing lost (cursor contract)', async () => {
    const all = (await collect(root)).entries.map((e) => e.rel);
    for (const cut of [0, 1, 7, 20, all.length - 2]) {
      const after = all[cut] as string;
      const rest = (await collect(root, { after })).entries.map((e) => e.rel);
      expect([...all.slice(0, cut + 1), ...rest]).toEqual(all);
      const inclusive = (await collect(root, { after, inclusive: true })).entries.map((e) => e.rel);
      expect(inclusive).toEqual(all.slice(cut));
    }
  });

  it('resumes correctly when the resume entry was deleted meanwhile', async () => {
    const all = (await collect(root)).entries.map((e) => e.rel);
    const rest = (await collect(root, { after: 'd0/d1/zz-vanished' })).entries.map((e) => e.rel);
    // Everything below d0/d1 sorts before "zz-vanished"; the walk resumes at d0/d1's next sibling.
    expect(rest).toEqual(all.slice(all.indexOf('d0/d2')));
  });

  it('honours maxDepth, marking directories it did not expand', async () => {
    const { entries, walker } = await collect(root, { maxDepth: 1 });
    expect(entries.every((e) => e.depth === 1)).toBe(true);
    expect(entries.filter((e) => e.kind === 'directory').every((e) => e.depthLimited)).toBe(true);
    expect(walker.stats.depthLimited).toBe(3);
  });

  it('prunes a directory and everything below it', async () => {
    const { entries } = await collect(root, { prune: (e) => e.rel === 'd0' });
    expect(entries.some((e) => e.rel === 'd0' || e.rel.startsWith('d0/'))).toBe(false);
    expect(entries.some((e) => e.rel.startsWith('d1/'))).toBe(true);
  });

  it('stops at the deadline with a partial result flagged timedOut', async () => {
    const { entries, walker } = await collect(root, { deadline: performance.now() - 1 });
    expect(walker.stats.timedOut).toBe(true);
    expect(walker.stats.complete).toBe(false);
    expect(entries.length).toBe(0);
  });

  it('ALL-05: a deadline passing after the last entry leaves the walk complete, not timed out', async () => {
    const all = (await collect(root)).entries.map((e) => e.rel);
    const walker = new Walker(root, { contains: inside, deadline: performance.now() + 60_000 });
    const seen: string[] = [];
    await walker.each((e) => {
      seen.push(e.rel);
      if (seen.length === all.length)
        (walker.options as { deadline?: number }).deadline = performance.now() - 1;
      return true;
    });
    expect(seen).toEqual(all);
    expect(walker.stats.complete).toBe(true);
    expect(walker.stats.timedOut).toBe(false); // a timeout here would send a cursor to an empty page
  });

  it('each hands out what the iterator does, stops when asked and counts what is left', async () => {
    const all = (await collect(root)).entries.map((e) => e.rel);
    const walker = new Walker(root, { contains: inside });
    const seen: string[] = [];
    await walker.each((e) => {
      seen.push(e.rel);
      return seen.length < 10;
    });
    expect(seen).toEqual(all.slice(0, 10));
    expect(walker.stats.visited).toBe(10);
    expect(walker.stats.last).toBe(all[9]);
    expect(walker.stats.complete).toBe(false);
    expect(walker.pendingCount()).toBeGreaterThan(0);
  });

  it('yields to the event loop during a long walk', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    // Slow each directory down so the walk spans many event-loop turns.
    const { walker } = await collect(root, {
      enterDirectory: async () => {
        const until = performance.now() + 3;
        while (performance.now() < until) {
          /* busy: simulates slow synchronous work between awaits */
        }
      },
    });
    clearInterval(timer);
    expect(walker.stats.complete).toBe(true);
    expect(ticks).toBeGreaterThan(3);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const walker = new Walker(root, { contains: inside, signal: controller.signal });
    let n = 0;
    for await (const _ of walker) {
      if (++n === 5) controller.abort();
    }
    expect(walker.stats.aborted).toBe(true);
    expect(n).toBe(5);
  });
});

describe('globs', () => {
  it('excludes like the official directory_tree: bare names anywhere, globs as given', () => {
    const ex = excluder(['node_modules', '*.log']);
    expect(ex('node_modules')).toBe(true);
    expect(ex('a/b/node_modules')).toBe(true);
    expect(ex('a/node_modules/x/y.js')).toBe(true);
    expect(ex('x.log')).toBe(true);
    expect(ex('a/x.log')).toBe(false); // "*.log" is a glob: top level only, as minimatch does
    expect(ex('node_modules_backup')).toBe(false);
    expect(excluder(['**/*.log'])('a/b/x.log')).toBe(true);
  });

  it('matches search_files patterns like the official server (glob on the relative path, dot files included)', () => {
    expect(namePattern('*.ts')('a.ts', 'a.ts')).toBe(true);
    expect(namePattern('*.ts')('src/a.ts', 'a.ts')).toBe(false);
    expect(namePattern('**/*.ts')('src/a.ts', 'a.ts')).toBe(true);
    expect(namePattern('**/*.env')('x/.env', '.env')).toBe(true);
    expect(namePattern('README')('docs/readme.md', 'readme.md')).toBe(true); // substring, case-insensitive
    expect(namePattern('README')('readme/x.md', 'x.md')).toBe(false); // names, not parent directories
    expect(isGlob('a.txt')).toBe(false);
    expect(isGlob('a?.txt')).toBe(true);
  });

  it('answers "**/name" by comparing names exactly as picomatch would on the relative path', () => {
    const rels = [
      'needle.txt',
      'a/needle.txt',
      'a/b/.c/needle.txt',
      '.x/needle.txt',
      'needle.txt/inner',
      'a/xneedle.txt',
      'a/needle.txt.bak',
      'a/Needle.txt',
      'a/needle_txt',
      'a\\needle.txt',
      '**/needle.txt',
    ];
    for (const pattern of ['**/needle.txt', './**/needle.txt', '**/.env', '**/a-b_c.d']) {
      const reference = picomatch(pattern.replace(/^\.\/+/, ''), { dot: true });
      const fast = namePattern(pattern);
      for (const rel of [...rels, 'x/.env', '.env', 'a-b_c.d', 'q/a-b_c.d', 'q/a-b_cxd']) {
        expect(fast(rel, rel.slice(rel.lastIndexOf('/') + 1)), `${pattern} vs ${rel}`).toBe(reference(rel));
      }
    }
  });

  it('includes by file name for globs without a slash, by path otherwise', () => {
    expect(includer(['*.ts'])('deep/er/x.ts')).toBe(true);
    expect(includer(['src/**/*.ts'])('lib/x.ts')).toBe(false);
    expect(includer(['src/**/*.ts'])('src/a/x.ts')).toBe(true);
    expect(includer([])('anything')).toBe(true);
  });
});

describe('GitignoreRules', () => {
  let repo: string;
  beforeAll(async () => {
    const t = await tempDir('refmcp-ignore-');
    cleanups.push(t.cleanup);
    repo = t.dir;
    writeTree(repo, {
      '.gitignore': '*.log\nbuild/\n!keep.log\n',
      'sub/.gitignore': '*.tmp\n!important.log\n',
      'sub/deeper/x.txt': 'x',
    });
    mkdirSync(join(repo, '.git'));
  });

  const entry = (rel: string, kind: WalkEntry['kind'] = 'file') => ({
    rel,
    name: rel.split('/').pop() as string,
    kind,
  });

  it('applies nested files with git precedence (deeper wins, negation re-includes)', async () => {
    const rules = new GitignoreRules();
    await rules.enter('', repo);
    await rules.enter('sub', join(repo, 'sub'));
    expect(rules.ignores(entry('a.log'))).toBe(true);
    expect(rules.ignores(entry('keep.log'))).toBe(false);
    expect(rules.ignores(entry('build', 'directory'))).toBe(true);
    expect(rules.ignores(entry('build'))).toBe(false); // "build/" matches directories only
    expect(rules.ignores(entry('sub/a.tmp'))).toBe(true);
    expect(rules.ignores(entry('a.tmp'))).toBe(false);
    expect(rules.ignores(entry('sub/important.log'))).toBe(false);
    expect(rules.ignores(entry('sub/other.log'))).toBe(true);
    expect(rules.ignores(entry('.git', 'directory'))).toBe(true);
  });

  it('loads the rules of the directories above the walk start', async () => {
    const rules = await GitignoreRules.forWalk(join(repo, 'sub', 'deeper'), repo);
    expect(rules.ignores(entry('x.log'))).toBe(true); // repo/.gitignore: *.log
    expect(rules.ignores(entry('y.tmp'))).toBe(true); // repo/sub/.gitignore: *.tmp
    expect(rules.ignores(entry('x.txt'))).toBe(false);
  });

  it('never reads a .gitignore that is a symlink', async () => {
    const t = await tempDir('refmcp-ignore-link-');
    cleanups.push(t.cleanup);
    writeFileSync(join(outside, 'evil-ignore'), '*\n');
    symlinkSync(join(outside, 'evil-ignore'), join(t.dir, '.gitignore'));
    const rules = new GitignoreRules();
    await rules.enter('', t.dir);
    expect(rules.ignores(entry('anything.txt'))).toBe(false);
  });
});
