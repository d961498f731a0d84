// The bin launcher (`refmcp-bundle --bin`): a bundle built exactly as the servers' are, run as a host
// runs it, with its code cache in directories of this test (it runs as root, as CI does here).
import { execFile } from 'node:child_process';
import {
  chmod,
  chown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BUNDLER = fileURLToPath(new URL('../bundle.mjs', import.meta.url));
const REFRESH_MODULE = fileURLToPath(new URL('../src/launch/refresh.ts', import.meta.url));
const SCHEMA_STORE_MODULE = fileURLToPath(new URL('../src/launch/schema-store.ts', import.meta.url));
const NOBODY = 65534;
const root = await mkdtemp(join(tmpdir(), 'refmcp-launch-'));
const pkg = join(root, 'pkg');
const xdgCache = join(root, 'xdg', 'refmcp');
const tmpCache = join(root, 'tmp', `refmcp-${process.getuid?.()}`);
afterAll(() => rm(root, { recursive: true, force: true }));

interface Output {
  arg: string;
  url: string;
  cjs: boolean;
  strict: boolean;
  sum: number;
}

/** Runs the built bin with HOME, XDG_CACHE_HOME and TMPDIR inside this test's directory. */
async function start(env: Record<string, string> = {}, cwd = root): Promise<Output> {
  const { stdout } = await run(process.execPath, [join(pkg, 'dist/index.js'), 'hello'], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: join(root, 'home'),
      XDG_CACHE_HOME: join(root, 'xdg'),
      TMPDIR: join(root, 'tmp'),
      ...env,
    },
  });
  return JSON.parse(stdout) as Output;
}

const EXPECTED: Output = {
  arg: 'hello',
  url: `file://${join(pkg, 'dist/server.cjs')}`,
  cjs: true,
  strict: true,
  sum: 5050,
};

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
  await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: '@refmcp/launch-demo', type: 'module' }));
  // Top-level code, a lazily compiled function and import.meta.url, built with --v8-flags as servers are.
  await writeFile(
    join(pkg, 'src/index.ts'),
    `import { writeFileSync } from 'node:fs';
     import { refreshCodeCache } from ${JSON.stringify(REFRESH_MODULE)};
     import { schemaStore } from ${JSON.stringify(SCHEMA_STORE_MODULE)};
     // The schemas file (server/schema-cache.ts's store): what it held, written to $SCHEMAS; then saved.
     if (process.env.SCHEMAS) {
       const store = schemaStore();
       writeFileSync(process.env.SCHEMAS, store ? (store.load()?.toString() ?? 'empty') : 'no store');
       store?.save(Buffer.from('{"input draft-2020-12 k":"{}"}'));
     }
     const sum = (n: number) => { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; };
     const strict = (function (this: unknown) { return this === undefined; })();
     process.stdout.write(JSON.stringify({
       arg: process.argv[2], url: import.meta.url, cjs: typeof require === 'function', strict, sum: sum(100),
     }));
     // Compiled only after the top level ran, as a server's request handlers are; then the refresh.
     const later = (xs: number[]) => xs.map((x) => x * 2).filter((x) => x % 3 !== 0).reduce((a, b) => a + b, 0);
     // Alive a moment after the refresh, as a server on its stdin is: the 100 ms timer is set after
     // the refresh's own (0 ms, unref'd) save, so it runs first however late the loop gets to them.
     if (process.env.REFRESH)
       setTimeout(() => { later([1, 2, 3]); refreshCodeCache(); setTimeout(() => {}, 100); }, 0);`,
  );
  await run(process.execPath, [BUNDLER, '--bin', 'src/index.ts', '--v8-flags=--liftoff-only'], { cwd: pkg });
}, 60_000);

beforeEach(async () => {
  for (const d of ['home', 'xdg', 'tmp', 'cwd']) {
    await rm(join(root, d), { recursive: true, force: true });
    await mkdir(join(root, d));
  }
});

