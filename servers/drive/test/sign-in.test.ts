/**
 * Issue 32: sign-in through the client. A Drive server started without a token (the first run: no
 * token at the default place, client keys readable) asks a client that declares URL elicitation to
 * open Google's consent URL, in both protocol eras (2025-11-25: `elicitation/create` with mode
 * "url" while the call waits; 2026-07-28: an input-required result the client fulfils and
 * retries), runs the loopback flow (state, PKCE) against the fake consent page and token endpoint,
 * and continues the call once the token is saved. The test plays the user: it reads the URL from
 * the elicitation and requests it from the fake consent page, which redirects to the loopback
 * listener with code and state.
 */
import fs from 'node:fs';
import net from 'node:net';
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
import type { FakeDrive } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialFiles, startScene } from './support.js';

let fake: FakeDrive;
beforeAll(async () => {
  fake = await startScene();
});
afterAll(() => fake.close());

/** A first-run setup: client keys, no token; the token is saved under `<cfg>/refmcp-drive/`. */
function firstRun() {
  const files = credentialFiles();
  fs.rmSync(files.token);
  const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'drive-signin-'));
  const env = {
    XDG_CONFIG_HOME: cfg,
    GDRIVE_OAUTH_PATH: files.keys,
    GDRIVE_API_URL: fake.rootUrl,
    GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl,
    GOOGLE_OAUTH_AUTH_URL: fake.authUrl,
  };
  return { env, token: path.join(cfg, 'refmcp-drive', 'credentials.json') };
}

/** What the user does with a URL elicitation. */
type User = 'allow' | 'decline' | 'cancel' | 'ignore' | 'forge-then-allow';

/** One URL elicitation the client saw, and what became of the user's visit. */
interface Asked {
  url: string;
  message: string;
  mode: string;
  /** Settles when the user's visit (if any) ends: the loopback's status codes, in order. */
  visit: Promise<number[]>;
}

/** Sends `head` as is to the host of `url` (any local process can); the status line's code, or 0. */
function rawStatus(url: URL, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}

/** Requests the consent URL and follows its redirect to the loopback listener; the statuses seen. */
async function visit(consentUrl: string, forgeFirst: boolean): Promise<number[]> {
  const consent = await fetch(consentUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location') ?? '');
  const statuses: number[] = [];
  if (forgeFirst) {
    statuses.push(await rawStatus(back, 'GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n'));
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    statuses.push((await fetch(forged)).status);
  }
  statuses.push((await fetch(back)).status);
  return statuses;
}

/** Plays the user on `conn.client`: each URL elicitation is answered as the next of `users` does. */
function playUser(conn: Pick<Connection, 'client'>, users: User[], asked: Asked[]): void {
  conn.client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { mode?: string; url?: string; message: string };
    const user = users.shift() ?? 'cancel';
    // The user opens the link after telling the client so (accept first, as a host does).
    const visiting =
      user === 'allow' || user === 'forge-then-allow'
        ? new Promise<number[]>((resolve, reject) =>
            setImmediate(() => visit(params.url ?? '', user === 'forge-then-allow').then(resolve, reject)),
          )
        : Promise.resolve([]);
    asked.push({
      url: params.url ?? '',
      message: params.message,
      mode: params.mode ?? 'form',
      visit: visiting,
    });
    if (user === 'decline' || user === 'cancel') return { action: user };
    return { action: 'accept' };
  });
}

const URL_ELICITATION = { elicitation: { form: {}, url: {} } };

async function client(
  era: Era,
  env: Record<string, string>,
  users: User[],
  asked: Asked[],
  args: string[] = [],
) {
  const conn = await startBuiltServer('drive', [...NO_PACING, ...args], {
    era,
    env,
    capabilities: URL_ELICITATION,
  });
  playUser(conn, users, asked);
  return conn;
}

/** Whether something still listens at `url` (the loopback listener after its flow). */
async function listening(url: string): Promise<boolean> {
  return fetch(url).then(
    () => true,
    () => false,
  );
}

const search = (conn: Connection) => conn.client.callTool({ name: 'search', arguments: { query: 'report' } });

