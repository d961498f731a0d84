/**
 * A real npm registry on loopback for the release rehearsal: Verdaccio, started as its own process
 * on 127.0.0.1 with throwaway storage. `@refmcp/*` is served only from what is published to it
 * (never proxied, so a name cannot resolve to someone else's package); every other package comes
 * through its uplink, the registry npm on this machine is configured with, as a user's install would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort } from '@refmcp/test-harness';
import type { NpmUpstream } from './npm-config.js';

export interface Verdaccio {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** A token of a user that may publish `@refmcp/*`. */
  token: string;
  /** The `.npmrc` lines that publish to it with that token. */
  npmrc: string;
  /** What Verdaccio logged (warnings and errors), for a failure message. */
  log(): string;
  close(): Promise<void>;
}

/** Verdaccio's config.yaml for `storage` with `upstream` as its only uplink (JSON is YAML). */
export function verdaccioConfig(storage: string, upstream: NpmUpstream): string {
  const uplink: Record<string, unknown> = {
    url: upstream.registry,
    timeout: '60s',
    max_fails: 5,
    // A passing fault marks the uplink offline this long, not Verdaccio's default 5 minutes.
    fail_timeout: '5s',
    cache: true,
  };
  if (upstream.httpsProxy) uplink.https_proxy = upstream.httpsProxy;
  if (upstream.httpProxy) uplink.http_proxy = upstream.httpProxy;
  return JSON.stringify(
    {
      storage: join(storage, 'storage'),
      auth: { htpasswd: { file: join(storage, 'htpasswd'), max_users: 10 } },
      uplinks: { upstream: uplink },
      packages: {
        '@refmcp/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
        '**': { access: '$all', publish: '$authenticated', proxy: 'upstream' },
      },
      // The uplink's packuments are kept for the run: one fetch per package, however many installs.
      server: { keepAliveTimeout: 60 },
      log: { type: 'stdout', format: 'pretty', level: 'warn' },
      web: { enable: false },
    },
    null,
    2,
  );
}

async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`verdaccio did not answer /-/ping within 60 s:\n${output()}`);
}

/**
 * Starts Verdaccio (this workspace's copy) on a free 127.0.0.1 port with storage under `workDir`,
 * and adds a user. Rejects when it does not answer within 60 s or the user cannot be added.
 */
export async function startVerdaccio(workDir: string, upstream: NpmUpstream): Promise<Verdaccio> {
  mkdirSync(workDir, { recursive: true });
  const configPath = join(workDir, 'config.yaml');
  writeFileSync(configPath, verdaccioConfig(workDir, upstream));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = createRequire(import.meta.url).resolve('verdaccio/bin/verdaccio');
  const child = spawn(process.execPath, [bin, '--config', configPath, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitForPing(url, child, () => output);
    const name = 'release-rehearsal';
    const res = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, password: `rehearsal-${port}-${process.pid}` }),
    });
    const body = (await res.json()) as { token?: string; error?: string };
    if (!res.ok || !body.token)
      throw new Error(`verdaccio refused to add a user: ${res.status} ${body.error ?? ''}`);
    const token = body.token;
    const npmrc = `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`;
    return { url, token, npmrc, log: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}
