/**
 * Container images of the servers, built with podman from the release tarballs and
 * container/Containerfile, on a base image made here without any image registry: a Debian
 * root filesystem from `debootstrap` (the mirror apt on this machine uses) plus the Node binary of
 * the npm `node` package, imported with `podman import`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stageServer } from './stage.js';
import type { Tarball } from './tarballs.js';

/**
 * `podman run` flags this sandbox needs: runc (crun cannot set rlimits here), and rlimits at or
 * below the ones it grants (podman as root raises nofile/nproc, which is refused here).
 */
export const SANDBOX_RUN_FLAGS = ['--ulimit', 'nofile=4096:4096', '--ulimit', 'nproc=4096:4096'];
export const PODMAN_GLOBAL_FLAGS = ['--runtime', 'runc'];

export const CONTAINERFILE = fileURLToPath(new URL('../container/Containerfile', import.meta.url));

/** podman's path, or undefined when it is not installed. */
export function findPodman(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'podman'))) return join(dir, 'podman');
  }
  return undefined;
}

export function podman(args: string[], input?: Buffer): string {
  try {
    return execFileSync('podman', args, {
      encoding: 'utf8',
      stdio: 'pipe',
      input,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`podman ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

/** The Debian mirror apt is configured with (deb822 `URIs:` or a sources.list `deb` line). */
function aptMirror(): string {
  const files = ['/etc/apt/sources.list.d', '/etc/apt'].filter(existsSync).flatMap((d) =>
    readdirSync(d)
      .filter((f) => /\.(sources|list)$/.test(f))
      .map((f) => join(d, f)),
  );
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const uri = /^URIs:\s*(\S+)/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/m.exec(text)?.[1];
    if (uri) return uri;
  }
  throw new Error('no Debian mirror in /etc/apt: the base image needs one for debootstrap');
}

/**
 * The base image `localhost/refmcp-node:<node version>`: made once (debootstrap of Debian
 * bookworm, minbase, into `workDir`/rootfs — kept for the next build — plus this Node version's
 * binary from the npm `node` package), then reused.
 * Returns its name. Throws when debootstrap, npm or podman fails.
 */
export function ensureBaseImage(workDir: string): string {
  const name = `localhost/refmcp-node:${process.versions.node}`;
  if (podman(['images', '--format', '{{.Repository}}:{{.Tag}}']).split('\n').includes(name)) return name;
  const rootfs = join(workDir, 'rootfs');
  // A finished debootstrap (it removes its own debootstrap/ directory last) is reused.
  const complete = existsSync(join(rootfs, 'etc/debian_version')) && !existsSync(join(rootfs, 'debootstrap'));
  if (!complete) {
    rmSync(rootfs, { recursive: true, force: true });
    execFileSync('debootstrap', ['--variant=minbase', 'bookworm', rootfs, aptMirror()], { stdio: 'pipe' });
  }
  const nodePkg = join(workDir, 'node-package');
  mkdirSync(nodePkg, { recursive: true });
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--prefix', nodePkg, `node@${process.versions.node}`],
    {
      stdio: 'pipe',
    },
  );
  const node = realpathSync(join(nodePkg, 'node_modules/.bin/node'));
  execFileSync('install', ['-m', '0755', node, join(rootfs, 'usr/local/bin/node')]);
  // Nothing of the build's apt caches in the image.
  rmSync(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
  const tar = execFileSync('tar', ['-C', rootfs, '-c', '.'], { maxBuffer: 1024 * 1024 * 1024 });
  podman(['import', '--change', 'CMD ["node"]', '-', name], tar);
  return name;
}

export interface Image {
  dir: string;
  tag: string;
  bytes: number;
  label: string;
}

/** Builds `t`'s image on `base` (context staged under `workDir`); returns its tag, size and label. */
export function buildImage(
  t: Tarball,
  base: string,
  workDir: string,
  installEnv: Record<string, string> = {},
): Image {
  const context = join(workDir, `context-${t.dir}`);
  rmSync(context, { recursive: true, force: true });
  stageServer(t, join(context, 'server'), join(workDir, 'npm-cache'), installEnv);
  const tag = `localhost/refmcp/server-${t.dir}:${t.version}`;
  podman([
    ...PODMAN_GLOBAL_FLAGS,
    'build',
    '--quiet',
    // The browser's RUN step reaches the Debian mirror from the host's network.
    '--network=host',
    ...SANDBOX_RUN_FLAGS,
    '-f',
    CONTAINERFILE,
    '--build-arg',
    `BASE=${base}`,
    '--build-arg',
    `SERVER=${t.dir}`,
    '--build-arg',
    `MCP_NAME=${t.packageJson.mcpName}`,
    '--build-arg',
    `VERSION=${t.version}`,
    '-t',
    tag,
    context,
  ]);
  const [size, label] = podman([
    'image',
    'inspect',
    '--format',
    '{{.Size}} {{index .Labels "io.modelcontextprotocol.server.name"}}',
    tag,
  ])
    .trim()
    .split(' ');
  return { dir: t.dir, tag, bytes: Number(size), label: label ?? '' };
}
