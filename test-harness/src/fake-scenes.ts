// The fakes `mcp-harness fake <vendor>` starts, seeded as in the demo, each with what a newcomer
// needs for a first call: the environment for the server, its flags, a summary of the seeded data
// read from the fake's own state (so it stays true when the seed changes), and a first tool call.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRAVE_KEY, startFakeBrave } from './fakes/brave/index.js';
import type { FakeDrive } from './fakes/drive/fake-drive.js';
import { SCENE as DRIVE_SCENE, seedScene as seedDrive, startFakeDrive } from './fakes/drive/index.js';
import type { FakeGitHub } from './fakes/github/fake-github.js';
import {
  SCENE_TOKEN as GITHUB_TOKEN,
  seedScene as seedGitHub,
  startFakeGitHub,
} from './fakes/github/index.js';
import type { FakeGitLab } from './fakes/gitlab/fake-gitlab.js';
import {
  SCENE_TOKEN as GITLAB_TOKEN,
  seedScene as seedGitLab,
  startFakeGitLab,
} from './fakes/gitlab/index.js';
import type { FakeSlack } from './fakes/slack/fake-slack.js';
import { BOT_TOKEN, seedScene as seedSlack, startFakeSlack, USER_TOKEN } from './fakes/slack/index.js';
import { plural } from './format.js';

/** The fakes `fake` can start, by the name given on the command line. */
export const FAKE_VENDORS = ['github', 'gitlab', 'slack', 'drive', 'brave'] as const;
export type FakeVendorName = (typeof FAKE_VENDORS)[number];

/** A started fake: the server that talks to it, how to point it there, what it holds, how to stop. */
export interface RunningFake {
  /** The refmcp server directory under servers/ (brave → search). */
  server: string;
  /** Variables for the server: base URL, token(s), for drive the key and token files. */
  env: Record<string, string>;
  /** The server's flags for this scene (e.g. `--repos acme/demo`). */
  args: string[];
  /** What the fake holds, one line each (repositories, projects, channels, file ids, users). */
  seeded: string[];
  /** A call that works on the seeded data. */
  firstCall: { tool: string; arguments: Record<string, unknown> };
  /**
   * Drive: the variables of a first run instead (no token yet, the config directory in this
   * fake's scratch directory): the first call signs in through the client, or `auth` signs in, at
   * the fake's consent page; the token is saved under that directory.
   */
  firstRun?: Record<string, string>;
  /** A scratch directory of this fake (key files, the host config), removed by `close`. */
  dir: string;
  /** Stops the fake and removes its directory. */
  close(): Promise<void>;
}

type Scene = Omit<RunningFake, 'dir' | 'close'> & { stop(): Promise<void> };

function githubSeeded(gh: FakeGitHub): string[] {
  const user = 'octo';
  const repos = gh.state.repos.map((r) => {
    const full = `${r.owner}/${r.name}`;
    if (r.private && r.owner !== user && !r.collaborators.has(user))
      return `${full} (private: ${user} cannot see it, answers 404)`;
    const issues = r.issues.filter((i) => !i.pull && i.state === 'open').length;
    const pulls = r.issues.filter((i) => i.pull && i.state === 'open').length;
    return `${full} (${plural(issues, 'open issue')}, ${plural(pulls, 'open pull request')}, ${plural(r.releases.length, 'release')})`;
  });
  return [`user: ${user} (the token above)`, `repositories: ${repos.join('; ')}`];
}

function gitlabSeeded(gl: FakeGitLab): string[] {
  const s = gl.state;
  const me = s.tokens.get(GITLAB_TOKEN)?.userId;
  const member = (p: { members: Map<number, unknown>; namespace: unknown }) => {
    if (me === undefined) return false;
    if (p.members.has(me)) return true;
    type Ns = { members?: Map<number, unknown>; parent: Ns | null } | null;
    for (let ns = p.namespace as Ns; ns; ns = ns.parent) if (ns.members?.has(me)) return true;
    return false;
  };
  const projects = [...s.projects.values()].map((p) => {
    const full = `${p.namespace.fullPath}/${p.path}`;
    if (p.visibility === 'private' && !member(p))
      return `${full} (id ${p.id}, private: not visible to this token)`;
    const issues = p.issues.filter((i) => i.state === 'opened').length;
    const mrs = p.mergeRequests.filter((m) => m.state === 'opened').length;
    return `${full} (id ${p.id}, ${plural(issues, 'open issue')}, ${plural(mrs, 'open merge request')})`;
  });
  return [
    'user: tester (the token above; Maintainer of grp)',
    `projects: ${projects.join('; ')}`,
    'group epic: grp work item iid 1 (work_items toolset; --projects needs grp/*)',
    'code search: advanced search on, so search_group_code works (groups toolset)',
  ];
}

function slackSeeded(slack: FakeSlack, bot: string): string[] {
  const channels = [...slack.state.channels.values()].filter(
    (c) => c.kind === 'public' || c.kind === 'private',
  );
  const withBot = channels.filter((c) => c.members.has(bot) && !c.archived);
  const without = channels.filter((c) => !c.members.has(bot));
  const names = (list: typeof channels) => list.map((c) => `#${c.name} ${c.id}`).join(', ');
  return [
    `channels the bot is in: ${names(withBot)}`,
    `channels it is not in (answers not_in_channel): ${names(without)}`,
    `users: ${plural(slack.state.users.size, 'user')}; messages mentioning "meeting" for slack_search_messages (SLACK_USER_TOKEN, a user token, enables it)`,
    'posting: only to #test C0TEST (--post-to C0TEST)',
  ];
}

