/**
 * One MCPB bundle per server, from its release tarball: the package unpacked into `server/`, its
 * runtime dependencies installed there with npm (the registry npm is configured with; a native one
 * for this platform only), the manifest written, then `mcpb validate` and `mcpb pack`. Returns the
 * bundle's path, size and sha256 (the registry entry's `fileSha256`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Tarball } from '../tarballs.js';
import { buildManifest, type ListedTool } from './manifest.js';

export interface Bundle {
  dir: string;
  file: string;
  bytes: number;
  sha256: string;
  manifest: ReturnType<typeof buildManifest>;
}

// The package exports no subpath for its CLI: it sits beside the main entry (dist/index.js).
const mcpbCli = () =>
  join(dirname(createRequire(import.meta.url).resolve('@anthropic-ai/mcpb')), 'cli/cli.js');

/** Runs the mcpb CLI; throws with its output when it fails. */
export function mcpb(args: string[], cwd: string): string {
  try {
    return execFileSync(process.execPath, [mcpbCli(), ...args], { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`mcpb ${args[0]} failed: ${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

/**
 * Builds `<outDir>/<dir>/refmcp-server-<dir>-<version>.mcpb` from `t`. `tools` is the server's live
 * tools/list; `installEnv` is added to npm's environment (the native prebuild offer for sqlite).
 * Throws when npm, `mcpb validate` or `mcpb pack` fails.
 */
export function buildBundle(
  t: Tarball,
  tools: ListedTool[],
  outDir: string,
  installEnv: Record<string, string> = {},
): Bundle {
  const base = join(outDir, t.dir);
  const stage = join(base, 'stage');
  rmSync(base, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  cpSync(t.unpacked, join(stage, 'server'), { recursive: true });
  // The bundle installs runtime dependencies only: the workspace's devDependencies are not on npm.
  const pkgPath = join(stage, 'server/package.json');
  const { devDependencies: _dev, scripts: _scripts, ...pkg } = JSON.parse(readFileSync(pkgPath, 'utf8'));
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  if (Object.keys(pkg.dependencies ?? {}).length > 0) {
    execFileSync(
      'npm',
      ['install', '--omit=dev', '--no-package-lock', '--no-audit', '--no-fund', '--no-save'],
      {
        cwd: join(stage, 'server'),
        stdio: 'pipe',
        env: { ...process.env, npm_config_cache: join(base, 'npm-cache'), ...installEnv },
      },
    );
  }
  const manifest = buildManifest(t, tools);
  writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mcpb(['validate', join(stage, 'manifest.json')], stage);
  const file = join(base, `refmcp-server-${t.dir}-${t.version}.mcpb`);
  mcpb(['pack', stage, file], stage);
  const data = readFileSync(file);
  return {
    dir: t.dir,
    file,
    bytes: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    manifest,
  };
}
