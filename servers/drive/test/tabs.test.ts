/**
 * Issue 31: a Doc with several tabs is read through the Docs API (documents.get with
 * includeTabsContent, the real @googleapis/docs client against the fake, checked against Docs'
 * generated schemas): every tab, nested ones after their parent, each after a `[tab: …]` line, as
 * Markdown, under the read budget with offset; a one-tab Doc is still exported; a Docs API that
 * refuses (403, not enabled) falls back to the export and says tabs were not checked.
 */
import { callChecked } from '@refmcp/test-harness';
import { type DocTabRecord, docExports, GOOGLE_TYPES, googleError } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, type Session, startServer, structured } from './support.js';

const TABS: DocTabRecord[] = [
  {
    id: 't.notes',
    title: 'Notes',
    paragraphs: [
      { text: 'Meeting notes', style: 'TITLE' },
      { text: 'Decisions', style: 'HEADING_2' },
      { text: 'Ship in March', bullet: { level: 0 } },
      { text: 'Audit first', bullet: { level: 1 } },
      { text: 'Budget is fixed', bold: true },
      { text: 'the plan', link: 'https://example.com/plan' },
    ],
    children: [{ id: 't.raw', title: 'Raw', paragraphs: [{ text: 'Unedited jottings' }] }],
  },
  {
    id: 't.transcript',
    title: 'Transcript',
    paragraphs: [
      { text: 'ALICE: hello' },
      {
        table: [
          ['Speaker', 'Minutes'],
          ['Alice', '12'],
        ],
      },
    ],
  },
];

