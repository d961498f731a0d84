/**
 * The fake Drive driven by the field's clients — `@googleapis/drive` with google-auth-library's
 * OAuth2Client and JWT — through every route it serves, with a guard that fails if any socket
 * leaves loopback; and checked against `@googleapis/drive` itself: every route it registers is a
 * generated method, and every reply this file's traffic produced is declared and validates
 * against the closed `Schema$*` JSON Schemas. The check also fails on a field the API lacks.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type drive_v3, drive as driveClient } from '@googleapis/drive';
import { gaxios, JWT, OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRequest, readTraffic, routeTemplate, TRAFFIC_DIR_ENV } from '../src/fake-api/index.js';
import {
  type FakeDrive,
  PNG_BYTES,
  parseQuery,
  SCENE,
  SCOPES,
  seedScene,
  startFakeDrive,
} from '../src/fakes/drive/index.js';
import { driveOperation, driveSpec, loadDriveSpec } from '../src/fakes/drive/spec.js';
import { checkTraffic, undescribedRoutes } from '../src/spec/index.js';

const trafficDir = mkdtempSync(join(tmpdir(), 'fake-drive-traffic-'));
const savedDir = process.env[TRAFFIC_DIR_ENV];
process.env[TRAFFIC_DIR_ENV] = trafficDir;

// Every socket this process opens: non-loopback ones are refused (and remembered, so a test can
// show that the guard is in the path and that nothing got past it).
const connects: string[] = [];
const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  // net.connect passes its normalized arguments as one array ([options, callback]).
  const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as
    | { host?: string; path?: string }
    | number
    | string;
  const second = Array.isArray(args[0]) ? undefined : args[1];
  const host =
    typeof first === 'object' && first
      ? (first.host ?? first.path ?? 'localhost')
      : typeof first === 'number'
        ? String(second ?? 'localhost')
        : String(first);
  connects.push(host);
  if (!['127.0.0.1', 'localhost', '::1'].includes(host) && !host.startsWith('/')) {
    process.nextTick(() => this.destroy(new Error(`blocked: a request left loopback for ${host}`)));
    return this;
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
const offLoopback = () => connects.filter((h) => !['127.0.0.1', 'localhost', '::1'].includes(h));

let fake: FakeDrive;
let oauth: OAuth2Client;
let api: drive_v3.Drive;
/** Per-call options: media uploads ignore the client-level rootUrl. */
let at: { rootUrl: string };

/** The last request the fake recorded whose path contains `fragment`. */
const last = (fragment: string): FakeRequest => {
  const found = fake.api.requests.filter((r) => r.rawPath.includes(fragment)).at(-1);
  if (!found) throw new Error(`no request to ${fragment}`);
  return found;
};

/** The status and Google error reasons of a failed client call. */
async function failure(
  promise: Promise<unknown>,
): Promise<{ status: number; reasons: string[]; message: string }> {
  try {
    await promise;
  } catch (error) {
    // GaxiosError: the status, and Google's body as the server sent it.
    const e = error as {
      status?: number;
      message: string;
      response?: { status: number; data?: { error?: { errors?: Array<{ reason: string }> } } };
    };
    const errors = e.response?.data?.error?.errors ?? [];
    return {
      status: Number(e.response?.status ?? e.status),
      reasons: errors.map((x) => x.reason),
      message: e.message,
    };
  }
  throw new Error('expected the call to fail');
}

/** A reply header, whichever shape the client's response carries (fetch Headers or a record). */
function header(res: { headers: unknown }, name: string): string | null {
  const h = res.headers as Headers | Record<string, string>;
  return typeof h.get === 'function'
    ? (h as Headers).get(name)
    : ((h as Record<string, string>)[name] ?? null);
}