describe.each(['legacy', 'modern'] as const)('sign-in through the client (%s era)', (era) => {
  it('accept: the user opens the consent URL, the call continues with the new token, saved 0600; later calls do not ask', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['allow'], asked);
    try {
      fake.api.clearRequests();
      const r = await search(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(resultText(r)).toContain('report');
      expect(asked).toHaveLength(1);
      const [ask] = asked as [Asked];
      expect(ask.mode).toBe('url');
      expect(ask.message).toMatch(/^Sign in with Google to let this MCP server read your Google Drive/);
      const consent = new URL(ask.url);
      expect(consent.origin + consent.pathname).toBe(fake.authUrl);
      expect(consent.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/drive.readonly');
      expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
      expect(consent.searchParams.get('access_type')).toBe('offline');
      const redirect = consent.searchParams.get('redirect_uri') ?? '';
      expect(new URL(redirect).hostname).toBe('127.0.0.1');
      expect(await ask.visit).toEqual([200]);
      // The code was exchanged with its PKCE verifier (the fake checks it against the challenge).
      const exchange = new URLSearchParams(fake.tokenRequests.at(-1)?.body);
      expect(exchange.get('grant_type')).toBe('authorization_code');
      expect(exchange.get('code_verifier')).toMatch(/^[\w.~-]{43,128}$/);
      const saved = JSON.parse(fs.readFileSync(token, 'utf8')) as Record<string, unknown>;
      expect(saved.refresh_token).toBeTruthy();
      expect(fs.statSync(token).mode & 0o777).toBe(0o600);
      expect(await listening(redirect)).toBe(false);
      const again = await search(conn);
      expect(again.isError, resultText(again)).toBeFalsy();
      expect(asked).toHaveLength(1);
      const shape = conn.stdoutLines().some((l) => l.includes('"inputRequests"'));
      expect(shape).toBe(era === 'modern');
      if (era === 'legacy')
        expect(conn.stdoutLines().some((l) => l.includes('notifications/elicitation/complete'))).toBe(true);
    } finally {
      await conn.close();
    }
  });

  it('decline and cancel: an error result, no token, the listener closed; Drive never called', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['decline', 'cancel'], asked);
    try {
      fake.api.clearRequests();
      const declined = await search(conn);
      expect(declined.isError).toBe(true);
      expect(resultText(declined)).toMatch(/^The user declined to sign in\. Nothing was done/);
      const cancelled = await search(conn);
      expect(cancelled.isError).toBe(true);
      expect(resultText(cancelled)).toMatch(/^The user dismissed the sign-in\. Nothing was done/);
      expect(asked).toHaveLength(2);
      for (const ask of asked)
        expect(await listening(new URL(ask.url).searchParams.get('redirect_uri') ?? '')).toBe(false);
      expect(fs.existsSync(token)).toBe(false);
      expect(fake.api.requests.filter((q) => q.path.startsWith('/drive/'))).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('a request target that is no URL and a redirect with the wrong state are refused 400 and do not end the flow; the real one completes it', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['forge-then-allow'], asked);
    try {
      const r = await search(conn);
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(await asked[0]?.visit).toEqual([400, 400, 200]);
      expect(fs.existsSync(token)).toBe(true);
    } finally {
      await conn.close();
    }
  });

  it('Google denying access ends the flow with an error naming it', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['allow'], asked);
    fake.state.consent = 'deny';
    try {
      const r = await search(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /^Sign-in did not complete: Google refused the sign-in \(access_denied\)/,
      );
      expect(await asked[0]?.visit).toEqual([400]);
      expect(fs.existsSync(token)).toBe(false);
    } finally {
      fake.state.consent = 'allow';
      await conn.close();
    }
  });

  it('timeout: a user who never comes back gets an error after --sign-in-timeout, and the listener is closed', async () => {
    const { env, token } = firstRun();
    const asked: Asked[] = [];
    const conn = await client(era, env, ['ignore'], asked, ['--sign-in-timeout', '1']);
    try {
      const r = await search(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(/^Sign-in did not complete: no sign-in within 1 s; call the tool again/);
      expect(await listening(new URL(asked[0]?.url ?? '').searchParams.get('redirect_uri') ?? '')).toBe(
        false,
      );
      expect(fs.existsSync(token)).toBe(false);
    } finally {
      await conn.close();
    }
  });

  it('a client without URL elicitation gets an error naming `mcp-server-drive auth`, and nothing is asked', async () => {
    const { env } = firstRun();
    const asked: string[] = [];
    const conn = await startBuiltServer('drive', [...NO_PACING], {
      era,
      env,
      capabilities: { elicitation: { form: {} } },
    });
    conn.client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'cancel' };
    });
    try {
      const r = await search(conn);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(/not signed in yet, and this client cannot open a sign-in link/);
      expect(resultText(r)).toContain('mcp-server-drive auth');
      expect(asked).toEqual([]);
      // Resources too answer the same, not a library's error.
      const read = await conn.client.readResource({ uri: 'gdrive:///SHEET1' }).then(
        () => 'read',
        (error: Error) => error.message,
      );
      expect(read).toContain('mcp-server-drive auth');
    } finally {
      await conn.close();
    }
  });
});

