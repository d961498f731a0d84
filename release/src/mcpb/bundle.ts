/**
 * One MCPB bundle per server, from its release tarball: the package unpacked into `server/`, its
 * runtime dependencies installed there with npm (the registry npm is configured with; a native one
 * for this platform only), the manifest written, then `mcpb validate` and `mcpb pack`. Returns the
 * bundle's path, size and sha256 (the registry entry's `fileSha256`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { stageServer } from '../stage.js';
import type { Tarball } from '../tarballs.js';
import { buildManifest, type ListedTool } from './manifest.js';
import { type BundlePlatform, bundleFileName, bundlePlatform } from './platforms.js';

export interface Bundle {
  dir: string;
  file: string;
  bytes: number;
  sha256: string;
  /** "any", or the `<os>-<arch>` a native server's bundle was built for (platforms.ts). */
  platform: BundlePlatform;
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
 * Builds `<outDir>/<dir>/<bundleFileName>` from `t` for `platform` (undefined: this machine's for a
 * native server, "any" otherwise; another machine's is refused, see platforms.ts): the manifest
 * lists the tools the staged server itself answers with (`liveTools`, which also loads a native
 * module); `installEnv` is added to npm's environment (the native prebuild offer for sqlite).
 * Throws when the platform is refused or npm, `mcpb validate` or `mcpb pack` fails.
 */
export async function buildBundle(
  t: Tarball,
  outDir: string,
  installEnv: Record<string, string> = {},
  platform?: string,
): Promise<Bundle> {
  const target = bundlePlatform(t.dir, platform);
  const base = join(outDir, t.dir);
  const stage = join(base, 'stage');
  rmSync(base, { recursive: true, force: true });
  stageServer(t, join(stage, 'server'), join(base, 'npm-cache'), installEnv);
  const tools = await liveTools(t.dir, join(stage, 'server'), mkdtempSync(join(base, 'answers-')));
  const manifest = buildManifest(t, tools, target);
  writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mcpb(['validate', join(stage, 'manifest.json')], stage);
  const file = join(base, bundleFileName(t.dir, t.version, target));
  mcpb(['pack', stage, file], stage);
  const data = readFileSync(file);
  return {
    dir: t.dir,
    file,
    bytes: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    platform: target,
    manifest,
  };
}

/**
 * Lists the tools of the built server in `serverDir` (a dist/index.js inside), started with the
 * smoke answers of its user_config; files it needs go to `tmp`.
 */
export async function liveTools(dir: string, serverDir: string, tmp: string): Promise<ListedTool[]> {
  const { connect } = await import('@refmcp/test-harness');
  const { smokeAnswers } = await import('./smoke-answers.js');
  const { launchFor, USER_CONFIG } = await import('./user-config.js');
  const launch = launchFor(USER_CONFIG[dir] ?? [], smokeAnswers(dir, tmp));
  const conn = await connect({
    command: process.execPath,
    args: [join(serverDir, 'dist/index.js'), ...launch.args],
    env: launch.env,
    timeoutMs: 60_000,
  });
  try {
    return (await conn.client.listTools()).tools;
  } finally {
    await conn.close();
  }
}
