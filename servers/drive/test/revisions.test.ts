/**
 * Issue 31: a file's revisions — listed, and an older one read: a Doc through the revision's
 * export link (Drive refuses alt=media on it), a text file through revisions.get alt=media —
 * fenced by --folders before any request.
 */
import { callChecked } from '@refmcp/test-harness';
import { docExports } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, startServer, structured } from './support.js';

describe('revisions', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
    const s = session.fake.state;
    const doc = s.files.get('DOC1');
    const text = s.files.get('TEXT1');
    if (!doc || !text) throw new Error('scene changed: DOC1 and TEXT1 expected');
    doc.revisions = [
      {
        id: '7',
        modifiedTime: '2026-01-01T00:00:00.000Z',
        exports: docExports('# Draft\n\nRevenue grew **3%**.\n'),
      },
      { id: '9', modifiedTime: '2026-02-01T00:00:00.000Z', exports: doc.exports ?? {} },
    ];
    text.revisions = [
      {
        id: 'r1',
        modifiedTime: '2026-01-01T00:00:00.000Z',
        content: Buffer.from('first draft\n'),
        keepForever: true,
      },
      { id: 'r2', modifiedTime: '2026-02-01T00:00:00.000Z', content: text.content ?? Buffer.alloc(0) },
    ];
  });
  afterAll(() => session.close());

  it('lists revisions oldest first with time, author and export formats', async () => {
    const r = await callChecked(session.conn, 'list_revisions', { file_id: 'DOC1' });
    expect(r.isError, r.text).toBeFalsy();
    const revisions = structured(r).revisions as Array<{
      id: string;
      exportFormats?: string[];
      modifiedBy?: string;
    }>;
    expect(revisions.map((x) => x.id)).toEqual(['7', '9']);
    expect(revisions[0]?.exportFormats).toContain('text/markdown');
    expect(revisions[0]?.modifiedBy).toBeTruthy();
    const t = await callChecked(session.conn, 'list_revisions', { file_id: 'TEXT1' });
    expect(structured(t).revisions).toMatchObject([{ id: 'r1', size: 12, keepForever: true }, { id: 'r2' }]);
  });

  it("reads a Doc's older revision as Markdown through its export link, a text file's through alt=media", async () => {
    session.fake.api.clearRequests();
    const doc = await callChecked(session.conn, 'read_revision', { file_id: 'DOC1', revision_id: '7' });
    expect(doc.isError, doc.text).toBeFalsy();
    expect(doc.text).toContain('Revenue grew **3%**');
    expect(doc.text).not.toContain('12%');
    expect(structured(doc).contentType).toBe('text/markdown');
    expect(session.fake.api.requests.some((q) => q.query.get('alt') === 'media')).toBe(false);
    const text = await callChecked(session.conn, 'read_revision', { file_id: 'TEXT1', revision_id: 'r1' });
    expect(text.isError, text.text).toBeFalsy();
    expect(structured(text).content).toContain('first draft');
    expect(
      session.fake.api.requests.some(
        (q) => q.path.endsWith('/revisions/r1') && q.query.get('alt') === 'media',
      ),
    ).toBe(true);
    const missing = await callChecked(session.conn, 'read_revision', {
      file_id: 'TEXT1',
      revision_id: 'nope',
    });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('404');
  });

  it('pages past 200 revisions with a cursor bound to the file', async () => {
    const bin = session.fake.state.files.get('BIN1');
    if (!bin) throw new Error('scene changed: BIN1 expected');
    bin.revisions = Array.from({ length: 450 }, (_, i) => ({
      id: `b${i}`,
      modifiedTime: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      content: Buffer.from(`v${i}`),
    }));
    type Page = { revisions: Array<{ id: string }>; nextCursor?: string };
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await callChecked(session.conn, 'list_revisions', {
        file_id: 'BIN1',
        ...(cursor ? { cursor } : {}),
      });
      expect(r.isError, r.text).toBeFalsy();
      const page = structured(r) as Page;
      ids.push(...page.revisions.map((x) => x.id));
      cursor = page.nextCursor;
      if (cursor) expect(r.text).toContain('call again with cursor');
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(ids).toEqual(Array.from({ length: 450 }, (_, i) => `b${i}`));
    const first = structured(await callChecked(session.conn, 'list_revisions', { file_id: 'BIN1' })) as Page;
    const other = await callChecked(session.conn, 'list_revisions', {
      file_id: 'TEXT1',
      cursor: first.nextCursor,
    });
    expect(other.isError).toBe(true);
    expect(other.text).toContain('the same file_id');
  });

  it('is fenced by --folders before any request', async () => {
    const conn = await startServer(session.fake, session.files, ['--folders', 'FOLDER1']);
    try {
      session.fake.api.clearRequests();
      for (const [tool, args] of [
        ['list_revisions', { file_id: 'TEXT1' }],
        ['read_revision', { file_id: 'TEXT1', revision_id: 'r1' }],
      ] as const) {
        const r = await callChecked(conn, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toContain('--folders');
      }
      expect(session.fake.api.requests.some((q) => q.path.includes('/revisions'))).toBe(false);
      const inside = await callChecked(conn, 'read_revision', { file_id: 'DOC1', revision_id: '7' });
      expect(inside.isError, inside.text).toBeFalsy();
    } finally {
      await conn.close();
    }
  });
});
