// The bin launcher (`refmcp-bundle --bin`): a bundle built exactly as the servers' are, run as a host
// runs it, with its code cache in a private directory of this test.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BUNDLER = fileURLToPath(new URL('../bundle.mjs', import.meta.url));
const root = await mkdtemp(join(tmpdir(), 'refmcp-launch-'));
const pkg = join(root, 'pkg');
afterAll(() => rm(root, { recursive: true, force: true }));

/** Runs the built bin with HOME, XDG_CACHE_HOME and TMPDIR inside this test's directory. */
async function start(env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, [join(pkg, 'dist/index.js'), 'hello'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: join(root, 'home'),
      XDG_CACHE_HOME: join(root, 'xdg'),
      TMPDIR: join(root, 'tmp'),
      ...env,
    },
  });
  return JSON.parse(stdout) as { arg: string; url: string; cjs: boolean; sum: number };
}

/** The cache files (name → inode) of one cache directory. */
async function cacheFiles(dir: string): Promise<Map<string, number>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return new Map(await Promise.all(names.map(async (n) => [n, (await stat(join(dir, n))).ino] as const)));
}

/** The one cache file of `dir`: its name and inode. */
async function onlyCacheFile(dir: string): Promise<[string, number]> {
  const files = [...(await cacheFiles(dir))];
  expect(files).toHaveLength(1);
  return files[0] as [string, number];
}

beforeAll(async () => {
  await mkdir(join(pkg, 'src'), { recursive: true });
  for (const d of ['home', 'xdg', 'tmp']) await mkdir(join(root, d));
  // Top-level code, a lazily compiled function and import.meta.url, built with --v8-flags as servers are.
  await writeFile(
    join(pkg, 'src/index.ts'),
    `     const sum = (n: number) => { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; };
     process.stdout.write(JSON.stringify({
       arg: process.argv[2], url: import.meta.url, sum: sum(100),
       cjs: typeof require === 'function',
     }));`,
  );
  await run(process.execPath, [BUNDLER, '--bin', 'src/index.ts', '--v8-flags=--liftoff-only'], { cwd: pkg });
}, 60_000);

describe('bin launcher with a code cache', () => {
  const xdgCache = join(root, 'xdg', 'refmcp');

  it('runs the CommonJS bundle with its arguments and its own file URL as import.meta.url', async () => {
    const out = await start();
    expect(out).toEqual({
      arg: 'hello',
      url: `file://${join(pkg, 'dist/server.cjs')}`,
      sum: 5050,
      cjs: true,
    });
    expect([...(await cacheFiles(xdgCache)).keys()]).toEqual([
      expect.stringMatching(/^[0-9a-f]{16}-[0-9a-f]{32}\.bin$/),
    ]);
    expect((await stat(xdgCache)).mode & 0o777).toBe(0o700);
  });

  it('reuses the cache on the next start (the file is not rewritten)', async () => {
    const before = await cacheFiles(xdgCache);
    expect((await start()).sum).toBe(5050);
    expect(await cacheFiles(xdgCache)).toEqual(before);
  });

  it('replaces a corrupt cache file and still runs', async () => {
    const [name, inode] = await onlyCacheFile(xdgCache);
    await writeFile(join(xdgCache, name), Buffer.alloc(4096, 7));
    expect((await start()).sum).toBe(5050);
    const after = await cacheFiles(xdgCache);
    expect(after.get(name)).toBeDefined();
    expect(after.get(name)).not.toBe(inode);
    expect((await readFile(join(xdgCache, name))).equals(Buffer.alloc(4096, 7))).toBe(false);
  });

  it('never reads or writes a directory others can write: the next safe one is used', async () => {
    await chmod(xdgCache, 0o777);
    try {
      const [name] = await onlyCacheFile(xdgCache);
      await writeFile(join(xdgCache, name), Buffer.alloc(4096, 7));
      expect((await start()).sum).toBe(5050);
      expect((await readFile(join(xdgCache, name))).equals(Buffer.alloc(4096, 7))).toBe(true);
      expect((await cacheFiles(join(root, 'home', '.cache', 'refmcp'))).size).toBe(1);
    } finally {
      await chmod(xdgCache, 0o700);
    }
  });

  it('writes nothing with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    await rm(join(root, 'xdg'), { recursive: true });
    await rm(join(root, 'home', '.cache'), { recursive: true });
    expect((await start({ NODE_DISABLE_COMPILE_CACHE: '1' })).sum).toBe(5050);
    expect(await readdir(root)).not.toContain('xdg');
    expect(await readdir(join(root, 'home'))).toEqual([]);
    expect(await readdir(join(root, 'tmp'))).toEqual([]);
  });
});
