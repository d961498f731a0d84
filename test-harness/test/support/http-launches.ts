/**
 * Each built server in `--transport http` mode on an ephemeral loopback port, with every tool
 * enabled and what it talks to started on 127.0.0.1: the harness's fake GitHub, GitLab, Slack,
 * Drive and Brave, a throwaway PostgreSQL (`startPostgres`), a fresh SQLite file, a temp directory.
 * The browser starts no Chromium until a tool needs one (the suite calls none of its tools).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type HttpServer,
  NO_PACING,
  type PostgresService,
  startHttpServer,
  startPostgres,
  tempDir,
} from '@refmcp/test-harness';
import { BRAVE_KEY, startFakeBrave } from '@refmcp/test-harness/fakes/brave';
import {
  SCENE as DRIVE_SCENE,
  seedScene as seedDrive,
  startFakeDrive,
} from '@refmcp/test-harness/fakes/drive';
import { SCENE_TOKEN as GITHUB_TOKEN, startFakeGitHub } from '@refmcp/test-harness/fakes/github';
import { SCENE_TOKEN as GITLAB_TOKEN, startFakeGitLab } from '@refmcp/test-harness/fakes/gitlab';
import { BOT_TOKEN, startFakeSlack, USER_TOKEN } from '@refmcp/test-harness/fakes/slack';

/** The reference servers. */
export const SERVERS = [
  'filesystem',
  'github',
  'gitlab',
  'postgres',
  'sqlite',
  'slack',
  'drive',
  'search',
  'browser',
] as const;
export type ServerName = (typeof SERVERS)[number];

/** A server serving HTTP and what to stop after it (fakes, databases, temp directories). */
export interface Started {
  server: HttpServer;
  close(): Promise<void>;
}

/** Drive's OAuth client keys and a fresh token file in `dir`, as the env naming them. */
async function driveCredentials(dir: string): Promise<Record<string, string>> {
  const keys = join(dir, 'gcp-oauth.keys.json');
  const token = join(dir, 'credentials.json');
  await writeFile(
    keys,
    JSON.stringify({
      installed: {
        client_id: DRIVE_SCENE.clientId,
        client_secret: DRIVE_SCENE.clientSecret,
        redirect_uris: ['http://localhost'],
      },
    }),
  );
  await writeFile(
    token,
    JSON.stringify({
      access_token: DRIVE_SCENE.accessToken,
      refresh_token: DRIVE_SCENE.refreshToken,
      expiry_date: Date.now() + 3_600_000,
      token_type: 'Bearer',
    }),
    { mode: 0o600 },
  );
  return { GDRIVE_OAUTH_PATH: keys, GDRIVE_CREDENTIALS_PATH: token };
}

/**
 * Starts what `name` needs, then the server over HTTP. Errors: rejects when the built bin is
 * missing (build first) or the server exits before its listening line; what was started is stopped.
 */
export async function startServer(name: ServerName): Promise<Started> {
  const { dir, cleanup } = await tempDir('refmcp-conformance-');
  const closers: (() => Promise<void>)[] = [cleanup];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  const start = async (args: string[], env: Record<string, string> = {}) => {
    const server = await startHttpServer(name, args, { env, timeoutMs: 20_000 });
    closers.push(() => server.stop());
    return { server, close };
  };
  try {
    switch (name) {
      case 'filesystem':
        return await start([dir]);
      case 'github': {
        const gh = await startFakeGitHub();
        closers.push(() => gh.close());
        return await start([...NO_PACING, '--toolsets', 'all'], {
          GITHUB_API_URL: gh.url,
          GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN,
        });
      }
      case 'gitlab': {
        const gl = await startFakeGitLab();
        closers.push(() => gl.close());
        return await start([...NO_PACING, '--toolsets', 'all'], {
          GITLAB_API_URL: gl.url,
          GITLAB_PERSONAL_ACCESS_TOKEN: GITLAB_TOKEN,
        });
      }
      case 'postgres': {
        const pg: PostgresService = await startPostgres({ embedded: true });
        closers.push(() => pg.stop());
        return await start([pg.url, '--allow-writes']);
      }
      case 'sqlite':
        return await start(['--db-path', join(dir, 'conformance.db'), '--allow-writes']);
      case 'slack': {
        const slack = await startFakeSlack();
        closers.push(() => slack.close());
        return await start([...NO_PACING, '--toolsets', 'all', '--post-to', 'all'], {
          SLACK_API_URL: slack.apiUrl,
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_USER_TOKEN: USER_TOKEN,
        });
      }
      case 'drive': {
        const drive = await startFakeDrive();
        seedDrive(drive);
        closers.push(() => drive.close());
        return await start([...NO_PACING, '--toolsets', 'all'], {
          GDRIVE_API_URL: drive.rootUrl,
          GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl,
          ...(await driveCredentials(dir)),
        });
      }
      case 'search': {
        const brave = await startFakeBrave();
        closers.push(() => brave.close());
        return await start(['--toolsets', 'all'], { BRAVE_API_URL: brave.apiUrl, BRAVE_API_KEY: BRAVE_KEY });
      }
      case 'browser':
        return await start(['--output-dir', join(dir, 'out'), '--upload-dir', dir]);
    }
  } catch (error) {
    await close();
    throw error;
  }
}
