/**
 * Issue 32: sign-in through the client for GitHub (OAuth device flow, RFC 8628). A server given
 * GITHUB_OAUTH_CLIENT_ID and no token asks a client that declares URL elicitation to open GitHub's
 * verification page with the user code in the message, in both protocol eras; it polls the fake's
 * token endpoint meanwhile and continues the call once the user approved the code. The test plays
 * the user on the verification page through the fake (`gh.device.approve`/`deny`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Connection,
  connectHttp,
  type Era,
  NO_PACING,
  resultText,
  startBuiltServer,
  startHttpServer,
} from '@refmcp/test-harness';
import type { FakeGitHub } from '@refmcp/test-harness/fakes/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENE_TOKEN, startScene } from './support.js';

const CLIENT_ID = 'Iv1.devicetest0001';
const URL_ELICITATION = { elicitation: { form: {}, url: {} } };

let gh: FakeGitHub;
beforeAll(async () => {
  ({ gh } = await startScene());
  gh.device.clients.add(CLIENT_ID);
  gh.device.interval = 1;
});
afterAll(() => gh.close());

/** A first run: the client id, no token; the sign-in is saved under `<cfg>/refmcp-github/`. */
function firstRun() {
  const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'github-signin-'));
  const env: Record<string, string> = {
    GITHUB_API_URL: gh.url,
    GITHUB_OAUTH_CLIENT_ID: CLIENT_ID,
    XDG_CONFIG_HOME: cfg,
  };
  return { env, token: path.join(cfg, 'refmcp-github', 'oauth-token.json') };
}

/** What the user does: approve or deny the code on GitHub, or answer the client with decline/cancel. */
type User = 'approve' | 'deny' | 'decline' | 'cancel' | 'ignore' | 'approve-after-slow-down';

interface Asked {
  url: string;
  message: string;
  mode: string;
  code: string;
}

/** Plays the user on `conn.client`: each URL elicitation is answered as the next of `users` does. */
function playUser(conn: Pick<Connection, 'client'>, users: User[], asked: Asked[]): void {
  conn.client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { mode?: string; url?: string; message: string };
    const code = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(params.message)?.[1] ?? '';
    asked.push({ url: params.url ?? '', message: params.message, mode: params.mode ?? 'form', code });
    const user = users.shift() ?? 'cancel';
    if (user === 'decline' || user === 'cancel') return { action: user };
    // The user types the code on the verification page after telling the client to open it.
    if (user === 'approve') gh.device.approve(code, 'octo');
    if (user === 'deny') gh.device.deny(code);
    if (user === 'approve-after-slow-down') {
      gh.device.grant(code).forceSlowDowns = 1;
      gh.device.approve(code, 'octo');
    }
    return { action: 'accept' };
  });
}

async function client(
  era: Era,
  env: Record<string, string>,
  users: User[],
  asked: Asked[],
  args: string[] = [],
) {
  const conn = await startBuiltServer('github', [...NO_PACING, ...args], {
    era,
    env,
    capabilities: URL_ELICITATION,
  });
  playUser(conn, users, asked);
  return conn;
}

const getMe = (conn: Pick<Connection, 'client'>) => conn.client.callTool({ name: 'get_me', arguments: {} });

