/**
 * A real nginx in front of several HTTP instances of a server, for tests and the bench: Debian's
 * `nginx` package (`/usr/sbin/nginx`, 1.22), run as this process's own child on 127.0.0.1 on a
 * free port with `docs/deploy/nginx.conf` — the example config the README tells operators to run —
 * in which only the `listen` line and the `server` lines of its upstreams are rewritten. Its prefix
 * (pid file, temp paths) is a fresh temp dir; logs go to stderr; `daemon off`, so `stop()` (or
 * SIGKILL of this process's tree) ends it. Works as root (workers run as nobody) and as non-root.
 *
 * Install: `apt-get install -y nginx` (`npm test` does it as root on Debian/Ubuntu: scripts/provision.mjs). Without it,
 * {@link startNginx} rejects with {@link NGINX_MISSING}, which says exactly that.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.js';
import { findProgram } from './which.js';

/** Where Debian installs nginx; `nginx` on the PATH is used when it is not there. */
export const NGINX_BIN = '/usr/sbin/nginx';

/** What a test says when nginx is absent. */
export const NGINX_MISSING =
  'nginx is not installed: the scale-out tests run a real local nginx (Debian package nginx). Install it with `sudo apt-get install -y nginx` (`npm test` does this as root on Debian/Ubuntu), then rerun.';

/** The example config's path inside the repository. */
export const NGINX_CONFIG_IN_REPO = 'docs/deploy/nginx.conf';

/** A running nginx. */
export interface NginxService {
  /** The proxied MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: URL;
  pid: number;
  /** The config nginx runs (the example with this run's `listen` and `server` lines). */
  config: string;
  /** nginx's stderr so far (its error log). */
  stderr(): string;
  /** Stops nginx (SIGQUIT: graceful; SIGKILL after 3 s) and deletes its prefix directory. */
  stop(): Promise<void>;
}

/** True when nginx is installed. */
export function nginxInstalled(): boolean {
  return findProgram(NGINX_BIN, 'nginx') !== undefined;
}

/** The repository's `docs/deploy/nginx.conf`, found by walking up from this module (src or a bundle). */
export function exampleNginxConfigPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, NGINX_CONFIG_IN_REPO);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`${NGINX_CONFIG_IN_REPO} not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/**
 * The example config `template` listening on 127.0.0.1:`port` with every upstream's `server`
 * lines replaced by one line per backend (`host:port`), keeping the template's parameters
 * (`max_fails=… fail_timeout=…`). Errors: throws when the template has no `listen` line or an
 * upstream without `server` lines (the example drifted from what this rewrites).
 */
export function nginxConfigFor(template: string, port: number, backends: URL[]): string {
  if (backends.length === 0) throw new Error('startNginx: no backends');
  let listens = 0;
  let out = template.replace(/^(\s*)listen\s+[^;]+;/m, (_m, indent: string) => {
    listens++;
    return `${indent}listen 127.0.0.1:${port};`;
  });
  if (listens !== 1) throw new Error('nginx example config: no `listen` line');
  let upstreams = 0;
  out = out.replace(/(upstream\s+\w+\s*\{)([^}]*)\}/g, (_m, head: string, body: string) => {
    const lines = body.split('\n');
    const first = lines.findIndex((l) => /^\s*server\s/.test(l));
    if (first < 0) throw new Error(`nginx example config: ${head.trim()} has no server lines`);
    const sample = lines[first] ?? '';
    const indent = /^\s*/.exec(sample)?.[0] ?? '    ';
    const params = /^\s*server\s+\S+(.*);\s*$/.exec(sample)?.[1] ?? '';
    const servers = backends.map((b) => `${indent}server ${b.hostname}:${b.port}${params};`);
    const kept = lines.filter((l) => !/^\s*server\s/.test(l));
    kept.splice(first, 0, ...servers);
    upstreams++;
    return `${head}${kept.join('\n')}}`;
  });
  if (upstreams === 0) throw new Error('nginx example config: no upstream blocks');
  return out;
}

/**
 * Starts nginx with the example config proxying to `backends` (MCP endpoint URLs, e.g. from
 * `startHttpServer`; only host and port are used) and resolves once its `/mcp` answers on a free
 * 127.0.0.1 port. Errors: rejects with {@link NGINX_MISSING} when nginx is absent, or when it exits
 * or does not answer within `timeoutMs` (default 10 000; its stderr in the message); nothing is left
 * running then.
 */
export async function startNginx(backends: URL[], timeoutMs = 10_000): Promise<NginxService> {
  const bin = findProgram(NGINX_BIN, 'nginx');
  if (!bin) throw new Error(NGINX_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'refmcp-nginx-'));
  // As root, workers run as nobody and must reach the temp paths nginx creates (and chowns) here.
  if (process.getuid?.() === 0) await chmod(dir, 0o711);
  const port = await freePort();
  const config = nginxConfigFor(readFileSync(exampleNginxConfigPath(), 'utf8'), port, backends);
  const confPath = join(dir, 'nginx.conf');
  await writeFile(confPath, config);
  const child: ChildProcess = spawn(bin, ['-p', dir, '-c', confPath, '-e', 'stderr'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/bin' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-8000);
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const stop = async () => {
    process.off('exit', kill);
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      // Any HTTP answer means nginx listens (the backends decide the status).
      await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(1000) });
      return { url, pid: child.pid ?? 0, config, stderr: () => log, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`nginx did not start within ${timeoutMs} ms:\n${log.split('\n').slice(-15).join('\n')}`);
}
