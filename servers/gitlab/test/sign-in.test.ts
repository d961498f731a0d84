/**
 * Issue 32: sign-in through the client for GitLab (device authorization grant, GitLab 17.1+,
 * RFC 8628). A server given GITLAB_OAUTH_CLIENT_ID and no token asks a client that declares URL
 * elicitation to open the instance's device page, in both protocol eras; it polls the fake's
 * /oauth/token meanwhile and continues the call once the user approved. The tokens are saved 0600
 * and refreshed when the access token expires. The test plays the user on the device page
 * through the fake (`gl.oauth.approve`/`deny`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_HTTP_POLICY } from '@refmcp/shared';
import {
  type Connection,
  connectHttp,
  type Era,
  NO_PACING,
  resultText,
  startBuiltServer,
  startHttpServer,
} from '@refmcp/test-harness';
import { type FakeGitLab, MAINTAINER } from '@refmcp/test-harness/fakes/gitlab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthSession } from '../src/auth/session.js';
import { SCENE_TOKEN, startScene } from './support.js';

const CLIENT_ID = 'gitlab-device-test-app-0001';
const URL_ELICITATION = { elicitation: { form: {}, url: {} } };
/** A private project only the signed-in user (tester) sees: anonymous callers get a 404. */
const PRIVATE = 'tester/signin-private';

let gl: FakeGitLab;
beforeAll(async () => {
  ({ gl } = await startScene());
  gl.oauth.clients.add(CLIENT_ID);
  gl.oauth.interval = 1;
  gl.state.addProject('tester', 'signin-private', {
    visibility: 'private',
    creator: 'tester',
    members: { tester: MAINTAINER },
  });
});
afterAll(() => gl.close());

/** A first run: the client id, no token; the sign-in is saved under `<cfg>/refmcp-gitlab/`. */
function firstRun() {
  const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'gitlab-signin-'));
  const env: Record<string, string> = {
    GITLAB_API_URL: gl.url,
    GITLAB_OAUTH_CLIENT_ID: CLIENT_ID,
    XDG_CONFIG_HOME: cfg,
  };
  return { env, token: path.join(cfg, 'refmcp-gitlab', 'oauth-token.json') };
}

type User = 'approve' | 'deny' | 'decline' | 'ignore';

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
    const code = /user_code=([0-9A-Z]+)/.exec(params.url ?? '')?.[1] ?? '';
    asked.push({ url: params.url ?? '', message: params.message, mode: params.mode ?? 'form', code });
    const user = users.shift() ?? 'decline';
    if (user === 'decline') return { action: 'decline' };
    if (user === 'approve') gl.oauth.approve(code, 'tester');
    if (user === 'deny') gl.oauth.deny(code);
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
  const conn = await startBuiltServer('gitlab', [...NO_PACING, ...args], {
    era,
    env,
    capabilities: URL_ELICITATION,
  });
  playUser(conn, users, asked);
  return conn;
}

const getPrivate = (conn: Pick<Connection, 'client'>) =>
  conn.client.callTool({ name: 'get_project', arguments: { project_id: PRIVATE } });

describe.each(['legacy', 'modern'] as const)('GitLab sign-in through the client (%s era)', (era) => {
  it('accept: the user authorizes, the call runs as them, the tokens are saved 0600 and reused after a restart', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['approve'], asked);
    try {
      const r = await getPrivate(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(resultText(r)).toContain('signin-private');
      expect(asked).toHaveLength(1);
      const [ask] = asked as [Asked];
      expect(ask.mode).toBe('url');
      expect(ask.url).toBe(`${gl.web}/oauth/device?user_code=${ask.code}`);
      expect(ask.message).toMatch(
        /^Sign in to GitLab \(127\.0\.0\.1:\d+\) to let this MCP server act as you/,
      );
      expect(ask.message).toContain(ask.code);
      const grant = gl.oauth.grant(ask.code);
      expect(grant.clientId).toBe(CLIENT_ID);
      expect(grant.scope).toBe('api');
      expect(grant.status).toBe('redeemed');
      const saved = JSON.parse(fs.readFileSync(token, 'utf8')) as Record<string, unknown>;
      expect(saved.access_token).toBe(grant.token);
      expect(typeof saved.refresh_token).toBe('string');
      expect(saved.instance).toBe(`${gl.web}/`);
      expect(fs.statSync(token).mode & 0o777).toBe(0o600);
      const again = await getPrivate(conn);
      expect(again.isError, resultText(again)).toBeFalsy();
      expect(asked).toHaveLength(1);
    } finally {
      await conn.close();
    }
    const grants = gl.oauth.grants.length;
    const restarted: Asked[] = [];
    const second = await client(era, env, [], restarted);
    try {
      const r = await getPrivate(second);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(restarted).toEqual([]);
      expect(gl.oauth.grants.length).toBe(grants);
    } finally {
      await second.close();
    }
  });

  it('deny on GitLab: an error naming the denial; nothing saved; the next call asks again', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['deny', 'approve'], asked);
    try {
      const r = await getPrivate(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(/^Sign-in did not complete: the user denied access on GitLab/);
      expect(fs.existsSync(token)).toBe(false);
      const retry = await getPrivate(conn);
      expect(retry.isError, resultText(retry)).toBeFalsy();
      expect(asked).toHaveLength(2);
      expect(asked[1]?.code).not.toBe(asked[0]?.code);
    } finally {
      await conn.close();
    }
  });

  it('expiry: a code never approved ends the call with an error saying it expired', async () => {
    const { env, token } = firstRun();
    gl.oauth.expiresIn = 2;
    const asked: Asked[] = [];
    const conn = await client(era, env, ['ignore'], asked);
    try {
      const r = await getPrivate(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /^Sign-in did not complete: the code [0-9A-Z]+ expired before it was approved/,
      );
      expect(fs.existsSync(token)).toBe(false);
    } finally {
      gl.oauth.expiresIn = 300;
      await conn.close();
    }
  });
});

