/**
 * SL-03 SLACK_CHANNEL_IDS fences every tool, reading and writing, before any request; SL-06 one
 * channel, three spellings (`#general`, `general`, `C0GENERAL`), an unknown name an error before
 * any search, and search listed only with a user token.
 */
import { callChecked } from '@refmcp/test-harness';
import type { FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyRequestNames, startScene, startServer, USER_TOKEN } from './support.js';

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
});
afterAll(() => slack.close());

const THREAD = '1700000000.000100';

describe('SL-03 SLACK_CHANNEL_IDS fences every tool', () => {
  const env = { SLACK_CHANNEL_IDS: 'C111,C222', SLACK_USER_TOKEN: USER_TOKEN };

  it('SL-03 history, replies and posts naming C999 are refused with no request naming C999', async () => {
    const conn = await startServer(slack, ['--post-to', 'all'], { env });
    try {
      slack.api.clearRequests();
      for (const [tool, args] of [
        ['slack_get_channel_history', { channel_id: 'C999' }],
        ['slack_get_thread_replies', { channel_id: 'C999', thread_ts: THREAD }],
        ['slack_post_message', { channel_id: 'C999', text: 'hi' }],
        ['slack_add_reaction', { channel_id: 'C999', timestamp: THREAD, reaction: 'eyes' }],
        ['slack_search_messages', { query: 'meeting', channel: 'C999' }],
      ] as const) {
        const r = await callChecked(conn, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toContain('SLACK_CHANNEL_IDS C111,C222');
      }
      expect(anyRequestNames(slack, 'C999')).toBe(false);
      const ok = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      expect(ok.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });

  it('SL-03 #random (C999) by name is refused too; slack_list_channels shows only C111 and C222', async () => {
    const conn = await startServer(slack, [], { env });
    try {
      slack.api.clearRequests();
      const byName = await callChecked(conn, 'slack_get_channel_history', { channel_id: '#random' });
      expect(byName.isError).toBe(true);
      expect(anyRequestNames(slack, 'C999')).toBe(false);
      const list = await callChecked(conn, 'slack_list_channels', {});
      const ids = (list.structuredContent as { channels: { id: string }[] }).channels.map((c) => c.id);
      expect(ids.sort()).toEqual(['C111', 'C222']);
      const eng = await callChecked(conn, 'slack_get_channel_history', { channel_id: '#eng' });
      expect(eng.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });

  it('SL-03 slack_search_messages drops a C999 match the fake returns', async () => {
    const conn = await startServer(slack, [], { env });
    try {
      const r = await callChecked(conn, 'slack_search_messages', { query: 'meeting' });
      expect(r.isError).toBeFalsy();
      // The fake finds "meeting" in C0GENERAL and C999; both are outside the fence.
      const answer = slack.api.requests.at(-1)?.reply?.body as
        | { messages?: { matches?: unknown[] } }
        | undefined;
      const found = answer?.messages?.matches ?? [];
      expect(found.length).toBeGreaterThan(0);
      const matches = (r.structuredContent as { matches: { channel: string }[] }).matches;
      expect(matches.filter((m) => !['C111', 'C222'].includes(m.channel))).toEqual([]);
      expect(r.text).not.toContain('meeting moved (random)');
      expect(r.text).toMatch(/only matches in SLACK_CHANNEL_IDS are shown/);
    } finally {
      await conn.close();
    }
  });

  it('SL-03 search under the fence tells nothing about fenced channels: no totals, and in: naming one is refused unsent', async () => {
    const conn = await startServer(slack, [], { env });
    try {
      // "meeting" matches only outside the fence: Slack's total (2) must not reach the model.
      const r = await callChecked(conn, 'slack_search_messages', { query: 'meeting' });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).not.toHaveProperty('total');
      expect(r.text).not.toMatch(/in all|dropped|of \d+/);
      const searches = slack.calls('search.messages').length;
      for (const query of [
        'meeting in:#random',
        'meeting IN:random',
        'x,in:<#C999|random>',
        'x in:C999',
        'x in:@bob',
      ]) {
        const refused = await callChecked(conn, 'slack_search_messages', { query });
        expect(refused.isError, query).toBe(true);
        expect(refused.text, query).toMatch(/SLACK_CHANNEL_IDS/);
      }
      expect(slack.calls('search.messages').length).toBe(searches);
      const inside = await callChecked(conn, 'slack_search_messages', { query: 'x in:C111' });
      expect(inside.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });
});

describe('SL-06 one channel, three spellings', () => {
  it('SL-06 #general, general and C0GENERAL send the same search query; #nope is an error with no search', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_USER_TOKEN: USER_TOKEN } });
    try {
      const queries: string[] = [];
      for (const channel of ['#general', 'general', 'C0GENERAL']) {
        const r = await callChecked(conn, 'slack_search_messages', { query: 'meeting', channel });
        expect(r.isError, channel).toBeFalsy();
        queries.push(String(slack.calls('search.messages').at(-1)?.query));
        const channels = (r.structuredContent as { matches: { channel: string }[] }).matches.map(
          (m) => m.channel,
        );
        expect(channels.length).toBeGreaterThan(0);
        expect(new Set(channels)).toEqual(new Set(['C0GENERAL']));
      }
      expect(new Set(queries).size).toBe(1);
      expect(queries[0]).not.toContain('##');
      expect(queries[0]?.match(/in:/g)).toHaveLength(1);
      const searches = slack.calls('search.messages').length;
      const nope = await callChecked(conn, 'slack_search_messages', { query: 'meeting', channel: '#nope' });
      expect(nope.isError).toBe(true);
      expect(nope.text).toMatch(/channel not found/);
      expect(slack.calls('search.messages').length).toBe(searches);
    } finally {
      await conn.close();
    }
  });

  it('SL-06 history of #general asks for channel=C0GENERAL; without SLACK_USER_TOKEN no search tool', async () => {
    const conn = await startServer(slack);
    try {
      expect((await conn.tools()).map((t) => t.name)).not.toContain('slack_search_messages');
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: '#general' });
      expect(r.isError).toBeFalsy();
      expect(slack.calls('conversations.history').at(-1)?.channel).toBe('C0GENERAL');
      const unknown = await callChecked(conn, 'slack_get_channel_history', { channel_id: '#nope' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/channel not found/);
    } finally {
      await conn.close();
    }
  });
});