function driveSeeded(drive: FakeDrive): string[] {
  const files = [...drive.state.files.values()].filter((f) => !f.trashed && f.parents.length > 0);
  const kind = (mime: string) => mime.replace('application/vnd.google-apps.', '');
  const shown = files.slice(0, 12).map((f) => `${f.id} "${f.name}" (${kind(f.mimeType)})`);
  const more = files.length > shown.length ? `; … ${files.length - shown.length} more` : '';
  return [
    `file ids: ${shown.join('; ')}${more}`,
    'multi-tab Doc: HANDBOOK1 "Team handbook" (tabs Overview, its child Onboarding, On-call; read_file reads every tab)',
    `Shared Drive: ${DRIVE_SCENE.sharedDriveId}; add --folders FOLDER1 to limit the server to the Reports folder`,
  ];
}

/**
 * The variable that puts the Drive server's config directory (servers/drive/src/auth/paths.ts)
 * under `dir`, so a first run's token lands there and not in the user's own config.
 */
function configHome(dir: string): Record<string, string> {
  if (process.platform === 'darwin') return { HOME: dir };
  if (process.platform === 'win32') return { APPDATA: dir };
  return { XDG_CONFIG_HOME: dir };
}

async function startScene(vendor: FakeVendorName, dir: string): Promise<Scene> {
  switch (vendor) {
    case 'github': {
      const gh = await startFakeGitHub();
      seedGitHub(gh);
      return {
        server: 'github',
        env: { GITHUB_API_URL: gh.url, GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN },
        args: ['--repos', 'acme/demo'],
        seeded: githubSeeded(gh),
        firstCall: {
          tool: 'get_file_contents',
          arguments: { owner: 'acme', repo: 'demo', path: 'README.md' },
        },
        stop: () => gh.close(),
      };
    }
    case 'gitlab': {
      const gl = await startFakeGitLab();
      seedGitLab(gl);
      // Advanced search on, so search_group_code can be tried (a bare fake is a Free instance: 400).
      gl.codeSearch.advanced = true;
      return {
        server: 'gitlab',
        env: { GITLAB_API_URL: gl.url, GITLAB_PERSONAL_ACCESS_TOKEN: GITLAB_TOKEN },
        args: ['--projects', 'grp/proj'],
        seeded: gitlabSeeded(gl),
        firstCall: {
          tool: 'get_file_contents',
          arguments: { project_id: 'grp/proj', file_path: 'README.md' },
        },
        stop: () => gl.close(),
      };
    }
    case 'slack': {
      const slack = await startFakeSlack();
      seedSlack(slack);
      return {
        server: 'slack',
        env: { SLACK_API_URL: slack.apiUrl, SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_USER_TOKEN: USER_TOKEN },
        args: ['--post-to', 'C0TEST'],
        seeded: slackSeeded(slack, 'U0BOT'),
        firstCall: { tool: 'slack_get_channel_history', arguments: { channel_id: 'C111', limit: 5 } },
        stop: () => slack.close(),
      };
    }
    case 'brave': {
      const brave = await startFakeBrave();
      return {
        server: 'search',
        env: { BRAVE_API_URL: brave.apiUrl, BRAVE_API_KEY: BRAVE_KEY },
        args: [],
        seeded: ['results: generated for any query (web, news, videos, images, local)'],
        firstCall: { tool: 'brave_web_search', arguments: { query: 'model context protocol', count: 3 } },
        stop: () => brave.close(),
      };
    }
    case 'drive': {
      const drive = await startFakeDrive();
      seedDrive(drive);
      // OAuth client keys and an expired token with a refresh token: the server refreshes through
      // the fake's token endpoint as against Google.
      const keys = join(dir, 'gcp-oauth.keys.json');
      const token = join(dir, 'drive-credentials.json');
      const { clientId, clientSecret, expiredToken, refreshToken } = DRIVE_SCENE;
      await writeFile(
        keys,
        JSON.stringify({ installed: { client_id: clientId, client_secret: clientSecret } }),
      );
      const credentials = { access_token: expiredToken, refresh_token: refreshToken, expiry_date: 0 };
      await writeFile(token, JSON.stringify(credentials), { mode: 0o600 });
      // GOOGLE_OAUTH_AUTH_URL: `auth` and sign-in through the client send the user to the fake's
      // consent page, which mints codes its token endpoint exchanges (routes-consent.ts).
      const endpoints = {
        GDRIVE_API_URL: drive.rootUrl,
        GOOGLE_OAUTH_TOKEN_URL: drive.tokenUrl,
        GOOGLE_OAUTH_AUTH_URL: drive.authUrl,
        GDRIVE_OAUTH_PATH: keys,
      };
      return {
        server: 'drive',
        env: { ...endpoints, GDRIVE_CREDENTIALS_PATH: token },
        firstRun: { ...configHome(join(dir, 'first-run')), ...endpoints },
        args: [],
        seeded: driveSeeded(drive),
        firstCall: { tool: 'read_file', arguments: { file_id: 'DOC1' } },
        stop: () => drive.close(),
      };
    }
  }
}

/**
 * Starts the fake `vendor` on a free 127.0.0.1 port, seeded as in the demo (brave: generated
 * results for any query), with a fresh scratch directory under the OS temp dir (Drive's key files;
 * the caller's host config), removed by `close`. Errors: rejects when the fake cannot listen.
 */
export async function startNamedFake(vendor: FakeVendorName): Promise<RunningFake> {
  const dir = await mkdtemp(join(tmpdir(), `refmcp-fake-${vendor}-`));
  try {
    const { stop, ...scene } = await startScene(vendor, dir);
    return {
      ...scene,
      dir,
      close: async () => {
        await stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
