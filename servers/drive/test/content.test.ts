/**
 * DR-06 resource pages, DR-09 exports over 10 MB and big files, DR-10 drawings and binaries are
 * never text (and Docs, Sheets, Slides export as text).
 */
import { callChecked } from '@refmcp/test-harness';
import { addManyFiles, BINARY_BYTES, type FakeDrive, PNG_BYTES } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, structured } from './support.js';

let session: Session;
let fake: FakeDrive;
let conn: Session['conn'];
beforeAll(async () => {
  session = await openSession({ big: true });
  ({ fake, conn } = session);
});
afterAll(() => session.close());

type Contents = { contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> };
const readResource = (uri: string) =>
  conn.client.request({ method: 'resources/read', params: { uri } } as never) as Promise<Contents>;

describe('DR-10 drawings and binaries are never text', () => {
  it('DR-10 resources/read of a Drawing is an image/png blob of the exported bytes', async () => {
    fake.api.clearRequests();
    const r = await readResource('gdrive:///DRAW1');
    expect(r.contents[0]?.mimeType).toBe('image/png');
    expect(r.contents[0]?.text).toBeUndefined();
    expect(Buffer.from(r.contents[0]?.blob ?? '', 'base64').equals(PNG_BYTES)).toBe(true);
    const exp = fake.api.requests.find((q) => q.path.endsWith('/export'));
    expect(exp?.query.get('mimeType')).toBe('image/png');
  });

  it('DR-10 resources/read of logo.png and blob.bin are blobs', async () => {
    const png = await readResource('gdrive:///PNG1');
    expect(png.contents[0]?.blob).toBe(PNG_BYTES.toString('base64'));
    const bin = await readResource('gdrive:///BIN1');
    expect(bin.contents[0]?.text).toBeUndefined();
    expect(bin.contents[0]?.blob).toBe(BINARY_BYTES.toString('base64'));
  });

  it('DR-10 read_file of DRAW1 and logo.png gives image content; of blob.bin a note, never its bytes as text', async () => {
    for (const file_id of ['DRAW1', 'PNG1']) {
      const r = await callChecked(conn, 'read_file', { file_id });
      expect(r.isError).toBeFalsy();
      const image = r.content.find((c) => c.type === 'image') as
        | { data: string; mimeType: string }
        | undefined;
      expect(image?.mimeType).toBe('image/png');
      expect(Buffer.from(image?.data ?? '', 'base64').equals(PNG_BYTES)).toBe(true);
    }
    const bin = await callChecked(conn, 'read_file', { file_id: 'BIN1' });
    expect(bin.isError).toBeFalsy();
    expect(structured(bin).binary).toBe(true);
    expect(structured(bin).content).toBeUndefined();
    expect(bin.text).not.toContain(BINARY_BYTES.toString('latin1'));
    expect(bin.text).not.toContain('\ufffd');
  });

  it('DR-10 Docs export as text/markdown, Sheets as text/csv, Slides as text/plain, all as text', async () => {
    for (const [id, type, needle] of [
      ['DOC1', 'text/markdown', '# Quarterly report'],
      ['SHEET1', 'text/csv', 'rent,1200'],
      ['SLIDES1', 'text/plain', 'Goals for the year'],
    ] as const) {
      const r = await readResource(`gdrive:///${id}`);
      expect(r.contents[0]?.mimeType).toBe(type);
      expect(r.contents[0]?.text).toContain(needle);
      const tool = await callChecked(conn, 'read_file', { file_id: id });
      expect(structured(tool).contentType).toBe(type);
      expect(tool.text).toContain(needle);
    }
  });
});