/** A Drive client on the fake with a fixed access token (no refresh). */
function clientWith(token: string): drive_v3.Drive {
  const auth = new OAuth2Client({ endpoints: { oauth2TokenUrl: fake.tokenUrl } });
  auth.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
  return driveClient({ version: 'v3', auth, rootUrl: fake.rootUrl, retry: false });
}

beforeAll(async () => {
  fake = await startFakeDrive();
  seedScene(fake, { big: true });
  at = { rootUrl: fake.rootUrl };
  oauth = new OAuth2Client({
    clientId: SCENE.clientId,
    clientSecret: SCENE.clientSecret,
    endpoints: { oauth2TokenUrl: fake.tokenUrl },
  });
  // An expired access token and a refresh token: the first call refreshes against the fake.
  oauth.setCredentials({
    access_token: SCENE.expiredToken,
    refresh_token: SCENE.refreshToken,
    expiry_date: Date.now() - 1000,
  });
  api = driveClient({ version: 'v3', auth: oauth, rootUrl: fake.rootUrl, retry: false });
});

afterAll(async () => {
  net.Socket.prototype.connect = originalConnect;
  await fake.close();
  rmSync(trafficDir, { recursive: true, force: true });
  if (savedDir === undefined) delete process.env[TRAFFIC_DIR_ENV];
  else process.env[TRAFFIC_DIR_ENV] = savedDir;
});

