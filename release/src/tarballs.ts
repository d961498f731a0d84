/**
 * The release tarballs: each server packed once with `pnpm pack` (which swaps `workspace:` ranges
 * for real versions), unpacked beside it for the gate. Everything after this — the gate, the
 * rehearsal, `npm publish`, bundles and images — uses these files, never the workspace.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readServerPackages } from '@refmcp/test-harness';

export interface PackedJson {
  name: string;
  version: string;
  mcpName?: string;
  bin?: Record<string, string> | string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

export interface Tarball {
  /** Directory under servers/, e.g. "sqlite". */
  dir: string;
  name: string;
  version: string;
  /** Absolute path of the .tgz. */
  file: string;
  /** Size of the .tgz in bytes. */
  bytes: number;
  /** npm's `dist.integrity` for it (sha512, base64). */
  integrity: string;
  /** The tarball unpacked: its `package/` directory. */
  unpacked: string;
  /** Paths inside `package/`, with their sizes in bytes. */
  files: { path: string; bytes: number }[];
  /** package.json and server.json as packed (undefined server.json: not in the tarball). */
  packageJson: PackedJson;
  serverJson?: { name?: string; version?: string; packages?: { identifier?: string; version?: string }[] };
}

function listFiles(root: string, dir = root): { path: string; bytes: number }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory()
      ? listFiles(root, full)
      : [{ path: relative(root, full), bytes: statSync(full).size }];
  });
}

/** Reads a tarball produced by `pnpm pack`/`npm pack`, unpacking it to `<file>.d/package`. */
export function readTarball(dir: string, file: string): Tarball {
  const data = readFileSync(file);
  const unpackTo = `${file}.d`;
  rmSync(unpackTo, { recursive: true, force: true });
  mkdirSync(unpackTo, { recursive: true });
  execFileSync('tar', ['-xzf', file, '-C', unpackTo], { stdio: 'pipe' });
  const unpacked = join(unpackTo, 'package');
  const packageJson = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as PackedJson;
  let serverJson: Tarball['serverJson'];
  try {
    serverJson = JSON.parse(readFileSync(join(unpacked, 'server.json'), 'utf8'));
  } catch {
    serverJson = undefined;
  }
  return {
    dir,
    name: packageJson.name,
    version: packageJson.version,
    file,
    bytes: data.length,
    integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
    unpacked,
    files: listFiles(unpacked).sort((a, b) => a.path.localeCompare(b.path)),
    packageJson,
    serverJson,
  };
}

/**
 * Packs every server (or those under servers/ named in `only`; built dist/ must be current) into
 * `outDir` with the workspace's pnpm.
 * Throws when pnpm fails (the message is pnpm's stderr).
 */
export function packRelease(repoRoot: string, outDir: string, only?: string[]): Tarball[] {
  mkdirSync(outDir, { recursive: true });
  const pnpm = join(repoRoot, 'node_modules/.bin/pnpm');
  const servers = readServerPackages(repoRoot).filter(({ dir }) => !only || only.includes(dir));
  return servers.map(({ dir, packageJson }) => {
    const dest = join(outDir, dir);
    rmSync(dest, { recursive: true, force: true });
    execFileSync(pnpm, ['pack', '--pack-destination', dest], {
      cwd: join(repoRoot, 'servers', dir),
      stdio: 'pipe',
    });
    const file = join(dest, `refmcp-server-${dir}-${packageJson.version}.tgz`);
    return readTarball(dir, file);
  });
}