describe.each(['legacy', 'modern'] as const)('GitHub sign-in through the client (%s era)', (era) => {
  it('accept: the user approves the code, the call runs as them, the token is saved 0600 and reused after a restart', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['approve'], asked);
    try {
      const r = await getMe(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(resultText(r)).toContain('octo');
      expect(asked).toHaveLength(1);
      const [ask] = asked as [Asked];
      expect(ask.mode).toBe('url');
      expect(ask.url).toBe(`${gh.urls.web}/login/device`);
      expect(ask.message).toMatch(
        /^Sign in to GitHub \(127\.0\.0\.1:\d+\) to let this MCP server act as you/,
      );
      const grant = gh.device.grant(ask.code);
      expect(grant.clientId).toBe(CLIENT_ID);
      expect(grant.scope).toBe('repo read:org');
      expect(grant.status).toBe('redeemed');
      const saved = JSON.parse(fs.readFileSync(token, 'utf8')) as Record<string, string>;
      expect(saved.access_token).toBe(grant.token);
      expect(saved.host).toBe(new URL(gh.urls.web).host);
      expect(fs.statSync(token).mode & 0o777).toBe(0o600);
      // Later calls do not ask.
      const again = await getMe(conn);
      expect(again.isError, resultText(again)).toBeFalsy();
      expect(asked).toHaveLength(1);
    } finally {
      await conn.close();
    }
    // A restart uses the saved token: nothing asked, no new grant.
    const grants = gh.device.grants.length;
    const restarted: Asked[] = [];
    const second = await client(era, env, [], restarted);
    try {
      const r = await getMe(second);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(resultText(r)).toContain('octo');
      expect(restarted).toEqual([]);
      expect(gh.device.grants.length).toBe(grants);
    } finally {
      await second.close();
    }
  });

  it('deny on GitHub: an error naming the denial; nothing saved; the next call asks again', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['deny', 'approve'], asked);
    try {
      const r = await getMe(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(/^Sign-in did not complete: the user denied access on GitHub/);
      expect(fs.existsSync(token)).toBe(false);
      const retry = await getMe(conn);
      expect(retry.isError, resultText(retry)).toBeFalsy();
      expect(asked).toHaveLength(2);
      expect(asked[1]?.code).not.toBe(asked[0]?.code);
    } finally {
      await conn.close();
    }
  });

  it('decline and cancel in the client: an error result, polling stopped, nothing saved', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['decline', 'cancel'], asked);
    try {
      const declined = await getMe(conn);
      expect(declined.isError).toBe(true);
      expect(resultText(declined)).toMatch(/^The user declined to sign in/);
      const cancelled = await getMe(conn);
      expect(cancelled.isError).toBe(true);
      expect(resultText(cancelled)).toMatch(/^The user dismissed the sign-in/);
      expect(fs.existsSync(token)).toBe(false);
      // Approving a declined code later does not sign the server in: its polling ended.
      gh.device.approve(asked[0]?.code ?? '', 'octo');
      const after: Asked[] = [];
      playUser(conn, ['cancel'], after);
      const r = await getMe(conn);
      expect(r.isError).toBe(true);
      expect(after).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });

  it('expiry: a code never approved ends the call with an error saying it expired', async () => {
    const { env } = firstRun();
    gh.device.expiresIn = 2;
    const asked: Asked[] = [];
    const conn = await client(era, env, ['ignore'], asked);
    try {
      const r = await getMe(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /^Sign-in did not complete: the code [A-Z]{4}-[A-Z]{4} expired before it was approved/,
      );
    } finally {
      gh.device.expiresIn = 900;
      await conn.close();
    }
  });
});

