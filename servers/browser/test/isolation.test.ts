/**
 * BR-05 isolation and the browser's lifecycle: two servers at once, a stale profile lock, shutdown
 * on stdin EOF and SIGTERM with nothing left behind, a crashed tab, a missing browser.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, type Stats } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { callChecked, callOk, isAlive, resultText, serverBin, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPids, servePages, startServer } from './support.js';

let site: Awaited<ReturnType<typeof servePages>>;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  site = await servePages({
    '/': '<title>One</title><button onclick="this.textContent=\'pressed\'">Press</button>',
    '/two': '<title>Two</title><p>second</p>',
  });
  ({ dir, cleanup } = await tempDir());
});

afterAll(async () => {
  await site?.close();
  await cleanup?.();
});

/** The --user-data-dir of the browser a server launched. */
async function profileOf(pid: number): Promise<string> {
  const [browser] = await browserPids(pid, '--user-data-dir=');
  const arg = readFileSync(`/proc/${browser}/cmdline`, 'utf8')
    .split('\0')
    .find((a) => a.startsWith('--user-data-dir='));
  return arg?.slice('--user-data-dir='.length) ?? '';
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Waits (by the clock, polling) until none of `pids` is alive or `ms` passed; the ones still alive. */
async function waitGone(pids: number[], ms = 3000): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!pids.some((p) => isAlive(p))) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  return pids.filter((p) => isAlive(p));
}

describe('BR-05 two clients', () => {
  it('BR-05 two servers with the default config work at once, each with its own temporary profile', async () => {
    const [a, b] = await Promise.all([
      startServer(['--allowed-origins', site.origin]),
      startServer(['--allowed-origins', site.origin]),
    ]);
    let profiles: string[] = [];
    try {
      const [ra, rb] = await Promise.all([
        callOk(a, 'browser_navigate', { url: `${site.base}/` }),
        callOk(b, 'browser_navigate', { url: `${site.base}/two` }),
      ]);
      expect(ra).toContain('"One"');
      expect(rb).toContain('"Two"');
      profiles = [await profileOf(a.pid), await profileOf(b.pid)];
      expect(profiles[0]).not.toBe(profiles[1]);
      for (const profile of profiles) expect(profile).toMatch(/playwright_chromiumdev_profile-/);
      await a.close();
      // b is unaffected by a's exit.
      expect(await callOk(b, 'browser_snapshot')).toContain('second');
    } finally {
      await a.close();
      await b.close();
    }
    // Each profile is removed when its server exits.
    for (const profile of profiles) expect(existsSync(profile), profile).toBe(false);
  }, 90_000);

  it('BR-05 a stale lock left by a killed process does not block the next start (--user-data-dir)', async () => {
    const profile = join(dir, 'profile');
    const first = await startServer(['--allowed-origins', site.origin, '--user-data-dir', profile]);
    await callOk(first, 'browser_navigate', { url: `${site.base}/` });
    const chromes = await browserPids(first.pid);
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    // Chromium notices its pipe closed and exits. Make sure a stale lock naming the dead process is
    // there (Chromium may or may not have removed its own on the way out).
    expect(await waitGone(chromes, 10_000)).toEqual([]);
    const lock = join(profile, 'SingletonLock');
    if (!lstatOrUndefined(lock)) await symlink(`${hostname()}-${first.pid}`, lock);
    expect(lstatOrUndefined(lock)?.isSymbolicLink()).toBe(true);
    const second = await startServer(['--allowed-origins', site.origin, '--user-data-dir', profile]);
    try {
      expect(await callOk(second, 'browser_navigate', { url: `${site.base}/two` })).toContain('second');
    } finally {
      await second.close();
    }
  }, 90_000);
});

describe('shutdown and crashes', () => {
  it('ALL-04 stdin EOF and SIGTERM close the browser: no Chromium left behind', async () => {
    for (const how of ['eof', 'sigterm'] as const) {
      const conn = await startServer(['--allowed-origins', site.origin]);
      await callOk(conn, 'browser_navigate', { url: `${site.base}/` });
      const chromes = await browserPids(conn.pid);
      expect(chromes.length).toBeGreaterThan(0);
      const started = Date.now();
      if (how === 'eof') conn.closeStdin();
      else process.kill(conn.pid, 'SIGTERM');
      const exit = await conn.exited;
      // Within the server's shutdown budget (1.5 s, shared/src/server/run.ts), not Chromium's own
      // close: a bound of ten times that budget, for a loaded machine.
      expect(Date.now() - started, how).toBeLessThan(15_000);
      expect(exit.code, how).toBe(0);
      expect(await waitGone(chromes, 10_000), how).toEqual([]);
      await conn.close();
    }
  }, 90_000);

  it('a crashed tab is reported, replaced, and leaves no orphan at exit', async () => {
    const conn = await startServer(['--allowed-origins', site.origin]);
    try {
      await callOk(conn, 'browser_navigate', { url: `${site.base}/` });
      const renderers = await browserPids(conn.pid, '--type=renderer');
      expect(renderers.length).toBeGreaterThan(0);
      for (const pid of renderers) process.kill(pid, 'SIGKILL');
      expect(await waitGone(renderers, 10_000)).toEqual([]);
      await new Promise((r) => setTimeout(r, 500));
      const after = await callChecked(conn, 'browser_navigate', { url: `${site.base}/two` });
      expect(resultText(after)).toMatch(/crashed/);
      expect(resultText(after)).toContain('second');
      const chromes = await browserPids(conn.pid);
      conn.closeStdin();
      expect((await conn.exited).code).toBe(0);
      expect(await waitGone(chromes, 10_000)).toEqual([]);
    } finally {
      await conn.close();
    }
  }, 90_000);

  it('a missing browser is a clear startup error naming what to install (exit 2)', () => {
    const bin = serverBin('browser');
    const run = spawnSync(bin.command, [...bin.args, '--executable-path', '/nonexistent/chrome'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/apt-get install chromium/);
    const none = spawnSync(bin.command, bin.args, {
      encoding: 'utf8',
      env: { PATH: '/nonexistent', HOME: dir },
    });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/No Chrome or Chromium was found.*--executable-path/s);
    expect(none.stdout).toBe('');
  });
});
