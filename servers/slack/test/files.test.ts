/**
 * Files shared in Slack through the built server against the fake Slack (files.info spec-checked;
 * downloads from its files.slack.com stand-in at url_private_download): messages list their files
 * (name, type, size, id); slack_read_file reads a PDF, .docx, .xlsx and .pptx through the
 * documents module, only when the file is shared in a channel SLACK_CHANNEL_IDS allows, and
 * answers an encrypted PDF and a zip bomb with a clear error.
 */
import { callChecked } from '@refmcp/test-harness';
import {
  makeDocx,
  makeEncryptedPdf,
  makePdf,
  makePptx,
  makeWorkbook,
  makeZipBomb,
} from '@refmcp/test-harness/documents';
import type { FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

const OFFICE = 'application/vnd.openxmlformats-officedocument';
let slack: FakeSlack;
const ids: Record<string, string> = {};
beforeAll(async () => {
  ({ slack } = await startScene());
  const s = slack.state;
  const share = async (
    channel: string,
    name: string,
    mimetype: string,
    filetype: string,
    content: Buffer,
  ) => {
    const message = s.addMessage(channel, `here is ${name}`);
    ids[name] = s.addFile(channel, message, { name, mimetype, filetype, content }).id;
  };
  await share('C111', 'contract.pdf', 'application/pdf', 'pdf', await makePdf(3, { scanned: [2] }));
  await share('C111', 'locked.pdf', 'application/pdf', 'pdf', await makeEncryptedPdf());
  await share('C111', 'spec.docx', `${OFFICE}.wordprocessingml.document`, 'docx', await makeDocx());
  await share('C111', 'budget.xlsx', `${OFFICE}.spreadsheetml.sheet`, 'xlsx', makeWorkbook(5));
  await share(
    'C111',
    'deck.pptx',
    `${OFFICE}.presentationml.presentation`,
    'pptx',
    makePptx([{ text: 'Welcome', notes: 'Say hello' }]),
  );
  await share('C111', 'bomb.docx', `${OFFICE}.wordprocessingml.document`, 'docx', makeZipBomb(5, 256));
  await share('C999', 'secret.pdf', 'application/pdf', 'pdf', await makePdf(1));
});
afterAll(() => slack.close());

describe('files in Slack', () => {
  it('messages list their files with name, type, size and id', async () => {
    const conn = await startServer(slack);
    try {
      const history = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      expect(history.isError).toBeFalsy();
      expect(history.text).toMatch(
        new RegExp(`contract\\.pdf \\(pdf, [\\d.]+ KB, id ${ids['contract.pdf']}\\)`),
      );
    } finally {
      await conn.close();
    }
  });

  it('slack_read_file reads PDF, Word, spreadsheet and slides through the documents module', async () => {
    const conn = await startServer(slack);
    try {
      const pdf = await callChecked(conn, 'slack_read_file', { file_id: ids['contract.pdf'] });
      expect(pdf.isError).toBeFalsy();
      expect(pdf.text).toContain('PDF, 3 pages');
      expect(pdf.text).toContain('Page 1 line 1: the quick brown fox');
      expect(pdf.text).toMatch(/--- page 2 — no text layer/);
      expect(pdf.text).toContain('<untrusted-data');
      expect((await callChecked(conn, 'slack_read_file', { file_id: ids['spec.docx'] })).text).toContain(
        '| Region | Sales |',
      );
      expect((await callChecked(conn, 'slack_read_file', { file_id: ids['budget.xlsx'] })).text).toContain(
        '"Summary"',
      );
      const deck = await callChecked(conn, 'slack_read_file', { file_id: ids['deck.pptx'], pages: '1' });
      expect(deck.text).toMatch(/Welcome[\s\S]*Notes:[\s\S]*Say hello/);
      const download = slack.files?.requests.find((r) => r.path.includes(ids['contract.pdf'] ?? '?'));
      expect(download?.headers.authorization).toMatch(/^Bearer xoxb-/);
    } finally {
      await conn.close();
    }
  });

  it('slack_read_file answers an encrypted PDF and a zip bomb with a clear error', async () => {
    const conn = await startServer(slack);
    try {
      for (const [name, message] of [
        ['locked.pdf', /password-protected/],
        ['bomb.docx', /zip bomb/],
      ] as const) {
        const failed = await callChecked(conn, 'slack_read_file', { file_id: ids[name] });
        expect(failed.isError, name).toBe(true);
        expect(failed.text).toMatch(message);
      }
    } finally {
      await conn.close();
    }
  }, 120_000); // two worker reads inflating and parsing hostile files: a minute on a loaded machine

  it('a file shared only outside SLACK_CHANNEL_IDS is refused before it is downloaded', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_CHANNEL_IDS: 'C111' } });
    try {
      slack.files?.clearRequests();
      const refused = await callChecked(conn, 'slack_read_file', { file_id: ids['secret.pdf'] });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('SLACK_CHANNEL_IDS C111');
      expect(slack.files?.requests).toHaveLength(0);
      const allowed = await callChecked(conn, 'slack_read_file', { file_id: ids['contract.pdf'] });
      expect(allowed.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });
});
