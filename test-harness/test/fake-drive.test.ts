import { Readable } from 'node:stream';
import { docs as docsClient } from '@googleapis/docs';
import { type drive_v3, drive as driveClient } from '@googleapis/drive';
import { OAuth2Client } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTraffic, routeTemplate } from '../src/fake-api/index.js';
import {
  addManyFiles,
  type FakeDrive,
  PNG_BYTES,
  parseQuery,
  SCENE,
  seedScene,
  startFakeDrive,
} from '../src/fakes/drive/index.js';
import { driveOperation, driveSpec, loadDriveSpec } from '../src/fakes/drive/spec.js';
import { checkTraffic, undescribedRoutes } from '../src/spec/index.js';
import { connects, type DriveScene, failure, header, offLoopback, openDriveScene } from './support/drive.js';

let scene: DriveScene;
let fake: FakeDrive;
let oauth: OAuth2Client;
let api: drive_v3.Drive;
/** Per-call options: media uploads ignore the client-level rootUrl. */
let at: { rootUrl: string };
const last = (fragment: string) => scene.last(fragment);

beforeAll(async () => {
  scene = await openDriveScene();
  ({ fake, oauth, api, at } = scene);
});

afterAll(async () => {
  await scene.close();
});

describe('fake Drive through @googleapis/drive', () => {
  it('documents.get (Docs API v1 through @googleapis/docs): the first tab in body, or every tab with includeTabsContent', async () => {
    fake.state.addFile({
      id: 'TABBED',
      name: 'Tabbed',
      mimeType: 'application/vnd.google-apps.document',
      tabs: [
        { id: 't.a', title: 'A', paragraphs: [{ text: 'Alpha', style: 'HEADING_1' }] },
        {
          id: 't.b',
          title: 'B',
          paragraphs: [{ table: [['x', 'y']] }, { text: 'item', bullet: { level: 1, ordered: true } }],
          children: [
            { id: 't.c', title: 'C', paragraphs: [{ text: 'Gamma', bold: true, link: 'https://e.x/' }] },
          ],
        },
      ],
    });
    const docs = docsClient({ version: 'v1', auth: oauth, rootUrl: at.rootUrl });
    const legacy = await docs.documents.get({ documentId: 'TABBED' });
    expect(legacy.data.tabs).toBeUndefined();
    expect(JSON.stringify(legacy.data.body)).toContain('Alpha');
    const all = await docs.documents.get({ documentId: 'TABBED', includeTabsContent: true });
    expect(all.data.body).toBeUndefined();
    expect(all.data.tabs?.map((t) => t.tabProperties?.title)).toEqual(['A', 'B']);
    expect(all.data.tabs?.[1]?.childTabs?.[0]?.tabProperties).toMatchObject({
      tabId: 't.c',
      nestingLevel: 1,
    });
    const probe = await docs.documents.get({
      documentId: 'TABBED',
      includeTabsContent: true,
      fields: 'tabs(tabProperties(tabId),childTabs(tabProperties(tabId)))',
    });
    expect(probe.data).toEqual({
      tabs: [
        { tabProperties: { tabId: 't.a' }, childTabs: [] },
        { tabProperties: { tabId: 't.b' }, childTabs: [{ tabProperties: { tabId: 't.c' } }] },
      ],
    });
    expect(await failure(docs.documents.get({ documentId: 'TABBED', fields: 'tabs(nope)' }))).toMatchObject({
      status: 400,
    });
    expect(await failure(docs.documents.get({ documentId: 'SHEET1' }))).toMatchObject({ status: 400 });
  });

  it('revisions: listed with export links for a Doc; a binary revision downloads, a Doc revision only exports', async () => {
    const doc = fake.state.files.get('DOC1');
    const text = fake.state.files.get('TEXT1');
    if (!doc || !text) throw new Error('scene changed');
    doc.revisions = [
      { id: '3', modifiedTime: '2026-01-01T00:00:00.000Z', exports: { 'text/plain': Buffer.from('old') } },
    ];
    text.revisions = [{ id: 'r1', modifiedTime: '2026-01-01T00:00:00.000Z', content: Buffer.from('v1') }];
    const list = await api.revisions.list({ fileId: 'DOC1', fields: 'revisions(id,exportLinks)' });
    const link = list.data.revisions?.[0]?.exportLinks?.['text/plain'] ?? '';
    expect(link).toContain('revision=3');
    const token = (await oauth.getAccessToken()).token;
    expect(await (await fetch(link, { headers: { authorization: `Bearer ${token}` } })).text()).toBe('old');
    expect(await failure(api.revisions.get({ fileId: 'DOC1', revisionId: '3', alt: 'media' }))).toMatchObject(
      {
        status: 403,
      },
    );
    const bytes = await api.revisions.get(
      { fileId: 'TEXT1', revisionId: 'r1', alt: 'media' },
      { responseType: 'text' },
    );
    expect(bytes.data).toBe('v1');
    expect((await api.revisions.get({ fileId: 'TEXT1', revisionId: 'r1' })).data).toMatchObject({ id: 'r1' });
    expect(await failure(api.revisions.get({ fileId: 'TEXT1', revisionId: 'x' }))).toMatchObject({
      status: 404,
    });
  });

  it('comments: list requires fields and shows anchors; a reply resolves and reopens', async () => {
    const doc = fake.state.files.get('DOC1');
    if (doc)
      doc.comments = [
        {
          id: 'c1',
          author: 'Alice',
          email: 'alice@example.com',
          content: 'Really 12%?',
          createdTime: '2026-01-01T00:00:00.000Z',
          quoted: 'Revenue grew',
          resolved: false,
          replies: [],
        },
      ];
    expect(await failure(api.comments.list({ fileId: 'DOC1' }))).toMatchObject({ status: 400 });
    const list = await api.comments.list({
      fileId: 'DOC1',
      fields: 'comments(id,quotedFileContent(value),resolved,replies(id))',
    });
    expect(list.data.comments?.[0]).toMatchObject({ id: 'c1', quotedFileContent: { value: 'Revenue grew' } });
    const reply = await api.replies.create({
      fileId: 'DOC1',
      commentId: 'c1',
      fields: 'id,action',
      requestBody: { content: 'Yes', action: 'resolve' },
    });
    expect(reply.data.action).toBe('resolve');
    expect(doc?.comments?.[0]?.resolved).toBe(true);
    expect(
      await failure(
        api.replies.create({
          fileId: 'DOC1',
          commentId: 'nope',
          fields: 'id',
          requestBody: { content: 'x' },
        }),
      ),
    ).toMatchObject({ status: 404 });
  });

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
    expect(await names("'FOLDER1' in parents")).toEqual(['Quarterly report', 'Team handbook']);
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

  it("parses every DR-03 input as one literal once escaped (\\ and ')", () => {
    const raws = ["O'Reilly report", "x\\' or name != '", 'budget\\', 'MSA', "name = 'x' or trashed = true"];
    for (const raw of raws) {
      const literal = raw.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
      const matches = parseQuery(
        `(name contains '${literal}' or fullText contains '${literal}') and trashed = false`,
      );
      const file = { mimeType: 'text/plain', parents: [], trashed: false, fullText: '' };
      expect(matches({ ...file, name: `a ${raw} b` })).toBe(true);
      expect(matches({ ...file, name: raw.slice(1) })).toBe(false);
    }
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

  it('pages thousands of files in pages of up to 1000 (DR-06)', async () => {
    const fresh = await startFakeDrive();
    try {
      seedScene(fresh);
      const ids = addManyFiles(fresh, 2500);
      const auth = new OAuth2Client();
      auth.setCredentials({ access_token: SCENE.accessToken, expiry_date: Date.now() + 3_600_000 });
      const own = driveClient({ version: 'v3', auth, rootUrl: fresh.rootUrl, retry: false });
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const { data }: { data: drive_v3.Schema$FileList } = await own.files.list({
          q: "name contains 'file-'",
          pageSize: 1000,
          fields: 'nextPageToken,files(id)',
          ...(pageToken ? { pageToken } : {}),
        });
        seen.push(...(data.files ?? []).map((f) => f.id as string));
        pageToken = data.nextPageToken ?? undefined;
      } while (pageToken);
      expect(seen).toEqual(ids);
      expect(fresh.api.requests.map((r) => r.query.get('pageSize'))).toEqual(['1000', '1000', '1000']);
    } finally {
      await fresh.close();
    }
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

  it("changes a grantee's role (permissions.update); the owner's is not changed without transferOwnership", async () => {
    const created = await api.permissions.create({
      fileId: 'SHEET1',
      requestBody: { type: 'user', role: 'reader', emailAddress: 'friend@example.com' },
    });
    const updated = await api.permissions.update({
      fileId: 'SHEET1',
      permissionId: created.data.id as string,
      requestBody: { role: 'writer' },
      fields: 'id,role',
    });
    expect(updated.data).toEqual({ id: created.data.id, role: 'writer' });
    const owner = fake.state.files.get('SHEET1')?.permissions.find((p) => p.role === 'owner');
    expect(
      (
        await failure(
          api.permissions.update({
            fileId: 'SHEET1',
            permissionId: owner?.id as string,
            requestBody: { role: 'reader' },
          }),
        )
      ).reasons,
    ).toEqual(['forbidden']);
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
    const badTraffic = recordTraffic('fake-drive-bad-');
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
      const report = checkTraffic(badTraffic.read(), { drive: spec });
      expect(report.problems).toEqual([
        expect.stringMatching(/^GET \/drive\/v3\/about → 200: \/user: must NOT have additional properties/),
      ]);
    } finally {
      badTraffic.stop();
    }
  });

  it("validates all of this file's traffic, and reached every route", () => {
    const traffic = scene.traffic.read();
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