describe('GitLab sign-in: refresh, scopes and configuration', () => {
  it('an expired access token is refreshed with the refresh token (saved again), without asking the user', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['approve'], asked);
    try {
      expect((await getPrivate(conn)).isError).toBeFalsy();
      const before = JSON.parse(fs.readFileSync(token, 'utf8')) as Record<string, string>;
      const refreshes = gl.oauth.refreshes;
      // Two hours pass: GitLab refuses the access token (401 invalid_token).
      gl.oauth.expire(asked[0]?.code ?? '');
      const r = await getPrivate(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(gl.oauth.refreshes).toBe(refreshes + 1);
      expect(asked).toHaveLength(1);
      const after = JSON.parse(fs.readFileSync(token, 'utf8')) as Record<string, string>;
      expect(after.access_token).not.toBe(before.access_token);
      expect(after.refresh_token).not.toBe(before.refresh_token);
      expect(after.access_token).toBe(gl.oauth.grant(asked[0]?.code ?? '').token);
      expect(fs.statSync(token).mode & 0o777).toBe(0o600);
    } finally {
      await conn.close();
    }
  });

  it('a saved sign-in past its expiry is refreshed before the first call after a restart (no 401 needed)', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['approve'], asked);
    try {
      expect((await getPrivate(conn)).isError).toBeFalsy();
    } finally {
      await conn.close();
    }
    const saved = JSON.parse(fs.readFileSync(token, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(token, JSON.stringify({ ...saved, expires_at: Math.floor(Date.now() / 1000) - 10 }), {
      mode: 0o600,
    });
    const refreshes = gl.oauth.refreshes;
    const second = await client('legacy', env, [], asked);
    try {
      const r = await getPrivate(second);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(gl.oauth.refreshes).toBe(refreshes + 1);
      expect(asked).toHaveLength(1);
      // The fake still accepts the old token (only the file says it expired): a refresh happened
      // only because the server read the saved expiry before sending.
      const after = JSON.parse(fs.readFileSync(token, 'utf8')) as Record<string, unknown>;
      expect(after.access_token).not.toBe(saved.access_token);
      expect(after.expires_at as number).toBeGreaterThan(Date.now() / 1000);
    } finally {
      await second.close();
    }
  });

  it('a refresh GitLab refuses: the call fails with a hint, the next call signs in again', async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['approve', 'approve'], asked);
    try {
      expect((await getPrivate(conn)).isError).toBeFalsy();
      gl.oauth.expire(asked[0]?.code ?? '');
      for (const [refresh, entry] of gl.oauth.refreshTokens)
        if (entry.grant.userCode === asked[0]?.code) gl.oauth.refreshTokens.delete(refresh);
      const refused = await getPrivate(conn);
      expect(refused.isError).toBe(true);
      expect(resultText(refused)).toContain('could not be refreshed');
      const again = await getPrivate(conn);
      expect(again.isError, resultText(again)).toBeFalsy();
      expect(asked).toHaveLength(2);
    } finally {
      await conn.close();
    }
  });

  it('--read-only asks for read_api only', async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['approve'], asked, ['--read-only']);
    try {
      const r = await getPrivate(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(gl.oauth.grant(asked[0]?.code ?? '').scope).toBe('read_api');
      expect(asked[0]?.message).toContain('scope read_api');
    } finally {
      await conn.close();
    }
  });

  it('a client without URL elicitation gets an error naming GITLAB_PERSONAL_ACCESS_TOKEN; no code requested', async () => {
    const { env } = firstRun();
    const grants = gl.oauth.grants.length;
    const conn = await startBuiltServer('gitlab', [...NO_PACING], { env });
    try {
      const r = await getPrivate(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /^GitLab is not signed in yet, and this client cannot open a sign-in link/,
      );
      expect(resultText(r)).toContain('Set GITLAB_PERSONAL_ACCESS_TOKEN');
      expect(gl.oauth.grants.length).toBe(grants);
    } finally {
      await conn.close();
    }
  });

  it("an unknown OAuth application: an error naming GitLab's refusal; nothing asked", async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', { ...env, GITLAB_OAUTH_CLIENT_ID: 'not-registered' }, [], asked);
    try {
      const r = await getPrivate(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /^Sign-in did not complete: GitLab refused the device flow \(invalid_client/,
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
        const r = await getPrivate(conn);
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
    const grants = gl.oauth.grants.length;
    const asked: Asked[] = [];
    const conn = await client('legacy', { ...env, GITLAB_PERSONAL_ACCESS_TOKEN: SCENE_TOKEN }, [], asked);
    try {
      const r = await getPrivate(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(asked).toEqual([]);
      expect(gl.oauth.grants.length).toBe(grants);
    } finally {
      await conn.close();
    }
  });
});

describe.each(['legacy', 'modern'] as const)('GitLab sign-in over HTTP (%s era)', (era) => {
  it('reachable from other machines: refused (it would act for every caller as whoever signed in); nothing asked', async () => {
    const { env, token } = firstRun();
    const secret = 'sign-in-test-token-0123456789';
    const grants = gl.oauth.grants.length;
    const server = await startHttpServer('gitlab', [...NO_PACING], {
      env: { ...env, MCP_HTTP_TOKEN: secret, MCP_HTTP_ALLOWED_HOSTS: 'gitlab.example.com' },
    });
    const asked: Asked[] = [];
    const { client: mcp } = await connectHttp(server.url, era, secret, URL_ELICITATION);
    playUser({ client: mcp } as Pick<Connection, 'client'>, ['approve'], asked);
    try {
      const r = await getPrivate({ client: mcp } as Pick<Connection, 'client'>);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /sign-in through the client is off for a server reachable from other machines/,
      );
      expect(resultText(r)).toContain('Set GITLAB_PERSONAL_ACCESS_TOKEN');
      expect(asked).toEqual([]);
      expect(gl.oauth.grants.length).toBe(grants);
      expect(fs.existsSync(token)).toBe(false);
    } finally {
      await mcp.close();
      await server.stop();
    }
  });
});

