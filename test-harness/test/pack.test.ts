/**
 * Each server's published tarball installs and runs on its own, in an empty directory, exactly as
 * a host's `npx -y <package> …` would run it: nothing internal (@refmcp/*) may be left as an
 * unresolvable dependency.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { readServerPackages } from '../src/registry.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const pnpm = join(repoRoot, 'node_modules/.bin/pnpm');
const work = mkdtempSync(join(tmpdir(), 'refmcp-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Server-specific arguments that let a server start with no external service. */
const START_ARGS: Record<string, (dir: string) => string[]> = {
  filesystem: (dir) => [dir],
};

describe('npm pack tarballs', () => {
  for (const { dir, packageJson } of readServerPackages(repoRoot)) {
    it(`${packageJson.name} installs from its tarball alone and answers the handshake`, async () => {
      const out = join(work, dir);
      execFileSync(pnpm, ['pack', '--pack-destination', out], {
        cwd: join(repoRoot, 'servers', dir),
        stdio: 'pipe',
      });
      const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
      expect(tarball).toBe(`refmcp-server-${dir}-${packageJson.version}.tgz`);
      const listing = execFileSync('tar', ['-tzf', join(out, tarball as string)], { encoding: 'utf8' });
      expect(listing).toContain('package/dist/index.js');
      expect(listing).not.toMatch(/package\/src\//);

      // Exactly what a user runs: `npx -y ./<tarball> …` in a directory holding only the tarball.
      const target = mkdtempSync(join(work, 'target-'));
      const transport = new StdioClientTransport({
        command: 'npx',
        args: ['-y', `./${tarball}`, ...(START_ARGS[dir]?.(target) ?? [])],
        cwd: out,
        env: {
          ...process.env,
          npm_config_cache: join(work, 'npm-cache'),
          npm_config_offline: 'true',
        } as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'pack-test', version: '1' });
      await client.connect(transport);
      expect(client.getServerVersion()?.version).toBe(packageJson.version);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    }, 120_000);
  }
});
