/**
 * An MCPB bundle per server, from the release tarball: manifest from server.json and the live
 * tools/list of the bundled server, `mcpb validate`, `mcpb pack`; then the bundle is unpacked outside the repository and
 * started as Claude Desktop starts it (`getMcpConfigForManifest`, the library the host uses to turn
 * the manifest and the user's answers into a command): handshake, every manifest tool listed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getMcpConfigForManifest, type McpbManifestAny } from '@anthropic-ai/mcpb';
import { connect } from '@refmcp/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import { type Bundle, buildBundle, mcpb } from '../src/mcpb/bundle.js';
import { smokeAnswers } from '../src/mcpb/smoke-answers.js';
import { localPrebuildEnv } from '../src/native-prebuilds.js';
import { packRelease } from '../src/tarballs.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'refmcp-mcpb-'));
const tarballs = packRelease(repoRoot, join(work, 'tarballs'));
const built: Bundle[] = [];
afterAll(() => {
  if (built.length) {
    const rows = built.map(
      (b) => `${b.dir.padEnd(11)} ${String(b.bytes).padStart(10)} B  sha256 ${b.sha256}`,
    );
    console.log(`MCPB bundles (${process.platform}-${process.arch})\n${rows.join('\n')}`);
  }
  rmSync(work, { recursive: true, force: true });
});

describe('MCPB bundles', () => {
  for (const t of tarballs) {
    it(`${t.name}: built from the tarball, validated, packed, unpacked elsewhere and started as Claude Desktop does`, async () => {
      const tmp = mkdtempSync(join(work, `${t.dir}-`));
      const values = smokeAnswers(t.dir, tmp);

      const native =
        t.dir === 'sqlite'
          ? localPrebuildEnv('better-sqlite3', join(repoRoot, 'servers/sqlite'), join(work, 'prebuilds'))
          : {};
      const bundle = await buildBundle(t, join(work, 'bundles'), native);
      built.push(bundle);
      expect(bundle.sha256).toMatch(/^[a-f0-9]{64}$/);

      // Unpacked outside the repository, as the host installs it.
      const installed = join(work, 'installed', t.dir);
      mkdirSync(installed, { recursive: true });
      mcpb(['unpack', bundle.file, installed], installed);
      const manifest = JSON.parse(readFileSync(join(installed, 'manifest.json'), 'utf8')) as McpbManifestAny;
      expect(manifest.version).toBe(t.version);
      for (const [key, field] of Object.entries(manifest.user_config ?? {})) {
        if (/token|key|url$/.test(key) && field.type === 'string' && field.required)
          expect(field.sensitive, key).toBe(true);
      }
      const config = await getMcpConfigForManifest({
        manifest,
        extensionPath: installed,
        systemDirs: { HOME: homedir(), DESKTOP: homedir(), DOCUMENTS: homedir(), DOWNLOADS: homedir() },
        userConfig: values,
        pathSeparator: '/',
      });
      expect(config?.command).toBe('node');
      const conn = await connect({
        command: process.execPath, // the host's Node (Claude Desktop ships its own)
        args: config?.args ?? [],
        env: config?.env ?? {},
        cwd: installed,
        timeoutMs: 60_000,
      });
      try {
        expect(conn.serverInfo?.version).toBe(t.version);
        const listed = (await conn.client.listTools()).tools.map((tool) => tool.name);
        expect(listed).toEqual((manifest.tools ?? []).map((tool) => tool.name));
        expect(listed.length).toBeGreaterThan(0);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- server stderr ---\n${conn.stderr().slice(-3000)}`);
      } finally {
        await conn.close();
      }
    }, 240_000);
  }
});
