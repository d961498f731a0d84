/**
 * A server ready to run from a directory: its release tarball unpacked and its runtime
 * dependencies installed there with npm (from the registry npm is configured with; a native one
 * built for, or downloaded for, this platform). What an MCPB bundle's `server/` and a container
 * image's `/opt/refmcp/server` hold.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Tarball } from './tarballs.js';

/**
 * Copies `t`'s package into `dest` (which must not exist) and installs its `dependencies` there;
 * `npmCache` is npm's cache for that install, `installEnv` extra environment for it. Throws with
 * npm's output when the install fails.
 */
export function stageServer(
  t: Tarball,
  dest: string,
  npmCache: string,
  installEnv: Record<string, string> = {},
): void {
  mkdirSync(dirname(dest), { recursive: true });
  cpSync(t.unpacked, dest, { recursive: true });
  // Runtime dependencies only: the workspace's devDependencies are not on npm.
  const pkgPath = join(dest, 'package.json');
  const { devDependencies: _dev, scripts: _scripts, ...pkg } = JSON.parse(readFileSync(pkgPath, 'utf8'));
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  if (Object.keys(pkg.dependencies ?? {}).length === 0) return;
  try {
    // On Windows npm is npm.cmd, which Node runs only through a shell (CVE-2024-27980).
    const windows = process.platform === 'win32';
    execFileSync(
      windows ? 'npm.cmd' : 'npm',
      ['install', '--omit=dev', '--no-package-lock', '--no-audit', '--no-fund', '--no-save'],
      {
        cwd: dest,
        stdio: 'pipe',
        shell: windows,
        env: { ...process.env, npm_config_cache: npmCache, ...installEnv },
      },
    );
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer; message: string };
    throw new Error(`npm install in ${dest} failed: ${e.stderr?.toString() ?? e.message}`);
  }
}
