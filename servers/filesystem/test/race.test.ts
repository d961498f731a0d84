/**
 * Breaker finding 1: list_directory / list_directory_with_sizes / directory_tree must never show the entries of a
 * directory outside the allowed ones, whatever a local process swaps meanwhile. `sw` (a directory inside) is
 * swapped with `alt` (a symlink to outside): deterministically from inside the read (and back inside the re-check
 * the old code made), then with a real renameat2(RENAME_EXCHANGE) swapper. Also: walks keep a bounded number of
 * directories pinned and let go of all of them.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '@refmcp/test-harness';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readListing } from '../src/listing.js';
import { buildTreePage } from '../src/tree.js';
import { MAX_HELD, READ_AHEAD, type WalkEntry, Walker } from '../src/walk.js';

const linux = process.platform === 'linux';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

interface Fixture {
  allowed: string;
  outside: string;
  contains(real: string): boolean;
  out(): void;
  back(): void;
}

async function fixture(): Promise<Fixture> {
  const a = await tempDir('refmcp-race-');
  const b = await tempDir('refmcp-race-outside-');
  cleanups.push(a.cleanup, b.cleanup);
  const allowed = a.dir;
  const outside = b.dir;
  mkdirSync(join(allowed, 'sw'));
  writeFileSync(join(allowed, 'sw', 'inside.txt'), 'inside');
  writeFileSync(join(outside, 'secret.txt'), 'SECRET');
  mkdirSync(join(outside, 'secret-dir'));
  await fs.symlink(outside, join(allowed, 'alt'));
  const sw = join(allowed, 'sw');
  const alt = join(allowed, 'alt');
  let swapped = false;
  const exchange = () => {
    renameSync(sw, `${sw}.x`);
    renameSync(alt, sw);
    renameSync(`${sw}.x`, alt);
    swapped = !swapped;
  };
  return {
    allowed,
    outside,
    contains: (real) => real === allowed || real.startsWith(`${allowed}/`),
    out: () => {
      if (!swapped) exchange();
    },
    back: () => {
      if (swapped) exchange();
    },
  };
}

/**
 * Swap in every directory read (but a read of the allowed directory by its path), back in every realpath: the
 * interleaving that beat the old re-check.
 */
function swapAroundReads(f: Fixture): void {
  const readdir = fs.readdir;
  const realpath = fs.realpath;
  vi.spyOn(fs, 'readdir').mockImplementation(((...args: Parameters<typeof fs.readdir>) => {
    if (args[0] !== f.allowed) f.out();
    return readdir(...args);
  }) as typeof fs.readdir);
  vi.spyOn(fs, 'realpath').mockImplementation(((...args: Parameters<typeof fs.realpath>) => {
    f.back();
    return realpath(...args);
  }) as typeof fs.realpath);
}

const OUTSIDE_NAMES = ['secret.txt', 'secret-dir'];

describe('listing a directory swapped for a symlink to outside (finding 1)', () => {
  it.runIf(linux)(
    'list_directory(_with_sizes) shows the pinned directory or refuses, never outside',
    async () => {
      for (const withSizes of [false, true]) {
        const f = await fixture();
        swapAroundReads(f);
        const outcome = await readListing(join(f.allowed, 'sw'), { withSizes, contains: f.contains }).catch(
          (e: unknown) => e,
        );
        vi.restoreAllMocks();
        f.back();
        if (outcome instanceof Error) expect(outcome.message).toContain('changed');
        else {
          const names = (outcome as Awaited<ReturnType<typeof readListing>>).entries.map((e) => e.name);
          for (const n of OUTSIDE_NAMES) expect(names).not.toContain(n);
          expect(names).toEqual(['inside.txt']);
        }
      }
    },
  );

  it.runIf(linux)(
    'a walk (directory_tree) never descends into outside through a swapped directory',
    async () => {
      const f = await fixture();
      swapAroundReads(f);
      const entries: WalkEntry[] = [];
      for await (const e of new Walker(f.allowed, { contains: f.contains })) entries.push(e);
      const page = await buildTreePage(f.allowed, {
        contains: f.contains,
        maxDepth: 8,
        exclude: () => false,
        maxEntries: 100,
        maxBytes: 100_000,
      });
      vi.restoreAllMocks();
      f.back();
      const names = entries.map((e) => e.name);
      for (const n of OUTSIDE_NAMES) {
        expect(names).not.toContain(n);
        expect(JSON.stringify(page.tree)).not.toContain(n);
      }
    },
  );

  it.runIf(linux)(
    'a real race (renameat2 RENAME_EXCHANGE swapper): listings and walks never show outside entries',
    async () => {
      const f = await fixture();
      const swapper = startSwapper(join(f.allowed, 'sw'), join(f.allowed, 'alt'));
      if (!swapper) return;
      const seen = new Set<string>();
      let calls = 0;
      try {
        await swapper.ready;
        const until = performance.now() + 1500;
        while (performance.now() < until) {
          calls++;
          for (const withSizes of [false, true]) {
            const listing = await readListing(join(f.allowed, 'sw'), {
              withSizes,
              contains: f.contains,
            }).catch(() => undefined);
            for (const e of listing?.entries ?? []) seen.add(e.name);
          }
          for await (const e of new Walker(f.allowed, { contains: f.contains })) seen.add(e.name);
        }
      } finally {
        await swapper.stop();
      }
      expect(calls).toBeGreaterThan(10);
      for (const n of OUTSIDE_NAMES) expect([...seen]).not.toContain(n);
    },
    10_000,
  );
});

