/**
 * An MCPB bundle per server, from the release tarball: manifest from server.json and the live
 * tools/list, `mcpb validate`, `mcpb pack`; then the bundle is unpacked outside the repository and
 * started as Claude Desktop starts it (`getMcpConfigForManifest`, the library the host uses to turn
 * the manifest and the user's answers into a command): handshake, every manifest tool listed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getMcpConfigForManifest, type McpbManifestAny } from '@anthropic-ai/mcpb';
import { connect } from '@refmcp/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import { type Bundle, buildBundle, mcpb } from '../src/mcpb/bundle.js';
import { launchFor, USER_CONFIG } from '../src/mcpb/user-config.js';
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

/** What a user enters in the install dialog, per server: enough to start it with no service behind. */
function answers(dir: string, tmp: string): Record<string, string | string[]> {
  switch (dir) {
    case 'filesystem':
      return { allowed_directories: [tmp] };
    case 'sqlite':
      writeFileSync(join(tmp, 'bundle.db'), ''); // an empty file is an empty SQLite database
      return { db_path: join(tmp, 'bundle.db') };
    case 'postgres': // connects on the first tool call
      return { database_url: 'postgresql://refmcp@127.0.0.1:1/none' };
    case 'github':
      return { github_token: 'github_pat_bundle_smoke_test' };
    case 'gitlab':
      return { gitlab_token: 'glpat-bundle-smoke-test' };
    case 'slack':
      return { slack_bot_token: 'xoxb-bundle-smoke-test' };
    case 'search':
      return { brave_api_key: 'bundle-smoke-test' };
    case 'drive':
      writeFileSync(
        join(tmp, 'keys.json'),
        JSON.stringify({ installed: { client_id: 'id', client_secret: 'secret' } }),
      );
      writeFileSync(
        join(tmp, 'token.json'),
        JSON.stringify({ access_token: 'ya29.bundle', expiry_date: Date.now() + 3_600_000 }),
      );
      return { oauth_keys: join(tmp, 'keys.json'), credentials: join(tmp, 'token.json') };
    default:
      return {};
  }
}

describe('MCPB bundles', () => {
  for (const t of tarballs) {
    it(`${t.name}: built from the tarball, validated, packed, unpacked elsewhere and started as Claude Desktop does`, async () => {
      const tmp = mkdtempSync(join(work, `${t.dir}-`));
      const values = answers(t.dir, tmp);
      const fields = USER_CONFIG[t.dir] ?? [];

      // The live tools/list, from the built server with the same answers.
      const launch = launchFor(fields, values);
      const live = await connect({
        command: process.execPath,
        args: [join(repoRoot, 'servers', t.dir, 'dist/index.js'), ...launch.args],
        env: launch.env,
        timeoutMs: 60_000,
      });
      const { tools } = await live.client.listTools().finally(() => live.close());

      const native =
        t.dir === 'sqlite'
          ? localPrebuildEnv('better-sqlite3', join(repoRoot, 'servers/sqlite'), join(work, 'prebuilds'))
          : {};
      const bundle = buildBundle(t, tools, join(work, 'bundles'), native);
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
