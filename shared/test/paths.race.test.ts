/**
 * Check-then-use races of writes, mkdir, moves and resolution (breaker findings 2, 3 and 5): a directory `sw` inside
 * the root is swapped with a symlink `alt -> outside` at the worst moment. The deterministic tests swap from inside
 * the fs call that creates something (and swap back in the call that cleans up), which is exactly the interleaving
 * the breaker hit; a short real race with a renameat2(RENAME_EXCHANGE) swapper follows.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AllowedRoots, mkdirInside, moveInside, PathError, writeFileAtomic } from '../src/paths/index.js';
import { rejects } from './paths-support.js';

const linux = process.platform === 'linux';
const made: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const d of made.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

interface Swap {
  allowed: string;
  outside: string;
  roots: AllowedRoots;
  /** Swap `sw` (a directory) and `alt` (a symlink to outside), if not swapped yet. */
  out(): void;
  /** Swap them back, if swapped. */
  back(): void;
}

async function fixture(): Promise<Swap> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'refmcp-race-')));
  made.push(base);
  const allowed = path.join(base, 'allowed');
  const outside = path.join(base, 'outside');
  await fs.mkdir(path.join(allowed, 'sw'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(allowed, 'sw', 'inside.txt'), 'inside');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'SECRET');
  await fs.symlink(outside, path.join(allowed, 'alt'));
  const sw = path.join(allowed, 'sw');
  const alt = path.join(allowed, 'alt');
  let swapped = false;
  // Three renames: the same end state as renameat2(RENAME_EXCHANGE), synchronously inside a spied call.
  const exchange = () => {
    renameSync(sw, `${sw}.x`);
    renameSync(alt, sw);
    renameSync(`${sw}.x`, alt);
    swapped = !swapped;
  };
  return {
    allowed,
    outside,
    roots: await AllowedRoots.fromConfig([allowed]),
    out: () => {
      if (!swapped) exchange();
    },
    back: () => {
      if (swapped) exchange();
    },
  };
}

/** Every name below `dir`, recursively (relative, sorted). */
async function tree(dir: string): Promise<string[]> {
  return ((await fs.readdir(dir, { recursive: true })) as string[]).sort();
}