describe('pins held by walks', () => {
  const openFds = () => readdirSync('/proc/self/fd').length;

  it.runIf(linux)(
    `a deep walk keeps at most ${MAX_HELD} + ${READ_AHEAD} directories pinned and lets go of all of them`,
    async () => {
      const { dir, cleanup } = await tempDir('refmcp-deep-');
      cleanups.push(cleanup);
      // A chain 100 levels deep; at every level a file, a side directory before the chain and one after it
      // (so the walk comes back to directories whose pins were let go), and a symlink after it.
      const expected: string[] = [];
      const build = (p: string, rel: string, level: number) => {
        const at = rel ? `${rel}/` : '';
        writeFileSync(join(p, 'f.txt'), '');
        mkdirSync(join(p, 'side'));
        writeFileSync(join(p, 'side', 'x.txt'), '');
        expected.push(`${at}f.txt`, `${at}side`, `${at}side/x.txt`);
        if (level < 100) {
          mkdirSync(join(p, 'z'));
          expected.push(`${at}z`);
          build(join(p, 'z'), `${at}z`, level + 1);
        }
        mkdirSync(join(p, 'zz'));
        writeFileSync(join(p, 'zz', 'y.txt'), '');
        symlinkSync('f.txt', join(p, 'zzl'));
        expected.push(`${at}zz`, `${at}zz/y.txt`, `${at}zzl`);
      };
      build(dir, '', 1);
      const before = openFds();
      let peak = 0;
      const contains = (real: string) => real === dir || real.startsWith(`${dir}/`);
      const walk = new Walker(dir, {
        contains,
        enterDirectory: () => {
          peak = Math.max(peak, openFds());
        },
      });
      const seen: string[] = [];
      for await (const e of walk) seen.push(e.rel);
      expect(seen).toEqual(expected);
      expect(walk.stats.unreadable).toBe(0);
      expect(peak - before).toBeLessThanOrEqual(MAX_HELD + READ_AHEAD + 2);
      await new Promise((r) => setTimeout(r, 50)); // read-ahead pins are let go when their reads end
      expect(openFds()).toBe(before);

      // A walk stopped early lets go of its pins too.
      const stopped = new Walker(dir, { contains });
      let n = 0;
      await stopped.each(() => ++n < 150);
      for await (const e of new Walker(dir, { contains })) if (e.depth > 50) break;
      await new Promise((r) => setTimeout(r, 50));
      expect(openFds()).toBe(before);
    },
    20_000,
  );
});

/** A python3 process swapping `a` and `b` with renameat2(RENAME_EXCHANGE) in a tight loop (≤ 5 s), or null. */
function startSwapper(a: string, b: string): { ready: Promise<void>; stop(): Promise<void> } | null {
  if (spawnSync('python3', ['-c', 'pass']).status !== 0) return null;
  const script = [
    'import ctypes, os, sys, time',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])',
    'ex = getattr(libc, "renameat2", None)',
    'swap = (lambda: ex(-100, a, -100, b, 2)) if ex else (lambda: libc.syscall(316, -100, a, -100, b, 2))',
    'end = time.time() + 5',
    'print("go", flush=True)',
    'while time.time() < end:',
    '    for _ in range(1000):',
    '        swap()',
  ].join('\n');
  const child: ChildProcess = spawn('python3', ['-c', script, a, b], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('error', reject);
  });
  return {
    ready,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      if ((await fs.lstat(a)).isSymbolicLink()) {
        renameSync(a, `${a}.x`);
        renameSync(b, a);
        renameSync(`${a}.x`, b);
      }
    },
  };
}
