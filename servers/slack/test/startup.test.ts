/**
 * SL-10 big workspaces do not delay startup: with 50,000 users and every users.list and
 * conversations.list page never answered, initialize, tools/list and a history read all answer
 * (unknown mentions looked up alone with users.info): nothing on those paths waits for the full
 * lists. Also the guard of every Slack test: no connection the server opens leaves loopback.
 */
import { blockedHosts, callChecked, loopbackGuardEnv } from '@refmcp/test-harness';
import { addUsers, type FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer, USER_TOKEN } from './support.js';

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
});
afterAll(() => slack.close());

describe('SL-10 big workspaces do not delay startup', () => {
  it('SL-10 initialize, tools/list and a history read answer while users.list and conversations.list never do', async () => {
    addUsers(slack.state, 50_000);
    // Never answered (not merely slow): a startup or a read that waited for either would not answer
    // at all, on any machine; timing the answers instead failed on a loaded one.
    for (const method of ['users.list', 'conversations.list'])
      slack.api.inject({
        status: 200,
        hang: true,
        times: Number.POSITIVE_INFINITY,
        match: { path: `/${method}` },
      });
    try {
      const conn = await startServer(slack);
      try {
        expect((await conn.tools()).length).toBeGreaterThan(0);
        const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
        expect(r.isError).toBeFalsy();
        expect(r.text).toContain('@bob');
        expect(slack.calls('users.list')).toHaveLength(0);
        expect(slack.calls('users.info').length).toBeGreaterThan(0);
      } finally {
        await conn.close();
      }
    } finally {
      slack.resetFaults();
    }
  });
});

describe('no token', () => {
  it('starts without a token (a warning on stderr) and every call explains not_authed', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_BOT_TOKEN: '' } });
    try {
      expect(conn.stderr()).toMatch(/no SLACK_BOT_TOKEN/);
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/not_authed: no token was sent: set SLACK_BOT_TOKEN/);
    } finally {
      await conn.close();
    }
  });
});

describe('settings that contradict each other', () => {
  it('--post-to naming a channel outside SLACK_CHANNEL_IDS is said once on stderr at startup', async () => {
    const conn = await startServer(slack, ['--post-to', 'C0TEST,C111'], {
      env: { SLACK_CHANNEL_IDS: 'C111' },
    });
    try {
      expect(conn.stderr()).toContain(
        'warn: --post-to names C0TEST, outside SLACK_CHANNEL_IDS: posts there will be refused',
      );
      const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C0TEST', text: 'hi' });
      expect(r.isError).toBe(true);
    } finally {
      await conn.close();
    }
  });

  it('--toolsets search without SLACK_USER_TOKEN serves no tool, and says so', async () => {
    const conn = await startServer(slack, ['--toolsets', 'search']);
    try {
      expect(await conn.tools()).toEqual([]);
      expect(conn.stderr()).toContain('warn: the selected toolsets and tools serve no tool here');
    } finally {
      await conn.close();
    }
  });
});

describe('loopback guard', () => {
  it('every connection the server opens goes to the fake on 127.0.0.1', async () => {
    const conn = await startServer(slack, ['--post-to', 'C0TEST'], {
      env: { ...loopbackGuardEnv(), SLACK_USER_TOKEN: USER_TOKEN },
    });
    try {
      for (const [tool, args] of [
        ['slack_list_channels', {}],
        ['slack_get_channel_history', { channel_id: '#eng' }],
        ['slack_get_users', {}],
        ['slack_search_messages', { query: 'meeting' }],
        ['slack_post_message', { channel_id: 'C0TEST', text: 'see https://example.com' }],
      ] as const)
        expect((await callChecked(conn, tool, args)).isError, tool).toBeFalsy();
      expect(blockedHosts(conn.stderr())).toEqual([]);
    } finally {
      await conn.close();
    }
  });

  it('the guard is in force: a server pointed at slack.com is stopped at the socket', async () => {
    const conn = await startServer(slack, [], {
      env: { ...loopbackGuardEnv(), SLACK_API_URL: 'https://slack.com/api/' },
    });
    try {
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      expect(r.isError).toBe(true);
      expect(blockedHosts(conn.stderr())).toContain('slack.com');
    } finally {
      await conn.close();
    }
  });
});
