/**
 * How each built server is launched for the host tests: the command a host's config would hold
 * (`node servers/<name>/dist/index.js …`, every tool enabled) and the environment it passes, with
 * the fakes each server's own tests use (fake GitHub and GitLab on 127.0.0.1, a temp directory, a
 * fresh SQLite file). PostgreSQL and the browser list their tools without a database or a
 * Chromium (both connect on the first call that needs them), so their launch points at no
 * database and starts no browser; hosts.test.ts checks that what they list is their committed
 * tool snapshots, which the conformance tests take with a real PostgreSQL and Chromium.
 */
import { join } from 'node:path';
import { builtServerTarget, NO_PACING, tempDir } from '@refmcp/test-harness';
import {
  type FakeGitHub,
  SCENE_TOKEN as GITHUB_TOKEN,
  startFakeGitHub,
} from '@refmcp/test-harness/fakes/github';
import {
  type FakeGitLab,
  SCENE_TOKEN as GITLAB_TOKEN,
  startFakeGitLab,
} from '@refmcp/test-harness/fakes/gitlab';

/** A server's stdio launch as a host config holds it: command, arguments, extra environment. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** A launch and what to stop after it (fakes, temp directories). */
export interface Launched {
  launch: Launch;
  close(): Promise<void>;
}

/** The reference servers, each with every tool enabled. */
export const SERVERS = ['filesystem', 'github', 'gitlab', 'postgres', 'sqlite', 'browser'] as const;
export type ServerName = (typeof SERVERS)[number];

/** A URL that reaches no PostgreSQL (port 1 on loopback): `tools/list` never connects. */
const NO_DATABASE = 'postgresql://refmcp:unused@127.0.0.1:1/refmcp';

const launch = (server: string, args: string[], env: Record<string, string> = {}): Launch => ({
  ...builtServerTarget(server, args),
  env,
});

/**
 * Starts what `server` needs and returns its launch. SQLite gets an empty database file created by
 * the server itself (`--allow-writes`). Errors: the built bin is missing (build first).
 */
export async function startLaunch(server: ServerName): Promise<Launched> {
  const { dir, cleanup } = await tempDir();
  switch (server) {
    case 'filesystem':
      return { launch: launch('filesystem', [dir]), close: cleanup };
    case 'github': {
      const gh: FakeGitHub = await startFakeGitHub();
      return {
        launch: launch('github', [...NO_PACING, '--toolsets', 'all'], {
          GITHUB_API_URL: gh.url,
          GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN,
        }),
        close: async () => {
          await gh.close();
          await cleanup();
        },
      };
    }
    case 'gitlab': {
      const gl: FakeGitLab = await startFakeGitLab();
      return {
        launch: launch('gitlab', [...NO_PACING, '--toolsets', 'all'], {
          GITLAB_API_URL: gl.url,
          GITLAB_PERSONAL_ACCESS_TOKEN: GITLAB_TOKEN,
        }),
        close: async () => {
          await gl.close();
          await cleanup();
        },
      };
    }
    case 'postgres':
      return { launch: launch('postgres', [NO_DATABASE, '--allow-writes']), close: cleanup };
    case 'sqlite':
      return {
        launch: launch('sqlite', ['--db-path', join(dir, 'hosts.db'), '--allow-writes']),
        close: cleanup,
      };
    case 'browser':
      return {
        launch: launch('browser', [
          '--enable-evaluate',
          '--output-dir',
          join(dir, 'out'),
          '--upload-dir',
          dir,
        ]),
        close: cleanup,
      };
  }
}