describe('bin launcher with a code cache', () => {
  it('runs the bundle strict, with its arguments and its own file URL as import.meta.url; saves a 0600 cache in a 0700 directory', async () => {
    expect(await start()).toEqual(EXPECTED);
    const [name] = await onlyCacheFile(xdgCache);
    expect(name).toMatch(/^refmcp\+launch-demo-[0-9a-f]{24}-[0-9a-f]{8}\.bin$/);
    expect((await stat(xdgCache)).mode & 0o777).toBe(0o700);
    expect((await stat(join(xdgCache, name))).mode & 0o777).toBe(0o600);
  });

  it('reuses the cache on the next start (the file is not rewritten)', async () => {
    await start();
    const before = await cacheFiles(xdgCache);
    expect(await start()).toEqual(EXPECTED);
    expect(await cacheFiles(xdgCache)).toEqual(before);
  });

  it('a first start saves again once the server asks (refresh.ts), with what it compiled since; later starts keep that file', async () => {
    await start();
    const [name] = await onlyCacheFile(xdgCache);
    const topLevelOnly = (await stat(join(xdgCache, name))).size;
    await rm(join(xdgCache, name));
    expect(await start({ REFRESH: '1' })).toEqual(EXPECTED);
    const [, inode] = await onlyCacheFile(xdgCache);
    expect((await stat(join(xdgCache, name))).size).toBeGreaterThan(topLevelOnly);
    // The refreshed cache is accepted: no save, and so no refresh, on the next starts.
    await start({ REFRESH: '1' });
    await start();
    expect(await onlyCacheFile(xdgCache)).toEqual([name, inode]);
  });

  it('never hands V8 a damaged file (a zeroed block crashes V8): replaces it and runs', async () => {
    await start();
    const [name, inode] = await onlyCacheFile(xdgCache);
    const bytes = await readFile(join(xdgCache, name));
    bytes.fill(0, 40, Math.min(bytes.length, 40 + 4096));
    await writeFile(join(xdgCache, name), bytes);
    expect(await start()).toEqual(EXPECTED);
    const [, after] = await onlyCacheFile(xdgCache);
    expect(after).not.toBe(inode);
  });

  it('keeps one file per Node flag set (a host and a shell with different NODE_OPTIONS do not overwrite each other)', async () => {
    await start();
    await start({ NODE_OPTIONS: '--max-old-space-size=512' });
    const both = await cacheFiles(xdgCache);
    expect(both.size).toBe(2);
    await start();
    await start({ NODE_OPTIONS: '--max-old-space-size=512' });
    expect(await cacheFiles(xdgCache)).toEqual(both);
  });

  it('a save keeps the package’s 4 newest files and deletes older ones and stale temp files, nothing else', async () => {
    await mkdir(xdgCache, { mode: 0o700 });
    const file = (n: number) => `refmcp+launch-demo-${String(n).repeat(24)}-00000000.bin`;
    const others = [
      `refmcp+launch-demo-extra-${'0'.repeat(24)}-00000000.bin`, // another package sharing the start
      'launch-demo-notes.txt',
      `${file(1)}.999.tmp`, // a temp file another start is writing now
    ];
    const staleTemp = `${file(2)}.1234.tmp`;
    for (const name of [file(1), file(2), file(3), file(4), staleTemp, ...others])
      await writeFile(join(xdgCache, name), 'x');
    for (const [name, hoursAgo] of [
      [file(1), 1],
      [file(2), 2],
      [file(3), 3],
      [file(4), 4],
      [staleTemp, 1],
    ] as const) {
      const then = new Date(Date.now() - hoursAgo * 3_600_000);
      await utimes(join(xdgCache, name), then, then);
    }
    expect(await start()).toEqual(EXPECTED);
    const names = [...(await cacheFiles(xdgCache)).keys()];
    expect(names.filter((n) => /^refmcp\+launch-demo-[0-9a-f]{24}-[0-9a-f]{8}\.bin$/.test(n))).toHaveLength(
      4,
    );
    for (const kept of [file(1), file(2), file(3)]) expect(names).toContain(kept);
    expect(names).not.toContain(file(4));
    expect(names).not.toContain(staleTemp);
    for (const name of others) expect(names).toContain(name);
  });

  it('hands the server a schemas file for this build, kept beside the code cache with the same checks', async () => {
    const seen = join(root, 'cwd', 'seen');
    expect(await start({ SCHEMAS: seen })).toEqual(EXPECTED);
    expect(await readFile(seen, 'utf8')).toBe('empty');
    const names = [...(await cacheFiles(xdgCache)).keys()];
    const schemas = names.find((n) => /^refmcp\+launch-demo-[0-9a-f]{24}-schemas\.bin$/.test(n));
    expect(schemas, names.join(', ')).toBeDefined();
    expect((await stat(join(xdgCache, schemas as string))).mode & 0o777).toBe(0o600);
    // The next start of the same build reads what the last one saved.
    await start({ SCHEMAS: seen });
    expect(await readFile(seen, 'utf8')).toBe('{"input draft-2020-12 k":"{}"}');
    // A damaged file is not handed over.
    const bytes = await readFile(join(xdgCache, schemas as string));
    bytes[bytes.length - 2] = 0x20;
    await writeFile(join(xdgCache, schemas as string), bytes);
    await start({ SCHEMAS: seen });
    expect(await readFile(seen, 'utf8')).toBe('empty');
    // No store where no code cache is used.
    await start({ SCHEMAS: seen, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(await readFile(seen, 'utf8')).toBe('no store');
  });

  it('uses no directory another user could change, and creates nothing in one (root with another user’s HOME)', async () => {
    await chown(join(root, 'home'), NOBODY, NOBODY);
    await chmod(join(root, 'xdg'), 0o777);
    expect(await start()).toEqual(EXPECTED);
    expect(await readdir(join(root, 'xdg'))).toEqual([]);
    expect(await readdir(join(root, 'home'))).toEqual([]);
    expect((await cacheFiles(tmpCache)).size).toBe(1);
  });

  it('refuses a symlink at any level it creates, even to a directory of its own', async () => {
    const elsewhere = join(root, 'cwd');
    await writeFile(join(elsewhere, 'keep.tmp'), 'x');
    await symlink(elsewhere, join(root, 'xdg', 'refmcp'));
    await mkdir(join(root, 'home', '.cache'));
    await symlink(elsewhere, join(root, 'home', '.cache', 'refmcp'));
    expect(await start()).toEqual(EXPECTED);
    expect(await readdir(elsewhere)).toEqual(['keep.tmp']);
    expect((await cacheFiles(tmpCache)).size).toBe(1);
  });

  it('does not follow a symlink at the cache file’s name', async () => {
    await start();
    const [name] = await onlyCacheFile(xdgCache);
    const target = join(root, 'cwd', 'target');
    await writeFile(target, 'untouched');
    await rm(join(xdgCache, name));
    await symlink(target, join(xdgCache, name));
    expect(await start()).toEqual(EXPECTED);
    expect(await readFile(target, 'utf8')).toBe('untouched');
  });

  it('creates nothing relative to the working directory, nor HOME or XDG_CACHE_HOME themselves', async () => {
    const cwd = join(root, 'cwd');
    expect(await start({ HOME: '', XDG_CACHE_HOME: 'relative' }, cwd)).toEqual(EXPECTED);
    expect(
      await start({ HOME: join(root, 'missing-home'), XDG_CACHE_HOME: join(root, 'missing-xdg') }, cwd),
    ).toEqual(EXPECTED);
    expect(await readdir(cwd)).toEqual([]);
    expect(await readdir(root)).not.toContain('missing-home');
    expect(await readdir(root)).not.toContain('missing-xdg');
    expect((await cacheFiles(tmpCache)).size).toBe(1);
  });

  it('writes nothing with NODE_DISABLE_COMPILE_CACHE=1, nor with source maps on', async () => {
    expect(await start({ NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual(EXPECTED);
    expect(await start({ NODE_OPTIONS: '--enable-source-maps' })).toEqual(EXPECTED);
    for (const d of ['xdg', 'home', 'tmp']) expect(await readdir(join(root, d))).toEqual([]);
  });
});
