/**
 * SL-04 limit defaults and ranges; SL-05 every list has a cursor that walks everything once;
 * SL-08 channel discovery in a big workspace (bounded pages, private channels included); ALL-05
 * the pagination contract.
 */
import { type BuiltServer, callChecked } from '@refmcp/test-harness';
import {
  addChannels,
  addMessages,
  addReplies,
  addUsers,
  type FakeSlack,
  seedScene,
  startFakeSlack,
  THREAD_TS,
} from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, USER_TOKEN } from './support.js';

/** Calls `tool` with `args`, then again with each nextCursor; returns every page's structuredContent. */
async function walk(conn: BuiltServer, tool: string, args: Record<string, unknown>, max = 40) {
  const pages: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const r = await callChecked(conn, tool, { ...args, ...(cursor ? { cursor } : {}) });
    expect(r.isError, `${tool} page ${pages.length + 1}: ${r.text.slice(0, 300)}`).toBeFalsy();
    const s = r.structuredContent as Record<string, unknown>;
    pages.push(s);
    cursor = s.nextCursor as string | undefined;
    expect(s.hasMore).toBe(cursor !== undefined);
  } while (cursor && pages.length < max);
  expect(cursor, `${tool}: still more after ${max} pages`).toBeUndefined();
  return pages;
}

const items = (pages: Record<string, unknown>[], field: string, key: string) =>
  pages.flatMap((p) => (p[field] as Record<string, unknown>[]).map((i) => String(i[key])));

describe('SL-04 limit defaults and ranges', () => {
  let slack: FakeSlack;
  let conn: BuiltServer;
  beforeAll(async () => {
    slack = await startFakeSlack();
    seedScene(slack);
    addMessages(slack.state, 'C111', 46);
    addChannels(slack.state, 300, ['U0BOT']);
    addUsers(slack.state, 300);
    conn = await startServer(slack);
  });
  afterAll(async () => {
    await conn?.close();
    await slack?.close();
  });

  it('SL-04 history returns the documented default of 10 messages, with a cursor', async () => {
    const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { messages: unknown[]; hasMore: boolean };
    expect(s.messages).toHaveLength(10);
    expect(s.hasMore).toBe(true);
    expect(slack.calls('conversations.history').at(-1)?.limit).toBe('10');
  });

  it('SL-04 out-of-range limits are isError naming the range, and nothing out of range is sent', async () => {
    const before = slack.api.requests.length;
    for (const [tool, args, range] of [
      ['slack_get_channel_history', { channel_id: 'C111', limit: 1000 }, '200'],
      ['slack_get_channel_history', { channel_id: 'C111', limit: 0 }, '1'],
      ['slack_get_channel_history', { channel_id: 'C111', limit: -5 }, '1'],
      ['slack_list_channels', { limit: 1000 }, '200'],
      ['slack_get_users', { limit: 500 }, '200'],
    ] as const) {
      const r = await callChecked(conn, tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text).toContain('limit');
      expect(r.text).toContain(range);
    }
    expect(slack.api.requests.length).toBe(before);
    const list = await callChecked(conn, 'slack_list_channels', { limit: 200 });
    expect((list.structuredContent as { channels: unknown[] }).channels).toHaveLength(200);
    const users = await callChecked(conn, 'slack_get_users', {});
    expect((users.structuredContent as { users: unknown[] }).users).toHaveLength(100);
    for (const method of ['conversations.history', 'conversations.list', 'users.list'])
      for (const call of slack.calls(method)) {
        const limit = Number(call.limit);
        expect(limit).toBeGreaterThanOrEqual(1);
        expect(limit).toBeLessThanOrEqual(1000);
      }
  });
});

