/**
 * DR-03 the query is always a literal, DR-04 Shared Drive files work, DR-05 stdout is only
 * JSON-RPC, DR-07 search hits can be read (a cursor over 300 hits), and Drive's rate limits
 * waited out.
 */
import { callChecked } from '@refmcp/test-harness';
import { addManyFiles, type FakeDrive } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  credentialFiles,
  EXPIRED_TOKEN,
  openSession,
  type Session,
  startServer,
  structured,
} from './support.js';

let session: Session;
let fake: FakeDrive;
let conn: Session['conn'];
beforeAll(async () => {
  session = await openSession();
  ({ fake, conn } = session);
});
afterAll(() => session.close());

const lastQ = () =>
  fake.api.requests
    .filter((r) => r.path === '/drive/v3/files' && r.method === 'GET')
    .at(-1)
    ?.query.get('q') ?? '';
const LITERAL = /'((?:[^'\\]|\\.)*)'/g;
const blank = (q: string) => q.replace(LITERAL, "''");
const literals = (q: string) => [...q.matchAll(LITERAL)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'));

describe('DR-03 the query is always a literal', () => {
  it('DR-03 hostile queries keep the shape of the query for "report", each literal equal to the input', async () => {
    expect((await callChecked(conn, 'search', { query: 'report' })).isError).toBeFalsy();
    const shape = blank(lastQ());
    for (const query of [
      "O'Reilly report",
      "x\\' or name != '",
      'budget\\',
      'MSA',
      "name = 'x' or trashed = true",
    ]) {
      const r = await callChecked(conn, 'search', { query });
      expect(r.isError, r.text).toBeFalsy();
      expect(blank(lastQ()), query).toBe(shape);
      const found = literals(lastQ());
      expect(found.length).toBeGreaterThan(0);
      for (const l of found) expect(l).toBe(query);
    }
    const hit = await callChecked(conn, 'search', { query: "O'Reilly" });
    expect(hit.text).toContain('OREILLY1');
  });

  it('DR-03 "" and " " are isError with no request', async () => {
    for (const query of ['', ' ']) {
      fake.api.clearRequests();
      const r = await callChecked(conn, 'search', { query });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('query');
      expect(fake.api.requests).toHaveLength(0);
    }
  });

  it("DR-03 Drive's 400 on q is isError naming status, reason and q, not -32603", async () => {
    fake.api.inject({
      status: 400,
      body: {
        error: { code: 400, message: 'Invalid Value', errors: [{ reason: 'invalid', location: 'q' }] },
      },
      match: (req) => req.path === '/drive/v3/files',
    });
    const r = await callChecked(conn, 'search', { query: 'report' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('400');
    expect(r.text).toContain('invalid');
    expect(r.text).toContain('"q"');
  });
});

describe('DR-04 Shared Drive files work', () => {
  it('DR-04 search finds SDFILE1 with its drive; read, metadata, resource, folder and drive list succeed', async () => {
    const search = await callChecked(conn, 'search', { query: 'roadmap' });
    const hit = (
      structured(search).files as Array<{
        id: string;
        driveId?: string;
      }>
    ).find((f) => f.id === 'SDFILE1');
    expect(hit?.driveId).toBe('0ASHARED');
    expect(search.text).toContain('Engineering');
    const list = fake.api.requests.filter((r) => r.path === '/drive/v3/files').at(-1);
    expect(list?.query.get('includeItemsFromAllDrives')).toBe('true');
    expect(list?.query.get('supportsAllDrives')).toBe('true');
    expect(list?.query.get('corpora')).toBe('allDrives');
    for (const file_id of ['SDFILE1', 'https://docs.google.com/document/d/SDFILE1/edit']) {
      const read = await callChecked(conn, 'read_file', { file_id });
      expect(read.isError, read.text).toBeFalsy();
      expect(read.text).toContain('Ship the roadmap');
    }
    expect((await callChecked(conn, 'get_file_metadata', { file_id: 'SDFILE1' })).isError).toBeFalsy();
    const resource = (await conn.client.request({
      method: 'resources/read',
      params: { uri: 'gdrive:///SDFILE1' },
    } as never)) as { contents: Array<{ text?: string; mimeType: string }> };
    expect(resource.contents[0]?.mimeType).toBe('text/markdown');
    expect(resource.contents[0]?.text).toContain('Roadmap 2027');
    const folder = await callChecked(conn, 'list_folder', { folder_id: 'SDFOLDER' });
    expect(folder.text).toContain('SDFILE1');
    const drives = await callChecked(conn, 'list_shared_drives', {});
    expect(drives.text).toContain('0ASHARED');
  });
});

describe('DR-05 stdout is only JSON-RPC', () => {
  it('DR-05 DEBUG=*, an expired token, a search and a missing file: every stdout line is JSON-RPC', async () => {
    const expired = credentialFiles(EXPIRED_TOKEN());
    const debug = await startServer(fake, expired, [], { env: { DEBUG: '*', NODE_DEBUG: 'http' } });
    try {
      expect((await callChecked(debug, 'search', { query: 'report' })).isError).toBeFalsy();
      const missing = await callChecked(debug, 'read_file', { file_id: 'NOPE404' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toContain('404');
      expect(debug.nonJsonStdout()).toEqual([]);
    } finally {
      await debug.close();
    }
  });
});

describe('DR-07 search hits can be read', () => {
  it('DR-07 300 hits come once over cursors, each with id, name, type and modified time; a hit reads', async () => {
    const ids = new Set(addManyFiles(fake, 300, 'zeta-'));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let tokenSent: string | null = null;
    let lastToken: string | undefined;
    do {
      const r = await callChecked(conn, 'search', { query: 'zeta', ...(cursor ? { cursor } : {}) });
      expect(r.isError, r.text).toBeFalsy();
      const req = fake.api.requests.filter((q) => q.path === '/drive/v3/files').at(-1);
      tokenSent = req?.query.get('pageToken') ?? null;
      if (pages > 0) expect(tokenSent).toBe(lastToken);
      lastToken = (req?.reply?.body as { nextPageToken?: string } | undefined)?.nextPageToken;
      const hits = structured(r).files as Array<{
        id: string;
        name: string;
        mimeType: string;
        modifiedTime?: string;
      }>;
      for (const h of hits) {
        expect(h.id && h.name && h.mimeType && h.modifiedTime).toBeTruthy();
        seen.push(h.id);
      }
      cursor = structured(r).nextCursor as string | undefined;
      if (cursor) expect(r.text).toContain(cursor);
      pages++;
    } while (cursor && pages < 50);
    expect(cursor).toBeUndefined();
    expect(seen.filter((id) => ids.has(id)).sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(seen.length);
    const read = await callChecked(conn, 'read_file', { file_id: seen[0] });
    expect(read.isError).toBeFalsy();
    expect(read.text).toContain('file ');
  });
});

describe('rate limits', () => {
  it('403 userRateLimitExceeded and 429 rateLimitExceeded are waited out and retried', async () => {
    for (const status of [403, 429] as const) {
      fake.rateLimit({ status, match: (req) => req.rawPath.startsWith('/drive/v3/files/TEXT1') });
      fake.api.clearRequests();
      const r = await callChecked(conn, 'get_file_metadata', { file_id: 'TEXT1' });
      expect(r.isError, r.text).toBeFalsy();
      const tries = fake.api.requests.filter((q) => q.rawPath.startsWith('/drive/v3/files/TEXT1'));
      expect(
        tries.map((q) => q.status),
        JSON.stringify(fake.api.requests.map((q) => q.rawPath)),
      ).toEqual([status, 200]);
    }
  });
});
