/**
 * Issue 31: recent files (newest first by Drive's `recency`) and starred files, left out under
 * --folders when outside them.
 */
import { callChecked } from '@refmcp/test-harness';
import { GOOGLE_TYPES } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, structured } from './support.js';

const ids = (r: { structuredContent?: unknown }) =>
  (structured(r).files as { id: string }[]).map((f) => f.id);

describe('recent and starred files', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
    const s = session.fake.state;
    s.addFile({
      id: 'NEWEST',
      name: 'fresh notes',
      mimeType: GOOGLE_TYPES.doc,
      modifiedTime: '2099-01-02T00:00:00.000Z',
    });
    s.addFile({
      id: 'STAR1',
      name: 'starred plan',
      mimeType: GOOGLE_TYPES.doc,
      parents: ['FOLDER1'],
      starred: true,
      modifiedTime: '2099-01-01T00:00:00.000Z',
    });
    s.addFile({
      id: 'STAR2',
      name: 'starred root',
      mimeType: GOOGLE_TYPES.doc,
      starred: true,
      modifiedTime: '2098-01-01T00:00:00.000Z',
    });
  });
  afterAll(() => session.close());

  it('recent_files lists newest first and asks Drive for recency; starred only the starred', async () => {
    const r = await callChecked(session.conn, 'recent_files', { limit: 3 });
    expect(r.isError, r.text).toBeFalsy();
    expect(ids(r)).toEqual(['NEWEST', 'STAR1', 'STAR2']);
    const list = session.fake.api.requests.filter((q) => q.path === '/drive/v3/files').at(-1);
    expect(list?.query.get('orderBy')).toBe('recency desc');
    const starred = await callChecked(session.conn, 'recent_files', { starred: true });
    expect(ids(starred)).toEqual(['STAR1', 'STAR2']);
    expect(starred.text).toContain('Starred files, most recent first');
  });
});

describe('under --folders', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession({}, ['--folders', 'FOLDER1']);
    const s = session.fake.state;
    s.addFile({
      id: 'STAR1',
      name: 'starred plan',
      mimeType: GOOGLE_TYPES.doc,
      parents: ['FOLDER1'],
      starred: true,
    });
    s.addFile({ id: 'STAR2', name: 'starred root', mimeType: GOOGLE_TYPES.doc, starred: true });
  });
  afterAll(() => session.close());

  it('starred files outside the folders are left out and counted', async () => {
    const r = await callChecked(session.conn, 'recent_files', { starred: true });
    expect(ids(r)).toEqual(['STAR1']);
    expect(structured(r).omitted).toBe(1);
    expect(r.text).not.toContain('starred root');
  });
});