describe('SL-05 every list has a cursor', () => {
  let slack: FakeSlack;
  let conn: BuiltServer;
  let messages: string[];
  let replies: string[];
  beforeAll(async () => {
    slack = await startFakeSlack();
    seedScene(slack);
    const s = slack.state;
    s.addChannel('bulk', { id: 'C0BULK', members: ['U0BOT', 'U0ALICE'] });
    messages = addMessages(s, 'C0BULK', 500);
    s.addMessage('C0BULK', 'bulk thread', { ts: '1700000000.000100', user: 'U0ALICE' });
    replies = addReplies(s, 'C0BULK', '1700000000.000100', 250);
    addChannels(s, 440, ['U0BOT']);
    addUsers(s, 445);
    conn = await startServer(slack, [], { env: { SLACK_USER_TOKEN: USER_TOKEN } });
  });
  afterAll(async () => {
    await conn?.close();
    await slack?.close();
  });

  it('SL-05 history: five pages of 100 give all 500 once, the cursor sending Slack next_cursor', async () => {
    const pages = await walk(conn, 'slack_get_channel_history', { channel_id: 'C0BULK', limit: 100 });
    const ts = items(pages, 'messages', 'ts');
    expect(pages).toHaveLength(6); // 501 messages: the 500 and the thread parent
    expect(new Set(ts).size).toBe(ts.length);
    for (const t of messages) expect(ts).toContain(t);
    const calls = slack.calls('conversations.history');
    const sent = calls.slice(-pages.length).map((c) => c.cursor);
    expect(sent[0]).toBeUndefined();
    for (const c of sent.slice(1)) expect(typeof c).toBe('string');
  });

  it('SL-05 thread replies: the parent once and all 250 replies once, whichever page Slack repeats the parent on', async () => {
    for (const mode of ['every-page', 'first-page'] as const) {
      slack.repliesParent = mode;
      const pages = await walk(conn, 'slack_get_thread_replies', {
        channel_id: 'C0BULK',
        thread_ts: THREAD_TS,
      });
      expect(pages.length).toBeGreaterThan(1);
      const ts = items(pages, 'messages', 'ts');
      expect(ts.filter((t) => t === THREAD_TS)).toHaveLength(1);
      expect(new Set(ts).size).toBe(ts.length);
      expect(ts.filter((t) => t !== THREAD_TS).sort()).toEqual([...replies].sort());
    }
    slack.repliesParent = 'every-page';
  });

  it('SL-05 channels and users: every one once', async () => {
    const channels = items(await walk(conn, 'slack_list_channels', { limit: 200 }), 'channels', 'id');
    expect(new Set(channels).size).toBe(channels.length);
    const visible = [...slack.state.channels.values()].filter(
      (c) => (c.kind === 'public' || c.members.has('U0BOT')) && c.kind !== 'im' && !c.archived,
    );
    expect(channels.sort()).toEqual(visible.map((c) => c.id).sort());
    const users = items(await walk(conn, 'slack_get_users', { limit: 200 }), 'users', 'id');
    expect(new Set(users).size).toBe(users.length);
    expect(users.length).toBe(slack.state.users.size);
    expect(users.length).toBeGreaterThanOrEqual(450);
  });

  it('SL-05 search: pages follow until the last, no duplicates', async () => {
    const pages = await walk(conn, 'slack_search_messages', {
      query: 'message',
      channel: 'C0BULK',
      limit: 100,
    });
    const ts = items(pages, 'matches', 'ts');
    expect(pages).toHaveLength(5);
    expect(new Set(ts).size).toBe(500);
    expect(slack.calls('search.messages').at(-1)?.page).toBe('5');
  });

  it('ALL-05 a cursor from one query is refused for another', async () => {
    const first = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C0BULK', limit: 5 });
    const cursor = (first.structuredContent as { nextCursor: string }).nextCursor;
    const other = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111', cursor });
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/cursor/);
  });
});

describe('SL-08 channel discovery', () => {
  let slack: FakeSlack;
  let conn: BuiltServer;
  beforeAll(async () => {
    slack = await startFakeSlack();
    seedScene(slack);
    addChannels(slack.state, 3000);
    conn = await startServer(slack);
  });
  afterAll(async () => {
    await conn?.close();
    await slack?.close();
  });

  it('SL-08 one bounded page with a cursor, private channels asked for and found while paging', async () => {
    const first = await callChecked(conn, 'slack_list_channels', {});
    const s = first.structuredContent as { channels: unknown[]; nextCursor?: string };
    expect(s.channels).toHaveLength(100);
    expect(s.nextCursor).toBeTruthy();
    expect(String(slack.calls('conversations.list').at(-1)?.types)).toContain('private_channel');
    const ids = items(await walk(conn, 'slack_list_channels', { limit: 200 }, 20), 'channels', 'id');
    expect(ids).toContain('G0PRIV1');
    expect(ids).toContain('C0PRIV2');
    expect(ids).not.toContain('C0SECRET');
  });
});
