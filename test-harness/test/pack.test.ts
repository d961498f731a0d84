/**
 * Each server's published tarball installs and runs on its own, in an empty directory, exactly as
 * a host's `npx -y <package> …` would run it: nothing internal (@refmcp/*) may be left as an
 * unresolvable dependency.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalRegistry, startLocalRegistry } from '../src/local-registry.js';
import { readServerPackages } from '../src/registry.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const pnpm = join(repoRoot, 'node_modules/.bin/pnpm');
const work = mkdtempSync(join(tmpdir(), 'refmcp-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Server-specific arguments that let a server start with no external service. */
const START_ARGS: Record<string, (dir: string) => string[]> = {
  filesystem: (dir) => {
    writeFileSync(join(dir, 'probe.csv'), 'name,qty\nbolts,12\n');
    return [dir];
  },
  // Connects on the first tool call, so it starts (and lists its tools) with no database.
  postgres: () => ['postgresql://refmcp@127.0.0.1:1/none'],
  sqlite: (dir) => {
    const db = join(dir, 'pack.db');
    writeFileSync(db, ''); // an empty file is an empty SQLite database
    return ['--db-path', db];
  },
  // Finds Chromium on the PATH (Debian's chromium in CI); starts with no arguments.
  browser: () => [],
  // No token needed to start: it warns on stderr and serves public data (reaches GitHub on a call only).
  github: () => [],
};

/** Server-specific environment that lets a server start with no external service. */
const START_ENV: Record<string, (dir: string) => Record<string, string>> = {
  // Reads its saved token at startup (exit 1 without one); listing tools sends no request.
  drive: (dir) => {
    const token = join(dir, 'credentials.json');
    writeFileSync(token, JSON.stringify({ access_token: 'ya29.pack', expiry_date: Date.now() + 3_600_000 }));
    return { GDRIVE_CREDENTIALS_PATH: token };
  },
};

/**
 * A call that must succeed from the installed tarball: proves its (native or WebAssembly)
 * dependencies load. With `refusal`, the call must instead fail with that message.
 */
const PROBES: Record<string, { name: string; arguments: Record<string, unknown>; refusal?: RegExp }> = {
  // Starts the document worker (dist/document-worker.js) and loads SheetJS from its chunks.
  filesystem: { name: 'read_document', arguments: { path: 'probe.csv' } },
  sqlite: { name: 'read_query', arguments: { query: 'SELECT sqlite_version() AS version' } },
  // Loads playwright-core from the installed dependency and launches the browser.
  browser: { name: 'browser_snapshot', arguments: {} },
  // Only PostgreSQL's parser (libpg-query, bundled into dist with its .wasm beside it) can tell this is
  // COPY … PROGRAM: the refusal comes before any connection (there is no database here).
  postgres: {
    name: 'query',
    arguments: { sql: "/* probe */ COPY (SELECT 1) TO PROGRAM 'true'" },
    refusal: /^refused before it reached the database: COPY … PROGRAM/,
  },
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

      // A package with runtime dependencies installs them from a loopback registry serving this
      // workspace's installed copies (and local prebuilds of native ones): still no network.
      let registry: LocalRegistry | undefined;
      if (Object.keys(packageJson.dependencies ?? {}).length > 0) {
        registry = await startLocalRegistry(
          join(repoRoot, 'servers', dir),
          mkdtempSync(join(work, 'registry-')),
        );
      }

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
          ...START_ENV[dir]?.(target),
          ...registry?.env,
        } as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'pack-test', version: '1' });
      try {
        await client.connect(transport);
        expect(client.getServerVersion()?.version).toBe(packageJson.version);
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        const probe = PROBES[dir];
        if (probe) {
          const result = await client.callTool({ name: probe.name, arguments: probe.arguments });
          if (probe.refusal) {
            expect(result.isError, JSON.stringify(result.content)).toBe(true);
            const text = (result.content as { type: string; text?: string }[])[0]?.text ?? '';
            expect(text).toMatch(probe.refusal);
          } else expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        }
      } finally {
        await client.close();
        await registry?.close();
      }
    }, 120_000);
  }
});