describe('fake Drive: OAuth token endpoint through google-auth-library', () => {
  it('refreshes an expired access token with the client id, secret and refresh token', async () => {
    const { data } = await api.files.list({ q: "name contains 'report'" });
    expect(data?.files?.length).toBeGreaterThan(0);
    expect(fake.tokenRequests).toHaveLength(1);
    const form = new URLSearchParams(fake.tokenRequests[0]?.body);
    expect(Object.fromEntries(form)).toMatchObject({
      grant_type: 'refresh_token',
      client_id: 'cid',
      client_secret: 'csecret',
      refresh_token: SCENE.refreshToken,
    });
    const issued = (fake.tokenRequests[0]?.reply?.body as { access_token: string; expires_in: number }) ?? {};
    expect(issued.expires_in).toBe(3599);
    expect(last('/drive/v3/files').headers.authorization).toBe(`Bearer ${issued.access_token}`);
    expect(oauth.credentials.access_token).toBe(issued.access_token);
  });

  it('refreshes once and retries when a token that looks fresh gets 401 (with forceRefreshOnFailure)', async () => {
    // OAuth2Client retries a 401 with a refresh only when it has no access token or is built with
    // forceRefreshOnFailure: a server must set it (DR-01).
    const client = new OAuth2Client({
      clientId: SCENE.clientId,
      clientSecret: SCENE.clientSecret,
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
      forceRefreshOnFailure: true,
    });
    const fresh = fake.state.issueAccessToken();
    client.setCredentials({
      access_token: fresh.token,
      refresh_token: SCENE.refreshToken,
      expiry_date: Date.now() + 3_600_000,
    });
    fake.expireAccessToken(fresh.token);
    const refreshes = fake.tokenRequests.length;
    const files = driveClient({ version: 'v3', auth: client, rootUrl: fake.rootUrl, retry: false }).files;
    expect((await files.get({ fileId: 'SHEET1' })).data.id).toBe('SHEET1');
    expect(fake.tokenRequests.length).toBe(refreshes + 1);
    const tries = fake.api.requests.filter((r) => r.rawPath === '/drive/v3/files/SHEET1');
    expect(tries.map((r) => r.status)).toEqual([401, 200]);
  });

  it('answers invalid_grant for a revoked refresh token, as the client surfaces it', async () => {
    const revoked = fake.state.issueRefreshToken('cid', 'csecret', [SCOPES.drive]);
    fake.state.revoke(revoked.token);
    const client = new OAuth2Client({
      clientId: 'cid',
      clientSecret: 'csecret',
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
    });
    client.setCredentials({ refresh_token: revoked.token });
    const error = (await client.getAccessToken().catch((e: unknown) => e)) as {
      message: string;
      response?: { status: number; data: unknown };
    };
    expect(error.response?.status).toBe(400);
    expect(error.response?.data).toEqual({
      error: 'invalid_grant',
      error_description: 'Token has been expired or revoked.',
    });
    const wrong = new OAuth2Client({
      clientId: 'cid',
      clientSecret: 'nope',
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
    });
    wrong.setCredentials({ refresh_token: SCENE.refreshToken });
    const unauthorised = (await wrong.getAccessToken().catch((e: unknown) => e)) as {
      response?: { status: number; data: { error: string } };
    };
    expect(unauthorised.response?.status).toBe(401);
    expect(unauthorised.response?.data.error).toBe('invalid_client');
  });

  it('exchanges an authorization code for tokens', async () => {
    fake.state.codes.set('TESTCODE', [SCOPES.readonly]);
    const client = new OAuth2Client({
      clientId: 'cid',
      clientSecret: 'csecret',
      redirectUri: 'http://127.0.0.1:5555/cb',
      endpoints: { oauth2TokenUrl: fake.tokenUrl },
    });
    const { tokens } = await client.getToken('TESTCODE');
    expect(tokens.refresh_token).toMatch(/^1\/\/fake-refresh-/);
    expect(tokens.scope).toBe(SCOPES.readonly);
    expect(Object.fromEntries(new URLSearchParams(fake.tokenRequests.at(-1)?.body))).toMatchObject({
      grant_type: 'authorization_code',
      code: 'TESTCODE',
    });
    expect((await failure(client.getToken('TESTCODE'))).message).toMatch(/invalid_grant/);
  });

  it('issues service-account tokens for a signed jwt-bearer assertion (gtoken posts to a fixed URL: redirected)', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = 'robot@project.iam.gserviceaccount.com';
    fake.state.serviceAccounts.set(email, {
      email,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string,
      delegation: false,
    });
    // gtoken (google-auth-library's JWT) posts to https://oauth2.googleapis.com/token whatever the
    // options say: a transporter that rewrites that URL is the way to point it at the fake.
    const transporter = new gaxios.Gaxios();
    transporter.interceptors.request.add({
      resolved: async (config) => {
        if (String(config.url).startsWith('https://oauth2.googleapis.com/token'))
          config.url = new URL(fake.tokenUrl);
        return config;
      },
    });
    const key = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const jwt = new JWT({ email, key, scopes: [SCOPES.readonly], transporter });
    const { token } = await jwt.getAccessToken();
    expect(fake.state.accessTokens.get(token ?? '')?.scopes).toEqual([SCOPES.readonly]);
    const grant = new URLSearchParams(fake.tokenRequests.at(-1)?.body);
    expect(grant.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const delegated = new JWT({
      email,
      key,
      scopes: [SCOPES.drive],
      subject: 'boss@example.com',
      transporter,
    });
    expect((await failure(delegated.getAccessToken())).message).toMatch(/unauthorized_client/);
    const { privateKey: other } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = new JWT({
      email,
      key: other.export({ type: 'pkcs8', format: 'pem' }) as string,
      scopes: [SCOPES.drive],
      transporter,
    });
    expect((await failure(forged.getAccessToken())).message).toMatch(/invalid_grant/);
  });
});

