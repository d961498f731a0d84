/**
 * The loopback guard (preload/loopback-guard.cjs) for tests: `loopbackGuardEnv()` is the
 * environment that installs it in a spawned server (NODE_OPTIONS --require), and
 * `blockedHosts(stderr)` lists the hosts it refused there; `installLoopbackGuard()` installs it in
 * the test process itself. A server whose every request stays on the fakes reports none.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// From src/ or dist/ alike; loaded on first use, so that a bundle that never uses it needs no file.
const GUARD = fileURLToPath(new URL('../preload/loopback-guard.cjs', import.meta.url));
type Guard = { install(onConnect?: (host: string, blocked: boolean) => void): () => void };
let guard: Guard | undefined;
const loaded = (): Guard => {
  guard ??= createRequire(import.meta.url)(GUARD) as Guard;
  return guard;
};

/** Hosts on the loopback interface that the guard lets through (as preload/loopback-guard.cjs). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

/** Environment that installs the guard in a spawned Node process (merge into its env). */
export function loopbackGuardEnv(existing = ''): Record<string, string> {
  return {
    REFMCP_LOOPBACK_GUARD: '1',
    NODE_OPTIONS: `${existing} --require ${JSON.stringify(GUARD)}`.trim(),
  };
}

/** The hosts the guard refused in a spawned process, from its `stderr`. */
export function blockedHosts(stderr: string): string[] {
  return [...stderr.matchAll(/^\[loopback-guard\] blocked: (.+)$/gm)].map((m) => m[1] as string);
}

/**
 * Installs the guard in this process: connections off loopback fail; `onConnect(host, blocked)`
 * sees each attempt. Returns the function that removes it.
 */
export function installLoopbackGuard(onConnect?: (host: string, blocked: boolean) => void): () => void {
  return loaded().install(onConnect);
}
