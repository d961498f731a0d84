/**
 * Issue 31: scheduled messages (toolset `scheduling`, opt-in): schedule, list and cancel —
 * fenced by --post-to and SLACK_CHANNEL_IDS before any request, absent under --read-only (the
 * writes) or without the toolset, under the broadcast and unfurl rules of posting.
 */
import { callChecked } from '@refmcp/test-harness';
import { BOT_USER, type FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
});
beforeEach(() => slack.api.clearRequests());
afterAll(() => slack.close());

const ARGS = [
  '--post-to',
  'C0TEST',
  '--toolsets',
  'channels,scheduling',
  '--unfurl-domains',
  'docs.example.com',
];
const WRITES = ['slack_schedule_message', 'slack_delete_scheduled_message'];
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');

describe('opt-in', () => {
  it('listed only with --post-to and the scheduling toolset; the writes never under --read-only', async () => {
    for (const [args, listed] of [
      [['--post-to', 'C0TEST'], false],
      [['--toolsets', 'channels,scheduling'], false],
      [[...ARGS, '--read-only'], false],
      [ARGS, true],
    ] as const) {
      const conn = await startServer(slack, [...args]);
      try {
        const names = (await conn.tools()).map((t) => t.name);
        for (const t of WRITES) expect(names.includes(t), `${args.join(' ')}: ${t}`).toBe(listed);
      } finally {
        await conn.close();
      }
    }
    expect(slack.calls('chat.scheduleMessage')).toHaveLength(0);
  });
});

describe('schedule, list, cancel', () => {
  it('schedules Markdown for later, lists it with its time, cancels it', async () => {
    const conn = await startServer(slack, ARGS);
    try {
      const at = inHours(3);
      const r = await callChecked(conn, 'slack_schedule_message', {
        channel_id: '#test',
        post_at: at,
        text: '**standup** in 5, see [docs](https://docs.example.com/a)',
      });
      expect(r.isError, r.text).toBeFalsy();
      const sent = slack.calls('chat.scheduleMessage').at(-1);
      expect(sent).toMatchObject({
        channel: 'C0TEST',
        post_at: String(Date.parse(at) / 1000),
        markdown_text: '**standup** in 5, see [docs](https://docs.example.com/a)',
        unfurl_links: 'true',
      });
      const id = (r.structuredContent as { scheduled_message_id: string }).scheduled_message_id;
      expect(id).toMatch(/^Q/);
      expect((r.structuredContent as { post_at: string }).post_at).toBe(at.replace('Z', '.000Z'));

      const other = await callChecked(conn, 'slack_schedule_message', {
        channel_id: 'C0TEST',
        post_at: String(Math.floor(Date.now() / 1000) + 7200),
        text: 'see https://elsewhere.example/x',
      });
      expect(other.isError, other.text).toBeFalsy();
      expect(slack.calls('chat.scheduleMessage').at(-1)).toMatchObject({ unfurl_links: 'false' });

      const list = await callChecked(conn, 'slack_list_scheduled_messages', { channel_id: 'C0TEST' });
      expect(list.isError, list.text).toBeFalsy();
      const listed = (list.structuredContent as { scheduled: Array<{ id: string }> }).scheduled.map(
        (m) => m.id,
      );
      expect(listed).toContain(id);
      expect(listed).toHaveLength(2);
      expect(list.text).toContain('standup');

      const cancel = await callChecked(conn, 'slack_delete_scheduled_message', {
        channel_id: 'C0TEST',
        scheduled_message_id: id,
      });
      expect(cancel.isError, cancel.text).toBeFalsy();
      expect(slack.state.scheduled.map((m) => m.id)).not.toContain(id);
      const again = await callChecked(conn, 'slack_delete_scheduled_message', {
        channel_id: 'C0TEST',
        scheduled_message_id: id,
      });
      expect(again.isError).toBe(true);
      expect(again.text).toContain('invalid_scheduled_message_id');
    } finally {
      await conn.close();
    }
  });

  it('refuses before any request: a past or too-far time, a broadcast, a channel off --post-to', async () => {
    const conn = await startServer(slack, ARGS);
    try {
      for (const [args, expected] of [
        [{ channel_id: 'C0TEST', post_at: inHours(-1), text: 'x' }, 'not in the future'],
        [{ channel_id: 'C0TEST', post_at: inHours(24 * 121), text: 'x' }, '120 days'],
        [{ channel_id: 'C0TEST', post_at: '2026-12-08 09:00', text: 'x' }, 'ISO 8601'],
        [{ channel_id: 'C0TEST', post_at: inHours(1), text: '@channel lunch' }, 'nothing was scheduled'],
        [{ channel_id: 'C111', post_at: inHours(1), text: 'x' }, '--post-to C0TEST'],
      ] as const) {
        const r = await callChecked(conn, 'slack_schedule_message', { ...args });
        expect(r.isError, JSON.stringify(args)).toBe(true);
        expect(r.text).toContain(expected);
      }
      for (const [tool, extra] of [
        ['slack_list_scheduled_messages', {}],
        ['slack_delete_scheduled_message', { scheduled_message_id: 'Q1' }],
      ] as const) {
        const r = await callChecked(conn, tool, { channel_id: 'C111', ...extra });
        expect(r.isError, tool).toBe(true);
        expect(r.text).toContain('--post-to C0TEST');
      }
      expect(slack.api.requests.filter((q) => q.path.includes('chat.'))).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });
});

describe('list pages', () => {
  it('follows Slack next_cursor past one page of 100', async () => {
    const start = slack.state.scheduled.length;
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 130; i++)
      slack.state.scheduled.push({
        id: `QPAGE${String(i).padStart(4, '0')}`,
        channel: 'C0TEST',
        user: BOT_USER,
        postAt: now + 3600 + i,
        dateCreated: now,
        text: `paged ${i}`,
        unfurlLinks: false,
      });
    const conn = await startServer(slack, ARGS);
    try {
      type Page = { scheduled: Array<{ id: string }>; hasMore: boolean; nextCursor?: string };
      const first = await callChecked(conn, 'slack_list_scheduled_messages', { channel_id: 'C0TEST' });
      expect(first.isError, first.text).toBeFalsy();
      const p1 = first.structuredContent as Page;
      expect(p1.scheduled).toHaveLength(100);
      expect(p1.hasMore).toBe(true);
      expect(first.text).toContain('call again with cursor');
      const second = await callChecked(conn, 'slack_list_scheduled_messages', {
        channel_id: '#test',
        cursor: p1.nextCursor,
      });
      expect(second.isError, second.text).toBeFalsy();
      const p2 = second.structuredContent as Page;
      expect(p2.hasMore).toBe(false);
      const ids = [...p1.scheduled, ...p2.scheduled].map((m) => m.id).filter((id) => id.startsWith('QPAGE'));
      expect(new Set(ids).size).toBe(130);
    } finally {
      await conn.close();
      slack.state.scheduled.splice(start);
    }
  });
});