/** A token endpoint on 127.0.0.1 that holds each refresh until `release()`; counts requests. */
async function heldTokenEndpoint() {
  let count = 0;
  const held: http.ServerResponse[] = [];
  let arrived: () => void = () => {};
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      held.push(res);
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    instance: new URL(`http://127.0.0.1:${port}/`),
    count: () => count,
    /** Resolves once `n` requests arrived. */
    arrivals: (n: number) =>
      new Promise<void>((resolve) => {
        arrived = () => {
          if (count >= n) resolve();
        };
        arrived();
      }),
    release(body: Record<string, unknown>) {
      for (const res of held.splice(0))
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function session(instance: URL, secrets: string[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitlab-session-'));
  return new OAuthSession({
    instance,
    clientId: CLIENT_ID,
    tokenFile: path.join(dir, 'oauth-token.json'),
    policy: { ...DEFAULT_HTTP_POLICY, timeoutMs: 60_000 },
    userAgent: 'test',
    log: () => {},
    secrets,
  });
}

describe('GitLab OAuth session (session.ts)', () => {
  it('one caller cancelling a shared refresh does not fail the others; one refresh request', async () => {
    const endpoint = await heldTokenEndpoint();
    try {
      const s = session(endpoint.instance, []);
      s.load({
        instance: endpoint.instance.href,
        access_token: 'a1',
        refresh_token: 'r1',
        expires_at: Math.floor(Date.now() / 1000) - 10,
      });
      const first = new AbortController();
      const cancelled = s.token(first.signal);
      const waiting = s.token(new AbortController().signal);
      await endpoint.arrivals(1);
      first.abort(new Error('the first caller cancelled'));
      await expect(cancelled).rejects.toThrow('the first caller cancelled');
      endpoint.release({ access_token: 'a2', refresh_token: 'r2', expires_in: 7200 });
      await expect(waiting).resolves.toBe('a2');
      expect(endpoint.count()).toBe(1);
    } finally {
      await endpoint.close();
    }
  });

  it('the scrub list keeps the current and the previous pair only, however many rotations', async () => {
    const secrets: string[] = ['other-secret'];
    const s = session(new URL('http://127.0.0.1:9/'), secrets);
    for (let i = 1; i <= 20; i++) s.use({ access_token: `a${i}`, refresh_token: `r${i}`, expires_in: 7200 });
    expect([...secrets].sort()).toEqual(['a19', 'a20', 'other-secret', 'r19', 'r20']);
  });
});