const WAITING = 'Waiting for the sign-in in the browser';

describe.each(['legacy', 'modern'] as const)('a call waiting on the user (%s era)', (era) => {
  it('reports progress while it waits, so a client resetting its timeout on progress keeps waiting', async () => {
    const { env } = firstRun();
    const conn = await startBuiltServer('drive', [...NO_PACING], { era, env, capabilities: URL_ELICITATION });
    // The user finishes in the browser only once the client has the URL and has seen the call is
    // alive (2025-11-25: the first progress may come before the question; 2026-07-28: after it).
    let consentUrl = '';
    const seen: { progress: number; message?: string }[] = [];
    let visited: Promise<number[]> | undefined;
    const maybeVisit = () => {
      if (consentUrl && seen.length) visited ??= visit(consentUrl, false);
    };
    conn.client.setRequestHandler('elicitation/create', async (request) => {
      consentUrl = (request.params as { url?: string }).url ?? '';
      maybeVisit();
      return { action: 'accept' };
    });
    try {
      const r = await conn.client.callTool(
        { name: 'search', arguments: { query: 'report' } },
        {
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            // (The 2026-07-28 client reports its own input-required rounds too.)
            if (!p.message?.startsWith(WAITING)) return;
            seen.push(p);
            maybeVisit();
          },
        },
      );
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(await visited).toEqual([200]);
      expect(seen[0]).toEqual({ progress: 0, message: `${WAITING} (0 s)` });
    } finally {
      await conn.close();
    }
  });
});

describe('one sign-in at a time', () => {
  it('two calls at once (2025-11-25): one URL elicitation, both calls continue after it', async () => {
    const { env } = firstRun();
    const asked: Asked[] = [];
    const conn = await client('legacy', env, ['allow', 'allow'], asked);
    try {
      const [a, b] = await Promise.all([search(conn), search(conn)]);
      expect(a.isError, resultText(a)).toBeFalsy();
      expect(b.isError, resultText(b)).toBeFalsy();
      expect(asked).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

describe.each(['legacy', 'modern'] as const)('over HTTP (%s era)', (era) => {
  it('bound to loopback: the sign-in runs as over stdio', async () => {
    const { env, token } = firstRun();
    const server = await startHttpServer('drive', [...NO_PACING], { env });
    const asked: Asked[] = [];
    const { client: mcp } = await connectHttp(server.url, era, undefined, URL_ELICITATION);
    playUser({ client: mcp } as Pick<Connection, 'client'>, ['allow'], asked);
    try {
      const r = await mcp.callTool({ name: 'search', arguments: { query: 'report' } });
      expect(r.isError, resultText(r)).toBeFalsy();
      expect(asked).toHaveLength(1);
      expect(await asked[0]?.visit).toEqual([200]);
      expect(fs.existsSync(token)).toBe(true);
    } finally {
      await mcp.close();
      await server.stop();
    }
  });

  it('reachable from other machines (a non-loopback MCP_HTTP_ALLOWED_HOSTS): refused, naming `auth` on the server machine; nothing asked', async () => {
    const { env, token } = firstRun();
    const secret = 'sign-in-test-token-0123456789';
    const server = await startHttpServer('drive', [...NO_PACING], {
      env: { ...env, MCP_HTTP_TOKEN: secret, MCP_HTTP_ALLOWED_HOSTS: 'drive.example.com' },
    });
    const asked: Asked[] = [];
    const { client: mcp } = await connectHttp(server.url, era, secret, URL_ELICITATION);
    playUser({ client: mcp } as Pick<Connection, 'client'>, ['allow'], asked);
    try {
      const r = await mcp.callTool({ name: 'search', arguments: { query: 'report' } });
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(
        /sign-in through the client is off for a server reachable from other machines/,
      );
      expect(resultText(r)).toMatch(
        /^Google Drive is not signed in yet, and sign-in through the client is off/,
      );
      expect(resultText(r)).toContain('mcp-server-drive auth');
      expect(resultText(r)).toContain("on the server's machine");
      expect(asked).toEqual([]);
      expect(fs.existsSync(token)).toBe(false);
    } finally {
      await mcp.close();
      await server.stop();
    }
  });
});
