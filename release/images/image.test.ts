/**
 * A container image per server from the release tarballs (container/Containerfile), on a base
 * made without any image registry (src/image.ts): non-root, the registry's name label, and run
 * as a host runs it — `podman run -i --rm --read-only --network=none` — handshake and tools listed.
 * runc, since crun cannot set rlimits in this sandbox.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@refmcp/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildImage,
  ensureBaseImage,
  findPodman,
  type Image,
  PODMAN_GLOBAL_FLAGS,
  podman,
  SANDBOX_RUN_FLAGS,
} from '../src/image.js';
import { localPrebuildEnv } from '../src/native-prebuilds.js';
import { packRelease } from '../src/tarballs.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'refmcp-images-'));
const built: Image[] = [];
afterAll(() => {
  if (built.length)
    console.warn(`images\n${built.map((i) => `${i.tag.padEnd(44)} ${i.bytes} B`).join('\n')}`);
  rmSync(work, { recursive: true, force: true });
});

/** Arguments and environment that start each server with no service behind it. */
const START: Record<string, { args: string[]; env: Record<string, string> }> = {
  filesystem: { args: ['/tmp'], env: {} },
  sqlite: { args: ['--db-path', '/data/image.db'], env: {} },
  postgres: { args: ['postgresql://refmcp@127.0.0.1:1/none'], env: {} },
  github: { args: [], env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'github_pat_image_smoke_test' } },
  gitlab: { args: [], env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-image-smoke-test' } },
  slack: { args: [], env: { SLACK_BOT_TOKEN: 'xoxb-image-smoke-test' } },
  search: { args: [], env: { BRAVE_API_KEY: 'image-smoke-test' } },
  browser: { args: [], env: {} },
  drive: { args: [], env: { GDRIVE_CREDENTIALS_PATH: '/run/refmcp/credentials.json' } },
};

const podmanPath = findPodman();
if (!podmanPath) console.warn('container images: podman is not installed here, so no image was built or run');

describe.runIf(podmanPath)('container images', () => {
  const tarballs = packRelease(repoRoot, join(work, 'tarballs'));
  let base = '';

  it('a base image made from debootstrap and the npm node package runs Node', () => {
    // Kept between runs: the Debian root filesystem takes minutes to bootstrap.
    base = ensureBaseImage(join(tmpdir(), 'refmcp-image-base'));
    expect(
      podman([
        ...PODMAN_GLOBAL_FLAGS,
        'run',
        '--rm',
        '--network=none',
        ...SANDBOX_RUN_FLAGS,
        base,
        'node',
        '--version',
      ]).trim(),
    ).toBe(process.version);
  }, 900_000);

  for (const t of tarballs) {
    it(`${t.name}: built, labelled, non-root, answers over stdio with --read-only --network=none`, async () => {
      const native =
        t.dir === 'sqlite'
          ? localPrebuildEnv('better-sqlite3', join(repoRoot, 'servers/sqlite'), join(work, 'prebuilds'))
          : {};
      const image = buildImage(t, base, work, native);
      built.push(image);
      expect(image.label).toBe(t.serverJson?.name);
      expect(podman(['image', 'inspect', '--format', '{{.Config.User}}', image.tag]).trim()).toBe(
        '65532:65532',
      );
      const start = START[t.dir] ?? { args: [], env: {} };
      const envFlags = Object.entries(start.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
      // Drive reads its saved token at startup: mounted read-only, as an operator would.
      const credentials = join(work, 'drive-credentials.json');
      writeFileSync(
        credentials,
        JSON.stringify({ access_token: 'ya29.image', expiry_date: Date.now() + 3_600_000 }),
      );
      const db = join(work, 'image.db');
      writeFileSync(db, ''); // an empty file is an empty SQLite database
      const mounts =
        t.dir === 'drive'
          ? ['-v', `${credentials}:/run/refmcp/credentials.json:ro`]
          : t.dir === 'sqlite'
            ? ['-v', `${db}:/data/image.db:ro`]
            : [];
      const conn = await connect({
        command: 'podman',
        args: [
          ...PODMAN_GLOBAL_FLAGS,
          'run',
          '-i',
          '--rm',
          '--read-only',
          '--network=none',
          ...SANDBOX_RUN_FLAGS,
          ...mounts,
          ...envFlags,
          image.tag,
          ...start.args,
        ],
        env: {},
        timeoutMs: 120_000,
      });
      try {
        expect(conn.serverInfo?.version).toBe(t.version);
        expect((await conn.client.listTools()).tools.length).toBeGreaterThan(0);
        if (t.dir === 'sqlite') {
          // The native module loads inside the image.
          const result = await conn.client.callTool({
            name: 'read_query',
            arguments: { query: 'SELECT sqlite_version() AS v' },
          });
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        }
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- stderr ---\n${conn.stderr().slice(-3000)}`);
      } finally {
        await conn.close();
      }
    });
  }
});