describe('GitHub sign-in: polling and configuration', () => {
  it('slow_down is honoured: the next poll waits the interval plus 5 s, so GitHub never has to slow it down again', async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['approve-after-slow-down'], asked);
    try {
      const r = await getMe(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      const grant = gh.device.grant(asked[0]?.code ?? '');
      expect(grant.slowDowns).toBe(1);
      expect(grant.interval).toBe(6);
      expect(grant.polls).toHaveLength(2);
      expect((grant.polls[1] ?? 0) - (grant.polls[0] ?? 0)).toBeGreaterThanOrEqual(6000 - 50);
    } finally {
      await conn.close();
    }
  });

  it('a client without URL elicitation gets an error naming GITHUB_PERSONAL_ACCESS_TOKEN; no code requested', async () => {
    const { env } = firstRun();
    const grants = gh.device.grants.length;
    const conn = await startBuiltServer('github', [...NO_PACING], { env });
    try {
      const r = await getMe(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /^GitHub is not signed in yet, and this client cannot open a sign-in link/,
      );
      expect(resultText(r)).toContain('Set GITHUB_PERSONAL_ACCESS_TOKEN');
      expect(gh.device.grants.length).toBe(grants);
    } finally {
      await conn.close();
    }
  });

  it("an OAuth app without the device flow enabled: an error naming GitHub's refusal; nothing asked", async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', { ...env, GITHUB_OAUTH_CLIENT_ID: 'Iv1.notenabled' }, [], asked);
    try {
      const r = await getMe(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /^Sign-in did not complete: GitHub refused the device flow \(device_flow_disabled/,
      );
      expect(asked).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('a FIFO, a link to /dev/zero or a huge file at the token path: startup goes on, the user signs in', async () => {
    for (const plant of ['fifo', 'zero', 'huge'] as const) {
      const { env, token } = firstRun();
      fs.mkdirSync(path.dirname(token), { recursive: true });
      if (plant === 'fifo') execFileSync('mkfifo', [token]);
      else if (plant === 'zero') fs.symlinkSync('/dev/zero', token);
      else fs.writeFileSync(token, `{"x":"${'x'.repeat(200 * 1024)}"}`);
      const asked: Asked[] = [];
      const conn = await client('legacy', env, ['approve'], asked);
      try {
        const r = await getMe(conn);
        expect(r.isError, `${plant}: ${resultText(r)}`).toBeFalsy();
        expect(asked).toHaveLength(1);
        expect(fs.statSync(token).isFile()).toBe(true);
      } finally {
        await conn.close();
      }
    }
  });

  it('a token in the environment wins: no sign-in, the client id is ignored', async () => {
    const { env } = firstRun();
    const grants = gh.device.grants.length;
    const asked: Asked[] = [];
    const conn = await client('legacy', { ...env, GITHUB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN }, [], asked);
    try {
      const r = await getMe(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(asked).toEqual([]);
      expect(gh.device.grants.length).toBe(grants);
    } finally {
      await conn.close();
    }
  });

  it('a revoked token: the call fails with a hint, the next one signs in again', async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['approve', 'approve'], asked);
    try {
      expect((await getMe(conn)).isError).toBeFalsy();
      gh.state.tokens.delete(gh.device.grant(asked[0]?.code ?? '').token ?? '');
      const refused = await getMe(conn);
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toContain('401');
      expect(resultText(refused)).toContain('GitHub refused the signed-in token (revoked or expired)');
      const again = await getMe(conn);
      expect(again.isError, resultText(again)).toBeFalsy();
      expect(asked).toHaveLength(2);
    } finally {
      await conn.close();
    }
  });

  it('--read-only and --repos still apply to the signed-in user', async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['approve'], asked, ['--read-only', '--repos', 'acme/demo']);
    try {
      expect((await getMe(conn)).isError).toBeFalsy();
      const { tools } = await conn.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain('get_file_contents');
      expect(names).not.toContain('create_issue');
      const outside = await conn.client.callTool({
        name: 'get_file_contents',
        arguments: { owner: 'acme', repo: 'private-notes', path: 'secrets.md' },
      });
      expect(outside.isError).toBe(true);
      expect(resultText(outside)).toMatch(
        /is outside the repositories this server may access \(--repos acme\/demo\)/,
      );
    } finally {
      await conn.close();
    }
  });
});

describe.each(['legacy', 'modern'] as const)('GitHub sign-in over HTTP (%s era)', (era) => {
  it('bound to loopback: the sign-in runs as over stdio', async () => {
    const { env, token } = firstRun();
    const server = await startHttpServer('github', [...NO_PACING], { env });
    const asked: Asked[] = [];
    const { client: mcp } = await connectHttp(server.url, era, undefined, URL_ELICITATION);
    playUser({ client: mcp } as Pick<Connection, 'client'>, ['approve'], asked);
    try {
      const r = await getMe({ client: mcp } as Pick<Connection, 'client'>);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(fs.existsSync(token)).toBe(true);
    } finally {
      await mcp.close();
      await server.stop();
    }
  });

  it('reachable from other machines: refused (it would act for every caller as whoever signed in); nothing asked', async () => {
    const { env, token } = firstRun();
    const secret = 'sign-in-test-token-0123456789';
    const grants = gh.device.grants.length;
    const server = await startHttpServer('github', [...NO_PACING], {
      env: { ...env, MCP_HTTP_TOKEN: secret, MCP_HTTP_ALLOWED_HOSTS: 'github.example.com' },
    });
    const asked: Asked[] = [];
    const { client: mcp } = await connectHttp(server.url, era, secret, URL_ELICITATION);
    playUser({ client: mcp } as Pick<Connection, 'client'>, ['approve'], asked);
    try {
      const r = await getMe({ client: mcp } as Pick<Connection, 'client'>);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /sign-in through the client is off for a server reachable from other machines/,
      );
      expect(resultText(r)).toContain('Set GITHUB_PERSONAL_ACCESS_TOKEN');
      expect(asked).toEqual([]);
      expect(gh.device.grants.length).toBe(grants);
      expect(fs.existsSync(token)).toBe(false);
    } finally {
      await mcp.close();
      await server.stop();
    }
  });
});
