/**
 * DR-01 expired tokens are refreshed, DR-02 the refreshed token is saved safely, DR-05's `auth`
 * half (the loopback flow end to end against the fake token endpoint, stdout empty), DR-08
 * credential paths, and service accounts through the fake's jwt-bearer grant.
 */
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { builtServerTarget, callChecked, connect, NO_PACING, serverBin } from '@refmcp/test-harness';
import type { FakeDrive } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialFiles, EXPIRED_TOKEN, fakeEnv, SCENE, startScene, startServer } from './support.js';

let fake: FakeDrive;
beforeAll(async () => {
  fake = await startScene();
});
afterAll(() => fake.close());

const bin = serverBin('drive');
const bearers = () =>
  fake.api.requests.filter((r) => r.path.startsWith('/drive/')).map((r) => r.headers.authorization);

describe('DR-01 expired tokens are refreshed', () => {
  it('DR-01 an expired access token is refreshed with cid, csecret and the refresh token; Drive sees the new bearer', async () => {
    const files = credentialFiles(EXPIRED_TOKEN());
    const conn = await startServer(fake, files);
    fake.api.clearRequests();
    try {
      const r = await callChecked(conn, 'search', { query: 'report' });
      expect(r.isError).toBeFalsy();
      expect(fake.tokenRequests).toHaveLength(1);
      const form = Object.fromEntries(new URLSearchParams(fake.tokenRequests[0]?.body));
      expect(form).toMatchObject({
        grant_type: 'refresh_token',
        client_id: SCENE.clientId,
        client_secret: SCENE.clientSecret,
        refresh_token: SCENE.refreshToken,
      });
      const issued = (fake.tokenRequests[0]?.reply?.body as { access_token: string } | undefined)
        ?.access_token;
      expect(bearers().every((b) => b === `Bearer ${issued}`)).toBe(true);
      expect(bearers().length).toBeGreaterThan(0);
    } finally {
      await conn.close();
    }
  });

  it('DR-01 a token that looks fresh but gets 401: one refresh, one retry', async () => {
    const fresh = fake.state.issueAccessToken();
    const files = credentialFiles({
      access_token: fresh.token,
      refresh_token: SCENE.refreshToken,
      expiry_date: Date.now() + 3_600_000,
    });
    const conn = await startServer(fake, files);
    try {
      fake.expireAccessToken(fresh.token);
      fake.api.clearRequests();
      const r = await callChecked(conn, 'get_file_metadata', { file_id: 'SHEET1' });
      expect(r.isError).toBeFalsy();
      expect(fake.tokenRequests).toHaveLength(1);
      const tries = fake.api.requests.filter((q) => q.rawPath.startsWith('/drive/v3/files/SHEET1'));
      expect(tries.map((q) => q.status)).toEqual([401, 200]);
    } finally {
      await conn.close();
    }
  });

  it('DR-01 invalid_grant says to run mcp-server-drive auth again, without the refresh token or the body', async () => {
    const revoked = fake.state.issueRefreshToken(SCENE.clientId, SCENE.clientSecret, [
      'https://www.googleapis.com/auth/drive',
    ]);
    fake.state.revoke(revoked.token);
    const files = credentialFiles({ ...EXPIRED_TOKEN(), refresh_token: revoked.token });
    const conn = await startServer(fake, files);
    try {
      const r = await callChecked(conn, 'search', { query: 'report' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('mcp-server-drive auth');
      expect(r.text).not.toContain(revoked.token);
      expect(r.text).not.toContain('grant_type');
      expect(r.text).not.toContain(SCENE.clientSecret);
      expect(conn.stderr()).not.toContain(revoked.token);
    } finally {
      await conn.close();
    }
  });
});

describe('DR-02 the refreshed token is saved safely', () => {
  it('DR-02 the file holds the new token and the refresh token, mode 0600 (was 0644), replaced by a rename', async () => {
    const files = credentialFiles();
    files.writeToken(EXPIRED_TOKEN(), 0o644);
    const before = fs.statSync(files.token).ino;
    const conn = await startServer(fake, files);
    fake.api.clearRequests();
    try {
      expect((await callChecked(conn, 'search', { query: 'report' })).isError).toBeFalsy();
      const issued = (fake.tokenRequests[0]?.reply?.body as { access_token: string } | undefined)
        ?.access_token;
      const saved = files.readToken();
      expect(saved.access_token).toBe(issued);
      expect(saved.refresh_token).toBe(SCENE.refreshToken);
      expect(Number(saved.expiry_date)).toBeGreaterThan(Date.now());
      const stat = fs.statSync(files.token);
      expect(stat.mode & 0o777).toBe(0o600);
      expect(stat.ino).not.toBe(before);
      expect(fs.readdirSync(files.dir).sort()).toEqual(['credentials.json', 'gcp-oauth.keys.json']);
    } finally {
      await conn.close();
    }
  });

  it('DR-02 two parallel searches on an expired token make one refresh POST', async () => {
    const files = credentialFiles(EXPIRED_TOKEN());
    const conn = await startServer(fake, files);
    fake.api.clearRequests();
    try {
      const [a, b] = await Promise.all([
        callChecked(conn, 'search', { query: 'report' }),
        callChecked(conn, 'search', { query: 'budget' }),
      ]);
      expect(a.isError).toBeFalsy();
      expect(b.isError).toBeFalsy();
      expect(fake.tokenRequests).toHaveLength(1);
    } finally {
      await conn.close();
    }
  });
});

/** Runs the built bin with `args` and `env` from `cwd` to the end. */
function runBin(args: string[], env: Record<string, string>, cwd = os.tmpdir()) {
  const { HOME, PATH } = process.env;
  return spawnSync(bin.command, [...bin.args, ...args], {
    cwd,
    env: { PATH: PATH ?? '', HOME: HOME ?? os.tmpdir(), ...env },
    input: '',
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('DR-08 credential paths', () => {
  it('DR-08 a present GDRIVE_CREDENTIALS_PATH is used from another cwd', async () => {
    const files = credentialFiles();
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'drive-cwd-'));
    const conn = await connect({
      ...builtServerTarget('drive', [...NO_PACING]),
      env: fakeEnv(fake, files),
      cwd: other,
    });
    fake.api.clearRequests();
    try {
      expect((await callChecked(conn, 'search', { query: 'report' })).isError).toBeFalsy();
      expect(bearers()).toContain(`Bearer ${SCENE.accessToken}`);
    } finally {
      await conn.close();
    }
  });

  it('DR-08 a missing file, a directory, or a file holding "{": exit 1, empty stdout, one stderr line', () => {
    const files = credentialFiles();
    const broken = path.join(files.dir, 'broken.json');
    fs.writeFileSync(broken, '{');
    for (const target of [path.join(files.dir, 'missing.json'), files.dir, broken]) {
      const run = runBin([], { ...fakeEnv(fake, files), GDRIVE_CREDENTIALS_PATH: target });
      expect(run.status, target).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toContain(target);
      expect(lines[0]).toContain('GDRIVE_CREDENTIALS_PATH');
      expect(lines[0]).toContain('mcp-server-drive auth');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('DR-08 a missing file: the line also says unsetting the variable signs in through the client, at the default path; doing so starts the server signed out', async () => {
    const files = credentialFiles();
    const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'drive-unset-'));
    const missing = path.join(files.dir, 'missing.json');
    const env = { ...fakeEnv(fake, files), XDG_CONFIG_HOME: cfg, GDRIVE_CREDENTIALS_PATH: missing };
    const run = runBin([], env);
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toContain(missing);
    expect(lines[0]).toContain('mcp-server-drive auth');
    expect(lines[0]).toContain('unset GDRIVE_CREDENTIALS_PATH to sign in through the client');
    expect(lines[0]).toContain(path.join(cfg, 'refmcp-drive', 'credentials.json'));
    // Not for a file that is there but unreadable: unsetting would not help.
    const broken = runBin([], { ...env, GDRIVE_CREDENTIALS_PATH: files.dir });
    expect(broken.status).toBe(1);
    expect(broken.stderr).not.toContain('unset GDRIVE_CREDENTIALS_PATH');
    // Following the advice: the server starts signed out and answers a call with how to sign in.
    const { GDRIVE_CREDENTIALS_PATH: _unset, ...rest } = env;
    const conn = await connect({ ...builtServerTarget('drive', [...NO_PACING]), env: rest });
    try {
      const r = await conn.client.callTool({ name: 'search', arguments: { query: 'report' } });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toContain('not signed in yet');
    } finally {
      await conn.close();
    }
  });

  it('DR-08 with neither variable set, the path named is under XDG_CONFIG_HOME', () => {
    const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'drive-xdg-'));
    const run = runBin([], {
      XDG_CONFIG_HOME: path.join(cfg, 'cfg'),
      GDRIVE_API_URL: fake.rootUrl,
      GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(path.join(cfg, 'cfg', 'refmcp-drive'));
  });

  it('DR-08 auth with GDRIVE_OAUTH_PATH naming a missing file: one line naming it and the variable, exit 1', () => {
    const missing = path.join(os.tmpdir(), 'no-such-dir', 'keys.json');
    const run = runBin(['auth'], { GDRIVE_OAUTH_PATH: missing, GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(missing);
    expect(lines[0]).toContain('GDRIVE_OAUTH_PATH');
  });
});

describe('DR-05 auth talks on stderr', () => {
  it('DR-05 `auth` prints the consent URL on stderr, exchanges the code and saves the token 0600', async () => {
    const files = credentialFiles();
    fs.rmSync(files.token);
    fake.state.codes.set('TESTCODE', ['https://www.googleapis.com/auth/drive.readonly']);
    fake.api.clearRequests();
    const child = spawn(bin.command, [...bin.args, 'auth'], {
      cwd: os.tmpdir(),
      env: { PATH: process.env.PATH ?? '', ...fakeEnv(fake, files) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    const consent = await new Promise<URL>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /(https:\/\/accounts\.google\.com\S+)/.exec(stderr);
        if (m?.[1]) resolve(new URL(m[1]));
      });
      child.once('exit', () => reject(new Error(`auth exited: ${stderr}`)));
    });
    const redirect = new URL(consent.searchParams.get('redirect_uri') ?? '');
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(consent.searchParams.get('access_type')).toBe('offline');
    expect(consent.searchParams.get('scope')).toContain('drive.readonly');
    redirect.searchParams.set('code', 'TESTCODE');
    redirect.searchParams.set('state', consent.searchParams.get('state') ?? '');
    const answer = await fetch(redirect);
    expect(answer.status).toBe(200);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const form = Object.fromEntries(new URLSearchParams(fake.tokenRequests.at(-1)?.body));
    expect(form).toMatchObject({ grant_type: 'authorization_code', code: 'TESTCODE' });
    const saved = files.readToken();
    expect(saved.refresh_token).toBeTruthy();
    expect(saved.access_token).toBeTruthy();
    expect(fs.statSync(files.token).mode & 0o777).toBe(0o600);
  });

  it('DR-05 a redirect with the wrong state is refused and the token is not saved', async () => {
    const files = credentialFiles();
    fs.rmSync(files.token);
    const child = spawn(bin.command, [...bin.args, 'auth'], {
      env: { PATH: process.env.PATH ?? '', ...fakeEnv(fake, files) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const consent = await new Promise<URL>((resolve) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /(https:\/\/accounts\.google\.com\S+)/.exec(stderr);
        if (m?.[1]) resolve(new URL(m[1]));
      });
    });
    const redirect = new URL(consent.searchParams.get('redirect_uri') ?? '');
    redirect.searchParams.set('code', 'TESTCODE');
    redirect.searchParams.set('state', 'forged');
    expect((await fetch(redirect)).status).toBe(400);
    expect(fs.existsSync(files.token)).toBe(false);
    child.kill();
  });

  it('DR-05 auth with its --port in use or out of range: one stderr line naming the port, no stack, stdout empty', async () => {
    const files = credentialFiles();
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const inUse = runBin(['auth', '--port', String(port)], fakeEnv(fake, files));
      expect(inUse.status).toBe(1);
      expect(inUse.stdout).toBe('');
      expect(inUse.stderr.trim().split('\n')).toHaveLength(1);
      expect(inUse.stderr).toContain(`127.0.0.1:${port}`);
      expect(inUse.stderr).toContain('in use');
      expect(inUse.stderr).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
    for (const bad of ['99999', 'abc', '-1']) {
      const run = runBin(['auth', `--port=${bad}`], fakeEnv(fake, files));
      expect(run.status, bad).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')[0]).toBe(
        `mcp-server-drive auth: --port: expected an integer from 0 to 65535, got "${bad}"`,
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('service accounts', () => {
  it('a service-account key signs a JWT at GOOGLE_OAUTH_TOKEN_URL; drive.readonly by default, drive with a write toolset', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = 'bot@project.iam.gserviceaccount.com';
    fake.state.serviceAccounts.set(email, {
      email,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      delegation: true,
    } as never);
    const files = credentialFiles();
    const keyFile = path.join(files.dir, 'sa.json');
    fs.writeFileSync(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        client_email: email,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      }),
    );
    for (const [args, scope] of [
      [[], 'https://www.googleapis.com/auth/drive.readonly'],
      [['--toolsets', 'files,files_write'], 'https://www.googleapis.com/auth/drive'],
    ] as const) {
      fake.api.clearRequests();
      const conn = await startServer(fake, files, [...args], {
        env: { GOOGLE_APPLICATION_CREDENTIALS: keyFile, GDRIVE_SUBJECT: 'me@example.com' },
      });
      try {
        const r = await callChecked(conn, 'search', { query: 'report' });
        expect(r.isError, r.text).toBeFalsy();
        const form = new URLSearchParams(fake.tokenRequests[0]?.body);
        expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
        const claims = JSON.parse(
          Buffer.from(form.get('assertion')?.split('.')[1] ?? '', 'base64url').toString('utf8'),
        );
        expect(claims).toMatchObject({ iss: email, scope, sub: 'me@example.com' });
      } finally {
        await conn.close();
      }
    }
  });
});
