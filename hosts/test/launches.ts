/**
 * How each built server is launched for the host tests: the command a host's config would hold
 * (`node servers/<name>/dist/index.js …`, every tool enabled) and the environment it passes, with
 * the fakes each server's own tests use (fake GitHub, GitLab, Slack, Drive and Brave on 127.0.0.1,
 * a temp directory, a fresh SQLite file): nothing leaves loopback. PostgreSQL and the browser list their tools without a database or a
 * Chromium (both connect on the first call that needs them), so their launch points at no
 * database and starts no browser; hosts.test.ts checks that what they list is their committed
 * tool snapshots, which the conformance tests take with a real PostgreSQL and Chromium.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtServerTarget, NO_PACING, tempDir } from '@refmcp/test-harness';
import { BRAVE_KEY, type FakeBrave, startFakeBrave } from '@refmcp/test-harness/fakes/brave';
import { SCENE as DRIVE_SCENE, type FakeDrive, startFakeDrive } from '@refmcp/test-harness/fakes/drive';
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
import {
  type FakeSlack,
  BOT_TOKEN as SLACK_BOT_TOKEN,
  USER_TOKEN as SLACK_USER_TOKEN,
  startFakeSlack,
} from '@refmcp/test-harness/fakes/slack';

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
export const SERVERS = [
  'filesystem',
  'github',
  'gitlab',
  'postgres',
  'sqlite',
  'browser',
  'slack',
  'drive',
  'search',
] as const;
export type ServerName = (typeof SERVERS)[number];

/** A URL that reaches no PostgreSQL (port 1 on loopback): `tools/list` never connects. */
const NO_DATABASE = 'postgresql://refmcp:unused@127.0.0.1:1/refmcp';

const launch = (server: string, args: string[], env: Record<string, string> = {}): Launch => ({
  ...builtServerTarget(server, args),
  env,
});

/**
 * The Drive server's OAuth client keys and a fresh token file (the fake's scene token) in `dir`,
 * as the env naming them (GDRIVE_OAUTH_PATH, GDRIVE_CREDENTIALS_PATH): the server exits without a
 * token file, and listing tools sends no request.
 */
async function driveCredentials(dir: string): Promise<Record<string, string>> {
  const keys = join(dir, 'gcp-oauth.keys.json');
  const token = join(dir, 'credentials.json');
  const client = {
    client_id: DRIVE_SCENE.clientId,
    client_secret: DRIVE_SCENE.clientSecret,
    redirect_uris: ['http://localhost'],
  };
  await writeFile(keys, JSON.stringify({ installed: client }));
  const fresh = {
    access_token: DRIVE_SCENE.accessToken,
    refresh_token: DRIVE_SCENE.refreshToken,
    expiry_date: Date.now() + 3_600_000,
    token_type: 'Bearer',
  };
  await writeFile(token, JSON.stringify(fresh), { mode: 0o600 });
  return { GDRIVE_OAUTH_PATH: keys, GDRIVE_CREDENTIALS_PATH: token };
}

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
      return {
        launch: launch('postgres', [NO_DATABASE, '--allow-writes', '--toolsets', 'all']),
        close: cleanup,
      };
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
    case 'slack': {
      // A user token too, so slack_search_messages is served; --post-to all serves posting.
      const slack: FakeSlack = await startFakeSlack();
      return {
        launch: launch('slack', [...NO_PACING, '--toolsets', 'all', '--post-to', 'all'], {
          SLACK_API_URL: slack.apiUrl,
          SLACK_BOT_TOKEN,
          SLACK_USER_TOKEN,
        }),
        close: async () => {
          await slack.close();
          await cleanup();
        },
      };
    }
    case 'drive': {
      const drive: FakeDrive = await startFakeDrive();
      return {
        launch: launch('drive', [...NO_PACING, '--toolsets', 'all'], {
          GDRIVE_API_URL: drive.rootUrl,
          GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl,
          ...(await driveCredentials(dir)),
        }),
        close: async () => {
          await drive.close();
          await cleanup();
        },
      };
    }
    case 'search': {
      // The Brave provider, whose tools are the committed snapshots. SearXNG's tools (web_search,
      // …) replace Brave's only under --provider searxng and have no snapshots to compare with.
      const brave: FakeBrave = await startFakeBrave();
      return {
        launch: launch('search', ['--toolsets', 'all'], {
          BRAVE_API_URL: brave.apiUrl,
          BRAVE_API_KEY: BRAVE_KEY,
        }),
        close: async () => {
          await brave.close();
          await cleanup();
        },
      };
    }
  }
}
