/**
 * The release rehearsal, on a real registry: the release tarballs (packed once, gated) are
 * published with `npm publish` to Verdaccio on 127.0.0.1 (throwaway storage, its uplink the
 * registry this machine's npm uses); then each of the nine servers is started **by name** from a
 * Claude Desktop-shaped host config — `npx -y @refmcp/server-<name>` with an empty npm cache and
 * the @refmcp scope pointed at the loopback registry — answers initialize and tools/list, and
 * makes one real call. Dependencies (better-sqlite3, playwright-core) come through the uplink as
 * for a user; better-sqlite3's binary is the workspace's (src/native-prebuilds.ts says why).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, readHostConfig } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateProblems } from '../src/gate.js';
import { type LoopbackRelease, publishToLoopback } from '../src/loopback-release.js';
import { localPrebuildEnv } from '../src/native-prebuilds.js';
import { type Planned, planRelease } from '../src/plan.js';
import { packRelease, type Tarball } from '../src/tarballs.js';
import { rehearse } from './support/servers.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'refmcp-rehearsal-'));
const tarballs: Tarball[] = packRelease(repoRoot, join(work, 'tarballs'));
let release: LoopbackRelease;
/** Per server: seconds from spawn to tools/list answered (npx install included), for the closing table. */
const firstStart = new Map<string, number>();

/** The version-exists guard's answer (`refmcp-release plan`) against the registry, before and after publishing. */
const planned: { before?: Planned[]; after?: Planned[] } = {};

beforeAll(async () => {
  release = await publishToLoopback(work, tarballs, async (url) => {
    planned.before = await planRelease(repoRoot, url);
  });
  planned.after = await planRelease(repoRoot, release.registry.url);
  await warmUplink(release.registry.url);
}, 180_000);

/**
 * Asks Verdaccio once for every runtime dependency of the nine packages, retrying a failed answer
 * (Verdaccio says 404 "no such package available" when its uplink fails, and npm does not retry a
 * 404): a passing network fault upstream then costs a retry, not the run. Packuments stay cached
 * (`cache: true`). Errors: throws naming the package and the uplink's last answer.
 */
async function warmUplink(registry: string): Promise<void> {
  const names = new Set(
    tarballs.flatMap((t) => {
      const pkg = JSON.parse(readFileSync(join(t.unpacked, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      return Object.keys(pkg.dependencies ?? {});
    }),
  );
  for (const name of names) {
    let last = '';
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await fetch(`${registry}${name.replace('/', '%2f')}`).catch((e: Error) => e);
      if (!(res instanceof Error) && res.ok) {
        await res.body?.cancel();
        last = '';
        break;
      }
      last = res instanceof Error ? res.message : `${res.status} ${await res.text()}`;
      await new Promise((r) => setTimeout(r, 2_000 * attempt));
    }
    if (last)
      throw new Error(`Verdaccio's uplink did not serve ${name} after 5 tries: ${last.slice(0, 200)}`);
  }
}

afterAll(async () => {
  await release?.close();
  if (firstStart.size > 0) {
    const rows = tarballs.map(
      (t) =>
        `${t.name.padEnd(28)} ${String(t.bytes).padStart(9)} B  ${firstStart.get(t.dir)?.toFixed(1) ?? '-'} s`,
    );
    console.log(`release rehearsal: tarball size, first npx -y start (empty cache)\n${rows.join('\n')}`);
  }
  rmSync(work, { recursive: true, force: true });
});

describe('release rehearsal on a loopback Verdaccio', () => {
  it('every release tarball passes the gate', async () => {
    expect(tarballs.map((t) => t.dir)).toHaveLength(9);
    expect((await Promise.all(tarballs.map((t) => gateProblems(t)))).flat()).toEqual([]);
  });

  it('the version-exists guard plans all nine before the publish and none after', () => {
    expect(planned.before?.map((p) => p.dir)).toEqual(tarballs.map((t) => t.dir));
    expect(planned.before?.[0]).toEqual({
      dir: tarballs[0]?.dir,
      name: tarballs[0]?.name,
      version: tarballs[0]?.version,
    });
    expect(planned.after).toEqual([]);
  });

  it('what was published is what was packed, and its mcpName as served is the server.json name', async () => {
    for (const t of tarballs) {
      expect(release.published.get(t.name), t.name).toMatch(
        new RegExp(`\\+ ${t.name.replace('/', '\\/')}@${t.version}`),
      );
      const res = await fetch(`${release.registry.url}${t.name.replace('/', '%2f')}`);
      expect(res.status, t.name).toBe(200);
      const doc = (await res.json()) as {
        'dist-tags': Record<string, string>;
        versions: Record<string, { mcpName?: string; dist: { integrity: string } }>;
      };
      const served = doc.versions[t.version];
      expect(doc['dist-tags'].latest).toBe(t.version);
      expect(served?.dist.integrity).toBe(t.integrity);
      expect(served?.mcpName).toBe(t.serverJson?.name);
    }
  });

  for (const t of tarballs) {
    it(`${t.name} starts by name with npx -y from an empty cache, lists its tools and makes a call`, async () => {
      const home = join(work, 'home', t.dir);
      const scratch = join(home, 'scratch');
      mkdirSync(scratch, { recursive: true });
      // The user's npm: the @refmcp scope (and the rest, through the uplink) from the loopback registry;
      // ~/.npm does not exist yet, so the cache is empty.
      writeFileSync(join(home, '.npmrc'), release.userNpmrc);
      const native =
        t.dir === 'sqlite'
          ? localPrebuildEnv('better-sqlite3', join(repoRoot, 'servers/sqlite'), join(work, 'prebuilds'))
          : {};
      const setup = await rehearse(t.dir, scratch, native);
      const configPath = join(home, '.config/Claude/claude_desktop_config.json');
      mkdirSync(join(home, '.config/Claude'), { recursive: true });
      writeFileSync(
        configPath,
        JSON.stringify(
          {
            mcpServers: { [t.dir]: { command: 'npx', args: ['-y', t.name, ...setup.args], env: setup.env } },
          },
          null,
          2,
        ),
      );
      const { server } = readHostConfig(configPath, t.dir);
      const started = performance.now();
      const conn = await connect({ ...server, env: { ...server.env, HOME: home }, timeoutMs: 150_000 });
      try {
        expect(conn.serverInfo?.version).toBe(t.version);
        const { tools } = await conn.client.listTools();
        firstStart.set(t.dir, (performance.now() - started) / 1000);
        expect(tools.map((tool) => tool.name)).toContain(setup.call.name);
        const result = await conn.client.callTool({ name: setup.call.name, arguments: setup.call.arguments });
        const text = (result.content as { type: string; text?: string }[])
          .map((c) => c.text ?? '')
          .join('\n');
        expect(result.isError, text).toBeFalsy();
        expect(text).toMatch(setup.call.expect);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- server stderr ---\n${conn.stderr().slice(-4000)}`);
      } finally {
        await conn.close();
        await setup.close();
      }
    }, 180_000);
  }
});
