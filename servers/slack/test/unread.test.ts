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

  it('marking read outside --post-to is refused before any request', async () => {
    const conn = await startServer(slack, ARGS, env);
    try {
      const r = await callChecked(conn, 'slack_mark_read', { channel_id: 'C111', ts: '1700000000.000100' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('--post-to C0TEST');
      expect(slack.calls('conversations.mark')).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });
});