describe('fake Drive through @googleapis/drive', () => {
  it('lists with q (contains, parents, mimeType, trashed, and/or/not, escapes) and fields', async () => {
    const names = async (q: string) =>
      ((await api.files.list({ q, fields: 'files(id,name)' })).data.files ?? []).map((f) => f.name);
    expect(await names("name contains 'report' and trashed = false")).toEqual(
      expect.arrayContaining([
        'Quarterly report',
        'Budget report',
        'notes report.txt',
        "O'Reilly report.txt",
      ]),
    );
    expect(await names("name contains 'report' and trashed = false")).not.toContain('old report.txt');
    expect(await names("name contains 'O\\'Reilly'")).toEqual(["O'Reilly report.txt"]);
    expect(await names("fullText contains 'revenue grew'")).toEqual(['Quarterly report']);
    expect(await names("'FOLDER1' in parents")).toEqual(['Quarterly report']);
    expect(await names("mimeType = 'application/vnd.google-apps.drawing' or mimeType = 'image/png'")).toEqual(
      ['Architecture drawing', 'logo.png'],
    );
    expect(
      await names(
        "not name contains 'report' and 'root' in parents and mimeType != 'application/vnd.google-apps.folder'",
      ),
    ).toEqual(expect.arrayContaining(['Kickoff deck', 'logo.png', 'blob.bin']));
    expect(
      parseQuery("name contains 'a\\\\b'")({
        name: 'a\\b',
        mimeType: '',
        parents: [],
        trashed: false,
        fullText: '',
      }),
    ).toBe(true);
    const full = await api.files.list({
      q: "name = 'logo.png'",
      fields: 'files(id,name,size,md5Checksum,owners(displayName))',
    });
    expect(full.data.files?.[0]).toEqual({
      id: 'PNG1',
      name: 'logo.png',
      size: String(PNG_BYTES.length),
      md5Checksum: expect.any(String),
      owners: [{ displayName: 'Test User' }],
    });
    const bare = await api.files.list({ q: "name = 'logo.png'" });
    expect(bare.data).toEqual({
      kind: 'drive#fileList',
      incompleteSearch: false,
      files: [{ kind: 'drive#file', id: 'PNG1', name: 'logo.png', mimeType: 'image/png' }],
    });
  });

  it('refuses a q outside the subset and a bad fields selection with Drive 400s', async () => {
    for (const q of [
      'name contains report',
      "modifiedTime > '2020-01-01'",
      "name contains 'x\\y'",
      "name contains 'x",
    ]) {
      const e = await failure(api.files.list({ q }));
      expect(e.status).toBe(400);
      expect(e.reasons).toEqual(['invalid']);
    }
    const refusal = last('/drive/v3/files').reply?.body as { error: { errors: Array<{ location: string }> } };
    expect(refusal.error.errors[0]?.location).toBe('q');
    const fields = await failure(api.files.list({ fields: 'files(id,nope)' }));
    expect(fields).toMatchObject({ status: 400, reasons: ['invalidParameter'] });
  });

  it('pages with pageSize and nextPageToken and refuses a forged token', async () => {
    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const { data }: { data: drive_v3.Schema$FileList } = await api.files.list({
        pageSize: 3,
        fields: 'nextPageToken,files(id)',
        ...(pageToken ? { pageToken } : {}),
      });
      seen.push(...(data.files ?? []).map((f) => f.id as string));
      pageToken = data.nextPageToken ?? undefined;
      pages++;
    } while (pageToken);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await failure(api.files.list({ pageToken: 'forged' }))).status).toBe(400);
    expect((await failure(api.files.list({ pageSize: 1001 }))).reasons).toEqual(['invalidParameter']);
  });

  it('hides Shared Drive items without supportsAllDrives/includeItemsFromAllDrives (DR-04)', async () => {
    const e = await failure(api.files.get({ fileId: 'SDFILE1' }));
    expect(e).toMatchObject({ status: 404, reasons: ['notFound'] });
    const file = await api.files.get({
      fileId: 'SDFILE1',
      supportsAllDrives: true,
      fields: 'id,name,driveId,parents',
    });
    expect(file.data).toEqual({
      id: 'SDFILE1',
      name: 'Roadmap 2027',
      driveId: '0ASHARED',
      parents: ['SDFOLDER'],
    });
    const q = "name contains 'roadmap'";
    expect((await api.files.list({ q })).data.files).toEqual([]);
    expect((await api.files.list({ q, corpora: 'allDrives', supportsAllDrives: true })).data.files).toEqual(
      [],
    );
    const all = await api.files.list({
      q,
      corpora: 'allDrives',
      supportsAllDrives: true,
      includeItemsFromAllDrives: true,
      fields: 'files(id,driveId)',
    });
    expect(all.data.files).toEqual([{ id: 'SDFILE1', driveId: '0ASHARED' }]);
    const inDrive = await api.files.list({
      q: "'SDFOLDER' in parents",
      corpora: 'drive',
      driveId: '0ASHARED',
      supportsAllDrives: true,
      includeItemsFromAllDrives: true,
    });
    expect(inDrive.data.files?.map((f) => f.id)).toEqual(['SDFILE1']);
    expect((await failure(api.files.list({ corpora: 'drive', driveId: '0ASHARED' }))).status).toBe(403);
    expect((await failure(api.files.list({ corpora: 'everything' }))).status).toBe(400);
    // files.export has no supportsAllDrives parameter (see routes.json): it exports without one.
    const exported = await api.files.export(
      { fileId: 'SDFILE1', mimeType: 'text/markdown' },
      { responseType: 'text' },
    );
    expect(exported.data).toContain('# Roadmap 2027');
  });

  it('gets metadata with exportLinks and downloads with Range', async () => {
    const doc = await api.files.get({ fileId: 'DOC1', fields: 'id,mimeType,exportLinks,description' });
    expect(Object.keys(doc.data.exportLinks ?? {})).toEqual(['text/markdown', 'text/plain', 'text/html']);
    const text = await api.files.get({ fileId: 'TEXT1', alt: 'media' }, { responseType: 'text' });
    expect(text.data).toBe('line 1\nline 2\nline 3\n');
    const part = await api.files.get(
      { fileId: 'TEXT1', alt: 'media' },
      { responseType: 'text', headers: { Range: 'bytes=7-12' } },
    );
    expect(part.status).toBe(206);
    expect(part.data).toBe('line 2');
    expect(header(part, 'content-range')).toBe('bytes 7-12/21');
    const bin = await api.files.get({ fileId: 'BIN1', alt: 'media' }, { responseType: 'arraybuffer' });
    expect(Buffer.from(bin.data as ArrayBuffer)).toEqual(
      Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0xa0, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]),
    );
    expect((await failure(api.files.get({ fileId: 'DOC1', alt: 'media' }))).reasons).toEqual([
      'fileNotDownloadable',
    ]);
    expect((await failure(api.files.get({ fileId: 'NOPE' }))).status).toBe(404);
    const head = await api.files.get(
      { fileId: 'BIGTEXT', alt: 'media' },
      { responseType: 'text', headers: { Range: 'bytes=0-15' } },
    );
    expect(head.data).toBe('fifty megabytes\n');
  });

  it('exports each Google type, refuses what Drive refuses, and sends exportSizeLimitExceeded above 10 MB (DR-09, DR-10)', async () => {
    const exp = async (fileId: string, mimeType: string) =>
      (await api.files.export({ fileId, mimeType }, { responseType: 'arraybuffer' })) as unknown as {
        data: ArrayBuffer;
        headers: unknown;
      };
    expect(Buffer.from((await exp('DOC1', 'text/markdown')).data).toString()).toBe(
      '# Quarterly report\n\nRevenue grew **12%**.\n',
    );
    expect(Buffer.from((await exp('DOC1', 'text/plain')).data).toString()).toContain('Revenue grew 12%.');
    expect(Buffer.from((await exp('DOC1', 'text/html')).data).toString()).toMatch(/^<html>/);
    expect(Buffer.from((await exp('SHEET1', 'text/csv')).data).toString()).toBe(
      'item,amount\nrent,1200\nfood,300\n',
    );
    expect(Buffer.from((await exp('SLIDES1', 'text/plain')).data).toString()).toContain('Kickoff');
    const png = await exp('DRAW1', 'image/png');
    expect(Buffer.from(png.data)).toEqual(PNG_BYTES);
    expect(header(png, 'content-type')).toBe('image/png');
    expect(last('/export').query.get('mimeType')).toBe('image/png');
    expect(
      (await failure(api.files.export({ fileId: 'SHEET1', mimeType: 'text/markdown' }))).reasons,
    ).toEqual(['badRequest']);
    expect((await failure(api.files.export({ fileId: 'TEXT1', mimeType: 'text/plain' }))).reasons).toEqual([
      'fileNotExportable',
    ]);
    const big = await failure(api.files.export({ fileId: 'BIGDOC', mimeType: 'text/plain' }));
    expect(big).toMatchObject({
      status: 403,
      reasons: ['exportSizeLimitExceeded'],
      message: 'This file is too large to be exported.',
    });
    const meta = await api.files.get({ fileId: 'BIGDOC', fields: 'exportLinks' });
    const link = meta.data.exportLinks?.['text/plain'] as string;
    expect(new URL(link).hostname).toBe('127.0.0.1');
    const viaLink = await oauth.request<string>({
      url: link,
      responseType: 'text',
      headers: { Range: 'bytes=0-12' },
    });
    expect(viaLink.data).toBe('big doc line\n');
    expect(header(viaLink, 'content-range')).toBe(`bytes 0-12/${30 * 1024 * 1024}`);
  });

  it('creates, uploads (multipart and media), updates, moves, trashes and copies', async () => {
    const folder = await api.files.create({
      requestBody: { name: 'Drafts', mimeType: 'application/vnd.google-apps.folder' },
      fields: 'id,parents',
    });
    const folderId = folder.data.id as string;
    const multipart = await api.files.create(
      {
        requestBody: { name: 'hello.txt', parents: [folderId] },
        media: { mimeType: 'text/plain', body: 'hello world\n' },
        fields: 'id,name,mimeType,size,parents',
      },
      at,
    );
    expect(multipart.data).toMatchObject({
      name: 'hello.txt',
      mimeType: 'text/plain',
      size: '12',
      parents: [folderId],
    });
    expect(last('/upload/drive/v3/files').query.get('uploadType')).toBe('multipart');
    const id = multipart.data.id as string;
    await api.files.update(
      { fileId: id, media: { mimeType: 'text/plain', body: Readable.from([Buffer.from('v2\n')]) } },
      at,
    );
    expect(last(`/upload/drive/v3/files/${id}`).query.get('uploadType')).toBe('media');
    expect((await api.files.get({ fileId: id, alt: 'media' }, { responseType: 'text' })).data).toBe('v2\n');
    const doc = await api.files.create(
      {
        requestBody: { name: 'Notes', mimeType: 'application/vnd.google-apps.document' },
        media: { mimeType: 'text/markdown', body: '# Notes\n' },
      },
      at,
    );
    expect(
      (
        await api.files.export(
          { fileId: doc.data.id as string, mimeType: 'text/markdown' },
          { responseType: 'text' },
        )
      ).data,
    ).toBe('# Notes\n');
    const moved = await api.files.update({
      fileId: id,
      addParents: 'FOLDER1',
      removeParents: folderId,
      requestBody: { name: 'hello-renamed.txt' },
      fields: 'name,parents',
    });
    expect(moved.data).toEqual({ name: 'hello-renamed.txt', parents: ['FOLDER1'] });
    expect((await failure(api.files.update({ fileId: id, addParents: folderId }))).reasons).toEqual([
      'cannotAddParent',
    ]);
    const trashed = await api.files.update({ fileId: id, requestBody: { trashed: true }, fields: 'trashed' });
    expect(trashed.data.trashed).toBe(true);
    const copy = await api.files.copy({
      fileId: 'TEXT1',
      requestBody: { name: 'copy.txt' },
      fields: 'id,name,size',
    });
    expect(copy.data).toMatchObject({ name: 'copy.txt', size: '21' });
    const sd = await api.files.create(
      {
        requestBody: { name: 'sd.txt', parents: ['SDFOLDER'] },
        media: { mimeType: 'text/plain', body: 'x' },
        supportsAllDrives: true,
        fields: 'driveId',
      },
      at,
    );
    expect(sd.data.driveId).toBe('0ASHARED');
    expect(
      (await failure(api.files.create({ requestBody: { name: 'x', parents: ['SDFOLDER'] } }))).status,
    ).toBe(404);
  });

  it('refuses a request body field Drive does not have', async () => {
    const res = await fetch(`${fake.rootUrl}drive/v3/files/TEXT1`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${SCENE.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'v2 field name' }),
    });
    expect(res.status).toBe(400);
    expect(
      ((await res.json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]?.reason,
    ).toBe('badRequest');
  });

  it('media uploads ignore the client-level rootUrl: the loopback guard stops them', async () => {
    const before = offLoopback().length;
    const e = await failure(
      api.files.create({ requestBody: { name: 'leak.txt' }, media: { mimeType: 'text/plain', body: 'x' } }),
    );
    expect(e.message).toMatch(/blocked: a request left loopback for www\.googleapis\.com/);
    expect(offLoopback().slice(before)).toEqual(['www.googleapis.com']);
  });

  it('lists Shared Drives and manages permissions', async () => {
    const drives = await api.drives.list({});
    expect(drives.data).toEqual({
      kind: 'drive#driveList',
      drives: [expect.objectContaining({ kind: 'drive#drive', id: '0ASHARED', name: 'Engineering' })],
    });
    expect((await api.drives.get({ driveId: '0ASHARED' })).data.name).toBe('Engineering');
    const created = await api.permissions.create({
      fileId: 'DOC1',
      requestBody: { type: 'user', role: 'reader', emailAddress: 'friend@example.com' },
      fields: 'id,type,role,emailAddress',
    });
    expect(created.data).toMatchObject({ type: 'user', role: 'reader', emailAddress: 'friend@example.com' });
    const listed = await api.permissions.list({
      fileId: 'DOC1',
      fields: 'permissions(id,role,emailAddress)',
    });
    expect(listed.data.permissions?.map((p) => p.role)).toEqual(['owner', 'reader']);
    const removed = await api.permissions.delete({ fileId: 'DOC1', permissionId: created.data.id as string });
    expect(removed.status).toBe(204);
    expect(
      (
        await failure(
          api.permissions.create({
            fileId: 'DOC1',
            requestBody: { type: 'user', role: 'owner', emailAddress: 'x@example.com' },
          }),
        )
      ).reasons,
    ).toEqual(['forbidden']);
    expect((await failure(api.permissions.list({ fileId: 'SDFILE1' }))).status).toBe(404);
    expect((await api.permissions.list({ fileId: 'SDFILE1', supportsAllDrives: true })).data.kind).toBe(
      'drive#permissionList',
    );
  });

  it('checks bearer tokens and scopes: expired 401 authError, drive.readonly writes 403 insufficientPermissions', async () => {
    expect(await failure(clientWith(SCENE.expiredToken).files.get({ fileId: 'DOC1' }))).toMatchObject({
      status: 401,
      reasons: ['authError'],
    });
    expect(await failure(clientWith('ya29.unknown').files.list({}))).toMatchObject({
      status: 401,
      reasons: ['authError'],
    });
    const readOnly = clientWith(SCENE.readOnlyToken);
    expect((await readOnly.files.get({ fileId: 'DOC1' })).data.id).toBe('DOC1');
    expect(
      await failure(readOnly.files.update({ fileId: 'DOC1', requestBody: { name: 'x' } })),
    ).toMatchObject({ status: 403, reasons: ['insufficientPermissions'] });
    const res = await fetch(`${fake.rootUrl}drive/v3/files`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('stages 403 userRateLimitExceeded / rateLimitExceeded and 429 as the client surfaces them', async () => {
    fake.rateLimit();
    expect(await failure(api.files.list({}))).toMatchObject({
      status: 403,
      reasons: ['userRateLimitExceeded'],
    });
    fake.rateLimit({ reason: 'rateLimitExceeded' });
    expect(await failure(api.files.list({}))).toMatchObject({ status: 403, reasons: ['rateLimitExceeded'] });
    fake.rateLimit({ status: 429, retryAfter: 1, match: { path: '/drive/v3/files/DOC1' } });
    expect(await failure(api.files.get({ fileId: 'DOC1' }))).toMatchObject({
      status: 429,
      reasons: ['rateLimitExceeded'],
    });
    expect(last('/drive/v3/files/DOC1').reply?.headers['retry-after']).toBe('1');
    expect((await api.files.get({ fileId: 'DOC1' })).status).toBe(200);
  });

  it('only ever sent parameters the generated methods declare', () => {
    const undeclared = new Set<string>();
    for (const r of fake.api.requests) {
      if (!r.route || r.route === '/token') continue;
      const op = driveOperation(r.method, routeTemplate(r.route));
      for (const name of r.query.keys())
        if (!op?.parameters.includes(name)) undeclared.add(`${r.method} ${r.route} ?${name}`);
    }
    expect([...undeclared]).toEqual([]);
  });
});

describe('fake Drive against @googleapis/drive', () => {
  const spec = driveSpec();

  it('the fixture was made from the installed @googleapis/drive', async () => {
    const { default: pkg } = await import('@googleapis/drive/package.json', { with: { type: 'json' } });
    expect(loadDriveSpec().routes.package).toBe(`@googleapis/drive@${pkg.version}`);
  });

  it('registers only routes the generated client has (and the token endpoint)', () => {
    expect(undescribedRoutes(fake.routes, spec)).toEqual([]);
    expect(spec.hasOperation('GET', '/drive/v3/files/{fileId}/nope')).toBe(false);
  });

  it('fails the check on a body with a field the API does not have', async () => {
    const badDir = mkdtempSync(join(tmpdir(), 'fake-drive-bad-'));
    process.env[TRAFFIC_DIR_ENV] = badDir;
    try {
      const bad = await startFakeDrive();
      seedScene(bad);
      bad.route('GET', '/drive/v3/about', () => ({
        body: { kind: 'drive#about', user: { displayName: 'x', title: 'v2 only' } },
      }));
      await fetch(`${bad.rootUrl}drive/v3/about`, {
        headers: { authorization: `Bearer ${SCENE.accessToken}` },
      });
      await bad.close();
      const report = checkTraffic(readTraffic(badDir), { drive: spec });
      expect(report.problems).toEqual([
        expect.stringMatching(/^GET \/drive\/v3\/about → 200: \/user: must NOT have additional properties/),
      ]);
    } finally {
      process.env[TRAFFIC_DIR_ENV] = trafficDir;
      rmSync(badDir, { recursive: true, force: true });
    }
  });

  it("validates all of this file's traffic, and reached every route", () => {
    const traffic = readTraffic(trafficDir);
    const report = checkTraffic(traffic, { drive: spec });
    expect(report.problems).toEqual([]);
    expect(report.validated).toBeGreaterThan(40);
    const reached = new Set(
      traffic.filter((x) => x.route).map((x) => `${x.method} ${routeTemplate(x.route ?? '')}`),
    );
    expect(fake.routes.map((r) => r.join(' ')).filter((r) => !reached.has(r))).toEqual([]);
    expect(offLoopback()).toEqual(['www.googleapis.com']); // only the blocked upload above
    expect(connects).toContain('127.0.0.1'); // the guard is in the path (sockets are kept alive, so few)
  });
});
