/**
 * Issue 31: unread messages (toolset `unread`, opt-in): counts after the token's read marker
 * (conversations.info `last_read`, then conversations.history), what it cannot count when history
 * is rate limited, and marking read (conversations.mark) only with --post-to, fenced.
 */
import { callChecked } from '@refmcp/test-harness';
import { ALICE, BOT_SCOPES, BOT_USER, type FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

const MARKER_TOKEN = 'xoxb-marker-0001';
let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
  slack.state.addToken(MARKER_TOKEN, BOT_USER, [...BOT_SCOPES, 'channels:write', 'groups:write']);
});
beforeEach(() => {
  slack.resetFaults();
  slack.api.clearRequests();
});
afterAll(() => slack.close());

const ARGS = ['--toolsets', 'channels,unread', '--post-to', 'C0TEST'];
const env = { env: { SLACK_BOT_TOKEN: MARKER_TOKEN } };
type Row = { channel: string; unread?: number; more?: boolean; note?: string };
const rows = (r: { structuredContent?: unknown }) =>
  (r.structuredContent as { conversations: Row[] }).conversations;

describe('unread', () => {
  it('listed only with the toolset; marking only with --post-to', async () => {
    for (const [args, list, mark] of [
      [['--post-to', 'C0TEST'], false, false],
      [['--toolsets', 'channels,unread'], true, false],
      [[...ARGS, '--read-only'], true, false],
      [ARGS, true, true],
    ] as const) {
      const conn = await startServer(slack, [...args], env);
      try {
        const names = (await conn.tools()).map((t) => t.name);
        expect(names.includes('slack_list_unread'), args.join(' ')).toBe(list);
        expect(names.includes('slack_get_unread_messages'), args.join(' ')).toBe(list);
        expect(names.includes('slack_mark_read'), args.join(' ')).toBe(mark);
      } finally {
        await conn.close();
      }
    }
  });

  it('counts messages after the read marker, marks read, counts a new one', async () => {
    const conn = await startServer(slack, ARGS, env);
    try {
      const before = await callChecked(conn, 'slack_list_unread', { channel_ids: ['#test'] });
      expect(before.isError, before.text).toBeFalsy();
      const all = slack.state.channel('C0TEST').messages.length;
      expect(rows(before)[0]).toMatchObject({ channel: 'C0TEST', unread: Math.min(all, 15) });
      const mark = await callChecked(conn, 'slack_mark_read', { channel_id: 'C0TEST' });
      expect(mark.isError, mark.text).toBeFalsy();
      expect(slack.calls('conversations.mark').at(-1)).toMatchObject({
        channel: 'C0TEST',
        ts: slack.state.channel('C0TEST').messages.at(-1)?.ts,
      });
      expect(rows(await callChecked(conn, 'slack_list_unread', { channel_ids: ['C0TEST'] }))[0]?.unread).toBe(
        0,
      );
      slack.state.addMessage('C0TEST', 'new from alice', { user: ALICE });
      const after = await callChecked(conn, 'slack_list_unread', { channel_ids: ['C0TEST'] });
      expect(rows(after)[0]?.unread).toBe(1);
      expect(after.text).toContain('1 of 1 conversation(s) have unread messages');
    } finally {
      await conn.close();
    }
  });

  it('says which conversations it could not count when history is rate limited', async () => {
    slack.nonMarketplaceApp();
    const conn = await startServer(slack, [...ARGS, '--rate-limit-wait', '0'], env);
    try {
      const r = await callChecked(conn, 'slack_list_unread', { channel_ids: ['C0TEST', 'C0GENERAL'] });
      expect(r.isError, r.text).toBeFalsy();
      expect(rows(r)[0]?.unread).toBeTypeOf('number');
      expect(rows(r)[1]?.note).toContain('rate limited');
      expect(r.text).toContain('ask again later');
    } finally {
      await conn.close();
    }
  });

  it('a conversation Slack refuses to count is a line naming why; the others keep their counts', async () => {
    const conn = await startServer(slack, ARGS, env);
    try {
      const r = await callChecked(conn, 'slack_list_unread', {
        channel_ids: ['C0TEST', 'C0SCOPE', 'C0GENERAL'],
      });
      expect(r.isError, r.text).toBeFalsy();
      const [test, scoped, general] = rows(r);
      expect(test?.unread).toBeTypeOf('number');
      expect(general?.unread).toBeTypeOf('number');
      expect(scoped?.unread).toBeUndefined();
      expect(scoped?.note).toContain('"channels:history"');
      expect(r.text).toMatch(/#scoped \(C0SCOPE\): not counted: .*"channels:history"/);
    } finally {
      await conn.close();
    }
  });

  it("marks read offline with the scene's own token (the scopes the README tells a user to grant)", async () => {
    const conn = await startServer(slack, ['--toolsets', 'all', '--post-to', 'all']);
    try {
      const r = await callChecked(conn, 'slack_mark_read', { channel_id: 'C0GENERAL' });
      expect(r.isError, r.text).toBeFalsy();
      expect(slack.calls('conversations.mark').at(-1)).toMatchObject({ channel: 'C0GENERAL' });
    } finally {
      await conn.close();
    }
  });

  it('slack_mark_read without --post-to is off, saying why: marking read is a write', async () => {
    const conn = await startServer(slack, ['--toolsets', 'all']);
    try {
      await expect(callChecked(conn, 'slack_mark_read', { channel_id: 'C0TEST' })).rejects.toThrow(
        /slack_mark_read not found: it is off here; start the server with --post-to .*marking read moves the read marker Slack shows, a write/,
      );
    } finally {
      await conn.close();
    }
  });

  it('marking read outside --post-to is refused before any request', async () => {
    const conn = await startServer(slack, ARGS, env);
    try {
      const r = await callChecked(conn, 'slack_mark_read', { channel_id: 'C111', ts: '1700000000.000100' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('--post-to C0TEST');
      expect(r.text).toContain('--post-to confines every write here, marking read included');
      expect(slack.calls('conversations.mark')).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });

  it('reads the messages after the read marker; its cursor keeps the marker of the first page', async () => {
    const conn = await startServer(slack, ARGS, env);
    type Page = { messages: Array<{ text: string }>; hasMore: boolean; nextCursor?: string };
    try {
      expect((await callChecked(conn, 'slack_mark_read', { channel_id: 'C0TEST' })).isError).toBeFalsy();
      for (const n of [1, 2, 3]) slack.state.addMessage('C0TEST', `catch-up ${n}`, { user: ALICE });
      const first = await callChecked(conn, 'slack_get_unread_messages', { channel_id: '#test', limit: 2 });
      expect(first.isError, first.text).toBeFalsy();
      const p1 = first.structuredContent as Page;
      expect(p1.messages.map((m) => m.text)).toEqual(['catch-up 3', 'catch-up 2']);
      expect(p1.hasMore).toBe(true);
      expect(first.text).toContain('2 unread messages after read marker');
      // Marked read meanwhile: the next page still continues after the first page's marker.
      expect((await callChecked(conn, 'slack_mark_read', { channel_id: 'C0TEST' })).isError).toBeFalsy();
      const second = await callChecked(conn, 'slack_get_unread_messages', {
        channel_id: 'C0TEST',
        limit: 2,
        cursor: p1.nextCursor,
      });
      expect(second.isError, second.text).toBeFalsy();
      expect((second.structuredContent as Page).messages.map((m) => m.text)).toEqual(['catch-up 1']);
      expect((second.structuredContent as Page).hasMore).toBe(false);
      const none = await callChecked(conn, 'slack_get_unread_messages', { channel_id: 'C0TEST', limit: 2 });
      expect((none.structuredContent as Page).messages).toEqual([]);
      const otherLimit = await callChecked(conn, 'slack_get_unread_messages', {
        channel_id: 'C0TEST',
        limit: 3,
        cursor: p1.nextCursor,
      });
      expect(otherLimit.isError).toBe(true);
      expect(otherLimit.text).toContain('the same channel_id and limit');
    } finally {
      await conn.close();
    }
  });

  it('reading unread messages is fenced by SLACK_CHANNEL_IDS before any request', async () => {
    const conn = await startServer(slack, ARGS, { env: { ...env.env, SLACK_CHANNEL_IDS: 'C0TEST' } });
    try {
      slack.api.clearRequests();
      const r = await callChecked(conn, 'slack_get_unread_messages', { channel_id: 'C111' });
      expect(r.isError).toBe(true);
      expect(slack.calls('conversations.info')).toHaveLength(0);
      expect(slack.calls('conversations.history')).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });
});
