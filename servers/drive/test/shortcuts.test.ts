/**
 * Issue 28 item 2: read_file on a shortcut reads its target when the target is inside --folders
 * and otherwise refuses naming the target and why; a Doc whose Markdown export carries pasted
 * pictures as data: URIs is read with a short placeholder for each, within the read budget.
 */
import { callChecked } from '@refmcp/test-harness';
import { docExports, type FakeDrive, GOOGLE_TYPES } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, structured } from './support.js';

const SHORTCUT = 'application/vnd.google-apps.shortcut';
/** 300 KB of picture, as base64 (~400 KB of text). */
const PICTURE = Buffer.alloc(300_000, 0x5a).toString('base64');

function seed(fake: FakeDrive): void {
  const s = fake.state;
  const shortcut = (id: string, targetId: string, targetMimeType: string, parents = ['FOLDER1']) =>
    s.addFile({
      id,
      name: `${id} link`,
      mimeType: SHORTCUT,
      parents,
      shortcut: { targetId, targetMimeType },
    });
  shortcut('SC_IN', 'DOC1', GOOGLE_TYPES.doc);
  shortcut('SC_OUT', 'SHEET1', GOOGLE_TYPES.sheet);
  shortcut('SC_GONE', 'NOSUCHFILE', GOOGLE_TYPES.doc);
  const markdown = [
    '# Incident review',
    '',
    'Before the graph.',
    '',
    '![][image1]',
    '',
    `![latency chart](data:image/jpeg;base64,${PICTURE})`,
    '',
    'After the graph: root cause was the cache.',
    '',
    `[image1]: <data:image/png;base64,${PICTURE}>`,
    '',
  ].join('\n');
  s.addFile({
    id: 'DOCIMG',
    name: 'Incident review',
    mimeType: GOOGLE_TYPES.doc,
    parents: ['FOLDER1'],
    exports: { ...docExports('x'), 'text/markdown': Buffer.from(markdown) },
  });
}

describe('shortcuts', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession({}, ['--folders', 'FOLDER1']);
    seed(session.fake);
  });
  afterAll(() => session.close());

  it('a shortcut whose target is inside --folders reads the target, and says so', async () => {
    const { conn, fake } = session;
    fake.api.clearRequests();
    const r = await callChecked(conn, 'read_file', { file_id: 'SC_IN' });
    expect(r.isError, r.text).toBeFalsy();
    expect(structured(r)).toMatchObject({ id: 'DOC1', shortcutId: 'SC_IN', contentType: 'text/markdown' });
    expect(structured(r).content).toContain('Revenue grew **12%**.');
    expect(r.text).toContain('through shortcut SC_IN link SC_IN');
    const fields = fake.api.requests
      .filter((q) => q.path.endsWith('/files/SC_IN'))
      .map((q) => q.query.get('fields'));
    expect(fields.some((f) => f?.includes('shortcutDetails'))).toBe(true);
  });

  it('a target outside --folders is refused naming it and the flag, before its content is read', async () => {
    const { conn, fake } = session;
    fake.api.clearRequests();
    const r = await callChecked(conn, 'read_file', { file_id: 'SC_OUT' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /SC_OUT is a shortcut to SHEET1 \(Google Sheet\), which is outside --folders FOLDER1/,
    );
    expect(fake.api.requests.some((q) => q.path.includes('/files/SHEET1/export'))).toBe(false);
  });

  it('a target that is gone is named', async () => {
    const r = await callChecked(session.conn, 'read_file', { file_id: 'SC_GONE' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/shortcut to NOSUCHFILE \(Google Doc\), which is not found or not shared/);
  });

  it('get_file_metadata names the target', async () => {
    const r = await callChecked(session.conn, 'get_file_metadata', { file_id: 'SC_OUT' });
    expect(r.text).toContain('Shortcut to SHEET1 (Google Sheet): read_file reads the target.');
  });
});

describe('without --folders', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
    seed(session.fake);
  });
  afterAll(() => session.close());

  it('any shortcut with a readable target is followed', async () => {
    const r = await callChecked(session.conn, 'read_file', { file_id: 'SC_OUT' });
    expect(r.isError, r.text).toBeFalsy();
    expect(structured(r)).toMatchObject({ id: 'SHEET1', shortcutId: 'SC_OUT' });
    expect(structured(r).content).toContain('rent,1200');
  });

  it('pasted pictures (data: URIs) become placeholders: the text around them fits one read', async () => {
    const r = await callChecked(session.conn, 'read_file', { file_id: 'DOCIMG' });
    expect(r.isError, r.text).toBeFalsy();
    const content = String(structured(r).content);
    expect(content).toContain('Before the graph.');
    expect(content).toContain('After the graph: root cause was the cache.');
    expect(content).toContain('![latency chart](latency chart: image image/jpeg, 300,000 bytes: not shown)');
    expect(content).toContain('[image1]: <image1: image image/png, 300,000 bytes: not shown>');
    expect(JSON.stringify(r)).not.toContain(PICTURE.slice(0, 64));
    expect(structured(r).nextOffset).toBeUndefined();
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(4096);
  });
});
