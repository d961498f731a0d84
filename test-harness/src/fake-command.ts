// `mcp-harness fake <vendor>`: one of the harness's fake APIs on 127.0.0.1 with the demo's seeded
// scene, for trying a server offline. Prints the environment that points the server at it.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRAVE_KEY, startFakeBrave } from './fakes/brave/index.js';
import { SCENE as DRIVE_SCENE, seedScene as seedDrive, startFakeDrive } from './fakes/drive/index.js';
import {
  SCENE_TOKEN as GITHUB_TOKEN,
  seedScene as seedGitHub,
  startFakeGitHub,
} from './fakes/github/index.js';
import {
  SCENE_TOKEN as GITLAB_TOKEN,
  seedScene as seedGitLab,
  startFakeGitLab,
} from './fakes/gitlab/index.js';
import { BOT_TOKEN, seedScene as seedSlack, startFakeSlack } from './fakes/slack/index.js';

/** The fakes `fake` can start, by the name given on the command line. */
export const FAKE_VENDORS = ['github', 'gitlab', 'slack', 'drive', 'brave'] as const;
export type FakeVendorName = (typeof FAKE_VENDORS)[number];

/** A started fake: the server that talks to it, the environment pointing it there, and how to stop. */
export interface RunningFake {
  /** The refmcp server directory under servers/ (brave → search). */
  server: string;
  /** Variables for the server: base URL, token, for drive the key and token files. */
  env: Record<string, string>;
  /** Stops the fake and removes any files it wrote. */
  close(): Promise<void>;
}

/**
 * Starts the fake `vendor` on a free 127.0.0.1 port, seeded as in the demo (brave: generated
 * results for any query). Drive's OAuth client keys and an expired token with a refresh token are
 * written to a fresh temporary directory (removed by `close`), so the server refreshes through the
 * fake's token endpoint as against Google.
 */
export async function startNamedFake(vendor: FakeVendorName): Promise<RunningFake> {
  switch (vendor) {
    case 'github': {
      const gh = await startFakeGitHub();
      seedGitHub(gh);
      const env = { GITHUB_API_URL: gh.url, GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN };
      return { server: 'github', env, close: () => gh.close() };
    }
    case 'gitlab': {
      const gl = await startFakeGitLab();
      seedGitLab(gl);
      const env = { GITLAB_API_URL: gl.url, GITLAB_PERSONAL_ACCESS_TOKEN: GITLAB_TOKEN };
      return { server: 'gitlab', env, close: () => gl.close() };
    }
    case 'slack': {
      const slack = await startFakeSlack();
      seedSlack(slack);
      return {
        server: 'slack',
        env: { SLACK_API_URL: slack.apiUrl, SLACK_BOT_TOKEN: BOT_TOKEN },
        close: () => slack.close(),
      };
    }
    case 'brave': {
      const brave = await startFakeBrave();
      return {
        server: 'search',
        env: { BRAVE_API_URL: brave.apiUrl, BRAVE_API_KEY: BRAVE_KEY },
        close: () => brave.close(),
      };
    }
    case 'drive': {
      const drive = await startFakeDrive();
      seedDrive(drive);
      const dir = await mkdtemp(join(tmpdir(), 'refmcp-fake-drive-'));
      const keys = join(dir, 'gcp-oauth.keys.json');
      const token = join(dir, 'drive-credentials.json');
      const { clientId, clientSecret, expiredToken, refreshToken } = DRIVE_SCENE;
      await writeFile(
        keys,
        JSON.stringify({ installed: { client_id: clientId, client_secret: clientSecret } }),
      );
      const credentials = { access_token: expiredToken, refresh_token: refreshToken, expiry_date: 0 };
      await writeFile(token, JSON.stringify(credentials), { mode: 0o600 });
      return {
        server: 'drive',
        env: {
          GDRIVE_API_URL: drive.rootUrl,
          GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl,
          GDRIVE_OAUTH_PATH: keys,
          GDRIVE_CREDENTIALS_PATH: token,
        },
        close: async () => {
          await drive.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
  }
}

/** `KEY=value` with the value single-quoted for a POSIX shell when it needs it. */
function shellAssignment(name: string, value: string): string {
  return /^[\w./:@%+,-]*$/.test(value) ? `${name}=${value}` : `${name}='${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `fake VENDOR` until SIGINT/SIGTERM: prints the environment lines (`KEY=value`, one a line)
 * and a `#` comment with the command to start the built server against the fake, on stdout; then
 * closes the fake and resolves to 0 on the signal.
 */
export async function runFake(vendor: FakeVendorName): Promise<number> {
  const fake = await startNamedFake(vendor);
  const lines = Object.entries(fake.env).map(([name, value]) => shellAssignment(name, value));
  process.stdout.write(
    `${lines.join('\n')}\n# fake ${vendor} on 127.0.0.1, seeded; try: env ${lines.join(' ')} node servers/${fake.server}/dist/index.js\n# Ctrl-C stops it\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await fake.close();
  return 0;
}