describe('races against a directory swapped for a symlink to outside (finding 2)', () => {
  it.runIf(linux)(
    'write_file: the temp file is created, renamed and cleaned up in the pinned parent, never outside',
    async () => {
      const s = await fixture();
      const open = fs.open;
      const rm = fs.rm;
      vi.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
        if (String(args[0]).endsWith('.tmp')) s.out(); // swapped between the parent check and the create
        return open(...args);
      });
      vi.spyOn(fs, 'rm').mockImplementation(async (...args: Parameters<typeof fs.rm>) => {
        s.back(); // and back before the cleanup
        return rm(...args);
      });
      const outcome = await writeFileAtomic(s.roots, 'sw/w1.txt', 'mine').then(
        () => 'written',
        (e: unknown) => e,
      );
      s.back();
      expect(await tree(s.outside)).toEqual(['secret.txt']);
      expect((await tree(s.allowed)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      // The pinned directory got the file (it is inside: the swap only renamed it), or the write was refused.
      if (outcome === 'written') {
        expect(await fs.readFile(path.join(s.allowed, 'sw', 'w1.txt'), 'utf8')).toBe('mine');
      } else expect(outcome).toBeInstanceOf(PathError);
    },
  );

  it.runIf(linux)('create_directory: each level is made in the pinned directory above it', async () => {
    const s = await fixture();
    const mkdir = fs.mkdir;
    const rmdir = fs.rmdir;
    vi.spyOn(fs, 'mkdir').mockImplementation(async (...args: Parameters<typeof fs.mkdir>) => {
      if (String(args[0]).endsWith('/dd1')) s.out();
      return mkdir(...args);
    });
    vi.spyOn(fs, 'rmdir').mockImplementation(async (...args: Parameters<typeof fs.rmdir>) => {
      s.back();
      return rmdir(...args);
    });
    const outcome = await mkdirInside(s.roots, 'sw/dd1/e').then(
      () => 'created',
      (e: unknown) => e,
    );
    s.back();
    expect(await tree(s.outside)).toEqual(['secret.txt']);
    if (outcome === 'created') expect((await fs.stat(path.join(s.allowed, 'sw', 'dd1', 'e'))).isDirectory());
    else expect(outcome).toBeInstanceOf(PathError);
  });

  it.runIf(linux)('move_file: the link lands in the pinned destination directory', async () => {
    const s = await fixture();
    await fs.writeFile(path.join(s.allowed, 'f.txt'), 'moved');
    const link = fs.link;
    vi.spyOn(fs, 'link').mockImplementation(async (...args: Parameters<typeof fs.link>) => {
      s.out();
      return link(...args);
    });
    const outcome = await moveInside(s.roots, 'f.txt', 'sw/g.txt').then(
      () => 'moved',
      (e: unknown) => e,
    );
    s.back();
    expect(await tree(s.outside)).toEqual(['secret.txt']);
    if (outcome === 'moved') {
      expect(await fs.readFile(path.join(s.allowed, 'sw', 'g.txt'), 'utf8')).toBe('moved');
    } else expect(outcome).toBeInstanceOf(PathError);
  });

  it.runIf(linux)(
    'a real race (renameat2 RENAME_EXCHANGE swapper): writes and mkdirs never create anything outside',
    async () => {
      const s = await fixture();
      const swapper = startSwapper(path.join(s.allowed, 'sw'), path.join(s.allowed, 'alt'));
      if (!swapper) return; // no python3 here
      const codes = new Set<string>();
      try {
        await swapper.ready;
        const until = performance.now() + 1500;
        for (let i = 0; performance.now() < until; i++) {
          const done = await Promise.allSettled([
            writeFileAtomic(s.roots, `sw/w${i}.txt`, 'x'),
            mkdirInside(s.roots, `sw/dd${i}/e`),
          ]);
          for (const d of done) {
            if (d.status === 'rejected') {
              // Refused as outside, or "changed; retry": never a raw errno or an internal error.
              expect(d.reason).toBeInstanceOf(PathError);
              codes.add((d.reason as PathError).code);
            }
          }
        }
      } finally {
        await swapper.stop();
      }
      expect(await tree(s.outside)).toEqual(['secret.txt']);
      expect((await tree(s.allowed)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    },
    10_000,
  );
});

describe('resolution while the path changes (finding 3)', () => {
  it('a symlink replaced by a directory between lstat and readlink is resolved again, not EINVAL', async () => {
    const s = await fixture();
    const ln = path.join(s.allowed, 'ln');
    await fs.symlink('sw', ln);
    const readlink = fs.readlink;
    let flips = 0;
    vi.spyOn(fs, 'readlink').mockImplementation(async (...args: Parameters<typeof fs.readlink>) => {
      if (String(args[0]) === ln && flips++ === 0) {
        await fs.rm(ln);
        await fs.mkdir(ln);
      }
      return readlink(...args);
    });
    const r = await s.roots.resolve('ln/new.txt');
    expect(r).toMatchObject({ real: path.join(ln, 'new.txt'), exists: false });
  });

  it('a path that keeps changing is "changed while it was being used; retry", never an internal error', async () => {
    const s = await fixture();
    const ln = path.join(s.allowed, 'ln');
    await fs.symlink('sw', ln);
    const readlink = fs.readlink;
    const lstat = fs.lstat;
    vi.spyOn(fs, 'lstat').mockImplementation((async (...args: Parameters<typeof fs.lstat>) => {
      if (String(args[0]) === ln && !(await lstat(ln)).isSymbolicLink()) {
        await fs.rmdir(ln);
        await fs.symlink('sw', ln);
      }
      return lstat(...args);
    }) as typeof fs.lstat);
    vi.spyOn(fs, 'readlink').mockImplementation(async (...args: Parameters<typeof fs.readlink>) => {
      if (String(args[0]) === ln) {
        await fs.rm(ln);
        await fs.mkdir(ln);
      }
      return readlink(...args);
    });
    const e = await rejects(s.roots.resolve('ln/new.txt'), 'invalid');
    expect(e.message).toContain('changed while it was being used; retry');
  });
});

describe('messages (finding 5)', () => {
  it('writing to an allowed directory itself says it is a directory', async () => {
    const s = await fixture();
    for (const target of [s.allowed, 'sw']) {
      const e = await rejects(writeFileAtomic(s.roots, target, 'x'), 'invalid');
      expect(e.message).toContain('is a directory');
      expect(e.message).not.toContain('changed');
    }
  });

  it('a name over 255 bytes is refused naming the limit, not a raw ENAMETOOLONG', async () => {
    const s = await fixture();
    const long = 'a'.repeat(256);
    for (const p of [long, `sw/${long}`, `sw/${long}/x.txt`]) {
      const e = await rejects(writeFileAtomic(s.roots, p, 'x'), 'invalid');
      expect(e.message).toContain('255 bytes');
      await rejects(s.roots.resolve(p), 'invalid');
      await rejects(mkdirInside(s.roots, p), 'invalid');
    }
    // A long name within the limit (127 two-byte characters: 254 bytes) is still fine.
    const ok = 'é'.repeat(127);
    await writeFileAtomic(s.roots, `sw/${ok}`, 'x');
    expect(await fs.readFile(path.join(s.allowed, 'sw', ok), 'utf8')).toBe('x');
  });
});

/**
 * A python3 process swapping `a` and `b` with renameat2(RENAME_EXCHANGE) in a tight loop (at most 5 s), or null
 * when python3 is missing. `ready` resolves once it swaps.
 */
function startSwapper(a: string, b: string): { ready: Promise<void>; stop(): Promise<void> } | null {
  const script = [
    'import ctypes, os, sys, time',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])',
    'ex = getattr(libc, "renameat2", None)',
    'swap = (lambda: ex(-100, a, -100, b, 2)) if ex else (lambda: libc.syscall(316, -100, a, -100, b, 2))',
    'n = 0',
    'end = time.time() + 5',
    'print("go", flush=True)',
    'while time.time() < end:',
    '    for _ in range(1000):',
    '        swap()',
    '        n += 1',
    '    sys.stdout.flush()',
    'if n % 2: swap()',
  ].join('\n');
  if (spawnSync('python3', ['-c', 'pass']).status !== 0) return null;
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
      // SIGTERM may land between two swaps: put the pair back in order by hand if needed.
      child.kill('SIGTERM');
      await exited;
      const st = await fs.lstat(a);
      if (st.isSymbolicLink()) {
        renameSync(a, `${a}.x`);
        renameSync(b, a);
        renameSync(`${a}.x`, b);
      }
    },
  };
}
