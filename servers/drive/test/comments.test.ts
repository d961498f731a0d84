/**
 * Issue 31: a file's comment threads (anchors, replies), a Doc read with its open threads placed
 * at their anchors within the read budget, and reply/resolve/reopen (opt-in, files_write) — all
 * fenced by --folders before any request.
 */
import { callChecked } from '@refmcp/test-harness';
import {
  type CommentRecord,
  docExports,
  type FakeDrive,
  GOOGLE_TYPES,
} from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  credentialFiles,
  openSession,
  type Session,
  startScene,
  startServer,
  structured,
} from './support.js';

const MARKDOWN =
  '# Plan\n\nWe ship in **March** if the audit passes.\n\nBudget is fixed at 40k.\n\nRisks are listed below.\n';
const t0 = '2026-01-01T00:00:00.000Z';
const comment = (c: Partial<CommentRecord> & { id: string; content: string }): CommentRecord => ({
  author: 'Alice Example',
  email: 'alice@example.com',
  createdTime: t0,
  resolved: false,
  replies: [],
  ...c,
});

function seed(fake: FakeDrive): void {
  fake.state.addFile({
    id: 'DOCC',
    name: 'Launch plan',
    mimeType: GOOGLE_TYPES.doc,
    parents: ['FOLDER1'],
    exports: docExports(MARKDOWN),
    comments: [
      comment({
        id: 'c1',
        content: 'Which audit?',
        quoted: 'ship in March',
        replies: [
          {
            id: 'r1',
            author: 'Bob Builder',
            email: 'bob@example.com',
            content: 'The SOC2 one',
            createdTime: t0,
          },
        ],
      }),
      comment({ id: 'c2', content: 'Old nit', quoted: 'Budget is fixed', resolved: true }),
      comment({ id: 'c3', content: 'This paragraph was deleted', quoted: 'a sentence no longer there' }),
    ],
  });
  const sheet = fake.state.files.get('SHEET1');
  if (sheet) sheet.comments = [comment({ id: 's1', content: 'secret sheet comment' })];
}

describe('comments under --folders', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession({}, ['--folders', 'FOLDER1']);
    seed(session.fake);
  });
  afterAll(() => session.close());

  it('list_comments shows each thread with its quoted text, replies and state', async () => {
    const r = await callChecked(session.conn, 'list_comments', { file_id: 'DOCC' });
    expect(r.isError, r.text).toBeFalsy();
    expect(r.text).toContain('3 comment threads on DOCC (2 open)');
    expect(r.text).toContain('> [comment c1, Alice Example, on "ship in March"]: Which audit?');
    expect(r.text).toContain('>   ↳ Bob Builder: The SOC2 one');
    expect(r.text).toContain('[comment c2, Alice Example, resolved, on "Budget is fixed"]');
    const fields = session.fake.api.requests
      .find((q) => q.path.endsWith('/DOCC/comments'))
      ?.query.get('fields');
    expect(fields).toContain('quotedFileContent');
  });

  it('read_file with comments places open threads after the paragraph they quote; resolved ones are left out', async () => {
    const r = await callChecked(session.conn, 'read_file', { file_id: 'DOCC', comments: true });
    expect(r.isError, r.text).toBeFalsy();
    const content = String(structured(r).content);
    const para = content.indexOf('We ship in **March**');
    const c1 = content.indexOf('[comment c1');
    expect(para).toBeGreaterThanOrEqual(0);
    expect(c1).toBeGreaterThan(para);
    expect(c1).toBeLessThan(content.indexOf('Budget is fixed'));
    expect(content).not.toContain('Old nit');
    expect(content).toMatch(/## Comments not placed\n\n> \[comment c3/);
    const plain = await callChecked(session.conn, 'read_file', { file_id: 'DOCC' });
    expect(String(structured(plain).content)).not.toContain('[comment');
  });

  it('a file outside --folders: no comment is read; comments on a Sheet are refused', async () => {
    const { fake, conn } = session;
    fake.api.clearRequests();
    const r = await callChecked(conn, 'list_comments', { file_id: 'SHEET1' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/--folders/);
    expect(fake.api.requests.some((q) => q.path.includes('/comments'))).toBe(false);
    const sheet = await callChecked(conn, 'read_file', { file_id: 'DOC1', comments: true, start_line: 1 });
    expect(sheet.isError).toBe(true);
  });
});

describe('reply_to_comment (opt-in)', () => {
  let fake: FakeDrive;
  beforeAll(async () => {
    fake = await startScene();
    seed(fake);
  });
  afterAll(() => fake.close());

  it('is listed only with files_write and never under --read-only', async () => {
    const files = credentialFiles();
    for (const [args, listed] of [
      [[], false],
      [['--toolsets', 'files,files_write', '--read-only'], false],
      [['--toolsets', 'files,files_write'], true],
    ] as const) {
      const conn = await startServer(fake, files, [...args]);
      try {
        const names = (await conn.tools()).map((t) => t.name);
        expect(names.includes('reply_to_comment'), args.join(' ')).toBe(listed);
        expect(names).toContain('list_comments');
      } finally {
        await conn.close();
      }
    }
  });

  it('replies, resolves and reopens; outside --folders nothing is sent', async () => {
    const conn = await startServer(fake, credentialFiles(), [
      '--toolsets',
      'files,files_write',
      '--folders',
      'FOLDER1',
    ]);
    try {
      const thread = () => fake.state.files.get('DOCC')?.comments?.find((c) => c.id === 'c1');
      const r = await callChecked(conn, 'reply_to_comment', {
        file_id: 'DOCC',
        comment_id: 'c1',
        content: 'Done, see SOC2 report',
        action: 'resolve',
      });
      expect(r.isError, r.text).toBeFalsy();
      expect(r.text).toContain('Resolved comment c1 on DOCC with a reply');
      expect(thread()?.resolved).toBe(true);
      expect(thread()?.replies.at(-1)?.content).toBe('Done, see SOC2 report');
      const reopen = await callChecked(conn, 'reply_to_comment', {
        file_id: 'DOCC',
        comment_id: 'c1',
        action: 'reopen',
      });
      expect(reopen.isError, reopen.text).toBeFalsy();
      expect(thread()?.resolved).toBe(false);
      fake.api.clearRequests();
      const out = await callChecked(conn, 'reply_to_comment', {
        file_id: 'SHEET1',
        comment_id: 's1',
        content: 'x',
      });
      expect(out.isError).toBe(true);
      expect(fake.api.requests.some((q) => q.path.includes('/comments'))).toBe(false);
      const empty = await callChecked(conn, 'reply_to_comment', { file_id: 'DOCC', comment_id: 'c1' });
      expect(empty.isError).toBe(true);
    } finally {
      await conn.close();
    }
  });
});
