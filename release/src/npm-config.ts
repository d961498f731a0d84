/**
 * What npm on this machine is configured with, read at run time (`npm config get`), so the
 * loopback registry's uplink is whatever registry (and proxy) this machine's npm uses: never a
 * hard-coded host.
 */
import { execFileSync } from 'node:child_process';

function npmConfig(key: string): string | undefined {
  const value = execFileSync('npm', ['config', 'get', key], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
  return value === '' || value === 'null' || value === 'undefined' ? undefined : value;
}

export interface NpmUpstream {
  /** The registry npm installs from, ending in `/`. */
  registry: string;
  /** npm's `https-proxy` / `proxy`, when set. */
  httpsProxy?: string;
  httpProxy?: string;
}

/** Reads npm's `registry`, `https-proxy` and `proxy`. Throws when npm has no registry configured. */
export function readNpmUpstream(): NpmUpstream {
  const registry = npmConfig('registry');
  if (!registry) throw new Error('npm has no registry configured (`npm config get registry` is empty)');
  return {
    registry: registry.endsWith('/') ? registry : `${registry}/`,
    httpsProxy: npmConfig('https-proxy'),
    httpProxy: npmConfig('proxy'),
  };
}