describe('multi-tab Docs', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
    const s = session.fake.state;
    // The export: what Drive has been reported to give for a multi-tab Doc, the first tab only.
    s.addFile({
      id: 'TABS1',
      name: 'Team meeting',
      mimeType: GOOGLE_TYPES.doc,
      parents: ['FOLDER1'],
      exports: docExports('# Meeting notes\n\n## Decisions\n'),
      tabs: TABS,
    });
    const line = `${'x'.repeat(99)}\n`;
    s.addFile({
      id: 'TABSBIG',
      name: 'Long transcript',
      mimeType: GOOGLE_TYPES.doc,
      parents: ['FOLDER1'],
      exports: docExports('first tab only'),
      tabs: [
        { id: 't.0', title: 'Long', paragraphs: Array.from({ length: 3000 }, () => ({ text: line.trim() })) },
        { id: 't.1', title: 'Tail', paragraphs: [{ text: 'THE END' }] },
      ],
    });
  });
  afterAll(() => session.close());

  it("the standard scene's HANDBOOK1 (what `fake drive` offers) reads every tab, the child after its parent", async () => {
    const r = await callChecked(session.conn, 'read_file', { file_id: 'HANDBOOK1' });
    expect(r.isError, r.text).toBeFalsy();
    const content = structured(r).content as string;
    const at = (s: string) => content.indexOf(s);
    for (const s of [
      '[tab: Overview]',
      'How we work.',
      '[tab: Overview › Onboarding]',
      'Meet your buddy',
      '[tab: On-call]',
    ])
      expect(at(s), s).toBeGreaterThanOrEqual(0);
    expect(at('[tab: Overview]')).toBeLessThan(at('[tab: Overview › Onboarding]'));
    expect(at('[tab: Overview › Onboarding]')).toBeLessThan(at('[tab: On-call]'));
  });

  it('reads every tab through the Docs API, each labelled, as Markdown', async () => {
    session.fake.api.clearRequests();
    const r = await callChecked(session.conn, 'read_file', { file_id: 'TABS1' });
    expect(r.isError, r.text).toBeFalsy();
    const content = structured(r).content as string;
    const at = (s: string) => content.indexOf(s);
    for (const s of [
      '[tab: Notes]',
      '# Meeting notes',
      '## Decisions',
      '- Ship in March\n  - Audit first',
      '**Budget is fixed**',
      '[the plan](https://example.com/plan)',
      '[tab: Notes › Raw]',
      'Unedited jottings',
      '[tab: Transcript]',
      'ALICE: hello',
      '| Speaker | Minutes |\n| --- | --- |\n| Alice | 12 |',
    ])
      expect(at(s), s).toBeGreaterThanOrEqual(0);
    expect(at('[tab: Notes]')).toBeLessThan(at('[tab: Notes › Raw]'));
    expect(at('[tab: Notes › Raw]')).toBeLessThan(at('[tab: Transcript]'));
    expect(structured(r).contentType).toBe('text/markdown');
    expect(r.text).toContain('all 3 tabs through the Docs API');
    const gets = session.fake.api.requests.filter((q) => q.path === '/v1/documents/TABS1');
    expect(gets.length).toBe(2);
    for (const q of gets) expect(q.query.get('includeTabsContent')).toBe('true');
    expect(session.fake.api.requests.some((q) => q.path.endsWith('/TABS1/export'))).toBe(false);
  });

  it('keeps the read budget and continues with offset across tabs', async () => {
    const first = await callChecked(session.conn, 'read_file', { file_id: 'TABSBIG' });
    expect(first.isError, first.text).toBeFalsy();
    const next = structured(first).nextOffset as number;
    expect(next).toBeGreaterThan(200_000);
    expect(first.text).toContain(`call again with offset: ${next}`);
    expect(structured(first).content as string).not.toContain('THE END');
    const second = await callChecked(session.conn, 'read_file', { file_id: 'TABSBIG', offset: next });
    expect(second.isError, second.text).toBeFalsy();
    expect(structured(second).content as string).toContain('[tab: Tail]\n\nTHE END');
    expect(structured(second).nextOffset).toBeUndefined();
  });

  it('exports a one-tab Doc as before (one small Docs call for the tab ids)', async () => {
    session.fake.api.clearRequests();
    const r = await callChecked(session.conn, 'read_file', { file_id: 'DOC1' });
    expect(r.isError, r.text).toBeFalsy();
    expect(structured(r).content as string).toContain('Revenue grew **12%**.');
    expect(structured(r).content as string).not.toContain('[tab:');
    const gets = session.fake.api.requests.filter((q) => q.path === '/v1/documents/DOC1');
    expect(gets.map((q) => q.query.get('fields'))).toEqual([
      'tabs(tabProperties(tabId),childTabs(tabProperties(tabId)))',
    ]);
    expect(session.fake.api.requests.some((q) => q.path.endsWith('/DOC1/export'))).toBe(true);
  });

  it('exports and says so when the Docs API refuses (not enabled)', async () => {
    const refusal = googleError(
      403,
      'accessNotConfigured',
      'Google Docs API has not been used in project 1 before or it is disabled.',
    );
    session.fake.api.inject({
      status: 403,
      body: refusal.body,
      times: 1,
      match: { path: /^\/v1\/documents\// },
    });
    const r = await callChecked(session.conn, 'read_file', { file_id: 'TABS1' });
    expect(r.isError, r.text).toBeFalsy();
    expect(r.text).toContain('tabs not checked');
    expect(structured(r).content as string).toContain('# Meeting notes');
  });

  it('is fenced by --folders before any Docs request', async () => {
    const s = session.fake.state;
    s.addFile({
      id: 'TABSOUT',
      name: 'Outside',
      mimeType: GOOGLE_TYPES.doc,
      exports: docExports('x'),
      tabs: TABS,
    });
    const conn = await startServer(session.fake, session.files, ['--folders', 'FOLDER1']);
    try {
      session.fake.api.clearRequests();
      const r = await callChecked(conn, 'read_file', { file_id: 'TABSOUT' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('--folders');
      expect(session.fake.api.requests.some((q) => q.path.startsWith('/v1/documents'))).toBe(false);
    } finally {
      await conn.close();
    }
  });
});