describe('DR-09 exports over 10 MB, and big files', () => {
  it('DR-09 BIGDOC: one export request, then the text via its export link, cut at the budget with a marker', async () => {
    fake.api.clearRequests();
    fake.docs.clearRequests();
    const r = await callChecked(conn, 'read_file', { file_id: 'BIGDOC' });
    expect(r.isError, r.text).toBeFalsy();
    expect(
      fake.api.requests.filter((q) => q.path.endsWith('/export')).map((q) => [q.status, q.headers.range]),
      JSON.stringify(fake.api.requests.map((q) => [q.method, q.rawPath, q.status])),
    ).toHaveLength(1);
    expect(r.text).toContain('big doc line');
    expect(r.text).toMatch(/\[truncated: .*offset: \d+\]/);
    expect(r.text).not.toContain('exportSizeLimitExceeded"');
    expect(Buffer.byteLength(r.text)).toBeLessThan(300 * 1024);
    const link = fake.docs.requests.at(-1);
    expect(link?.headers.range).toMatch(/^bytes=0-\d+$/);
    const next = structured(r).nextOffset as number;
    const more = await callChecked(conn, 'read_file', { file_id: 'BIGDOC', offset: next });
    expect(more.isError).toBeFalsy();
    expect(structured(more).offset).toBe(next);
  });

  it('DR-09 a 403 userRateLimitExceeded on the export is waited out and retried', async () => {
    fake.rateLimit({ match: (req) => req.path === '/drive/v3/files/DOC1/export' });
    fake.api.clearRequests();
    const r = await callChecked(conn, 'read_file', { file_id: 'DOC1' });
    expect(r.isError).toBeFalsy();
    expect(fake.api.requests.filter((q) => q.path.endsWith('/export')).map((q) => q.status)).toEqual([
      403, 200,
    ]);
  });

  it('DR-09 a 50 MB text file comes back within the budget with the marker; the fake sees a Range header', async () => {
    fake.api.clearRequests();
    const r = await callChecked(conn, 'read_file', { file_id: 'BIGTEXT' });
    expect(r.isError).toBeFalsy();
    expect(r.text).toContain('fifty megabytes');
    expect(r.text).toMatch(/\[truncated: \d+ more bytes; call again with offset: \d+\]/);
    expect(Buffer.byteLength(r.text)).toBeLessThan(300 * 1024);
    const media = fake.api.requests.find((q) => q.query.get('alt') === 'media');
    expect(media?.headers.range).toMatch(/^bytes=0-\d+$/);
    const res = await readResource('gdrive:///BIGTEXT');
    expect(res.contents[0]?.text).toContain('[truncated:');
  });

  it('DR-09 without an export link: isError naming the 10 MB limit and what to do', async () => {
    const doc = fake.state.files.get('BIGDOC');
    const big = fake.state.addFile({
      id: 'BIGNOLINK',
      name: 'Huge',
      mimeType: 'application/vnd.google-apps.document',
      exports: { 'text/markdown': doc?.exports?.['text/markdown'] as Buffer },
    });
    expect(big.id).toBe('BIGNOLINK');
    // The fake lists every export format as a link; a link this server does not trust is not followed.
    const r = await callChecked(conn, 'read_file', { file_id: 'BIGNOLINK' });
    expect(r.isError === true || r.text.includes('[truncated:')).toBe(true);
    if (r.isError) expect(r.text).toContain('10 MB');
  });
});

describe('DR-06 resource pages', () => {
  it('DR-06 5,000 files: resources/list yields each once over nextCursor; pageSize >= 100; tokens chained', async () => {
    const ids = new Set(addManyFiles(fake, 5000, 'many-'));
    fake.api.clearRequests();
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await conn.client.request({
        method: 'resources/list',
        params: cursor ? { cursor } : {},
      } as never)) as { resources: Array<{ uri: string }>; nextCursor?: string };
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 200);
    expect(cursor).toBeUndefined();
    const uris = seen.filter((u) => ids.has(u.slice('gdrive:///'.length)));
    expect(uris).toHaveLength(5000);
    expect(new Set(seen).size).toBe(seen.length);
    const lists = fake.api.requests.filter((q) => q.path === '/drive/v3/files');
    for (const [i, q] of lists.entries()) {
      expect(Number(q.query.get('pageSize'))).toBeGreaterThanOrEqual(100);
      const previous = lists[i - 1]?.reply?.body as { nextPageToken?: string } | undefined;
      expect(q.query.get('pageToken') ?? undefined).toBe(i === 0 ? undefined : previous?.nextPageToken);
    }
  });
});
