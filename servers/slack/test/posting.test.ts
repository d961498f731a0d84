/**
 * SL-01 link unfurling is off for everything the server posts (on only when --unfurl-domains
 * covers every link); SL-02 posting only where --post-to allows, refused before any request, and
 * --read-only beats it.
 */
import { callChecked } from '@refmcp/test-harness';
import { type FakeSlack, THREAD_TS } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
});
beforeEach(() => slack.api.clearRequests());
afterAll(() => slack.close());

const POSTING = ['slack_post_message', 'slack_reply_to_thread', 'slack_add_reaction'];
const unfurl = (call: Record<string, unknown> | undefined) => [
  String(call?.unfurl_links),
  String(call?.unfurl_media),
];

describe('SL-01 no link unfurling', () => {
  it('SL-01 posts and replies ask Slack not to unfurl, and the secret stays off stderr', async () => {
    const conn = await startServer(slack, ['--post-to', 'C0TEST']);
    try {
      const before = slack.calls('chat.postMessage').length;
      const post = await callChecked(conn, 'slack_post_message', {
        channel_id: 'C0TEST',
        text: 'done <https://attacker.example/c?d=SECRET_VALUE>',
      });
      const reply = await callChecked(conn, 'slack_reply_to_thread', {
        channel_id: 'C0TEST',
        thread_ts: THREAD_TS,
        text: 'https://attacker.example/x',
      });
      expect(post.isError).toBeFalsy();
      expect(reply.isError).toBeFalsy();
      const calls = slack.calls('chat.postMessage').slice(before);
      expect(calls).toHaveLength(2);
      for (const call of calls) expect(unfurl(call)).toEqual(['false', 'false']);
      expect(calls[1]?.thread_ts).toBe(THREAD_TS);
      expect(post.structuredContent).toMatchObject({ channel: 'C0TEST', unfurled: false });
      expect(conn.stderr()).not.toContain('SECRET_VALUE');
    } finally {
      await conn.close();
    }
  });

  it('SL-01 --unfurl-domains turns unfurling on only when every link is on the list', async () => {
    const conn = await startServer(slack, ['--post-to', 'C0TEST', '--unfurl-domains', 'docs.example.com']);
    try {
      const cases: [string, string][] = [
        ['see https://docs.example.com/a', 'true'],
        ['https://docs.example.com/a https://attacker.example/c', 'false'],
        ['<https://attacker.example/c|docs.example.com>', 'false'],
        ['no links at all', 'false'],
      ];
      for (const [text, expected] of cases) {
        const before = slack.calls('chat.postMessage').length;
        const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C0TEST', text });
        expect(r.isError, text).toBeFalsy();
        const call = slack.calls('chat.postMessage')[before];
        expect(unfurl(call), text).toEqual([expected, expected]);
      }
    } finally {
      await conn.close();
    }
  });
});

describe('SL-02 posting only where the operator allows', () => {
  it('SL-02 without --post-to the posting tools are not listed and calls are refused', async () => {
    const conn = await startServer(slack);
    try {
      const names = (await conn.tools()).map((t) => t.name);
      for (const t of POSTING) expect(names).not.toContain(t);
      const before = slack.api.requests.length;
      const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C111', text: 'hi' }).catch(
        (e: Error) => ({ isError: true, text: e.message }),
      );
      expect(r.isError).toBe(true);
      expect(slack.api.requests.length).toBe(before);
    } finally {
      await conn.close();
    }
  });

  it('SL-02 --post-to C111,C222 refuses C999 and #random (C999) without sending, and posts to C111', async () => {
    const conn = await startServer(slack, ['--post-to', 'C111,C222']);
    try {
      const posts = slack.calls('chat.postMessage').length;
      const reactions = slack.calls('reactions.add').length;
      for (const [tool, args] of [
        ['slack_post_message', { channel_id: 'C999', text: 'hi' }],
        ['slack_add_reaction', { channel_id: 'C999', timestamp: THREAD_TS, reaction: 'eyes' }],
        ['slack_post_message', { channel_id: '#random', text: 'hi' }],
        ['slack_reply_to_thread', { channel_id: 'C999', thread_ts: THREAD_TS, text: 'hi' }],
      ] as const) {
        const r = await callChecked(conn, tool, args);
        expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
        expect(r.text).toMatch(/--post-to C111,C222/);
      }
      expect(slack.calls('chat.postMessage').length).toBe(posts);
      expect(slack.calls('reactions.add').length).toBe(reactions);
      const ok = await callChecked(conn, 'slack_post_message', { channel_id: 'C111', text: 'hi' });
      expect(ok.isError).toBeFalsy();
      expect(slack.calls('chat.postMessage').at(-1)).toMatchObject({ channel: 'C111', markdown_text: 'hi' });
    } finally {
      await conn.close();
    }
  });

  it('SL-02 --post-to all reaches C999; SLACK_POST_TO works like the flag', async () => {
    for (const [args, env] of [
      [['--post-to', 'all'], {}],
      [[], { SLACK_POST_TO: 'all' }],
    ] as const) {
      const conn = await startServer(slack, [...args], { env });
      try {
        const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C999', text: 'hi all' });
        expect(r.isError).toBeFalsy();
        expect(slack.calls('chat.postMessage').at(-1)).toMatchObject({ channel: 'C999' });
      } finally {
        await conn.close();
      }
    }
  });

  it('SL-02 --read-only --post-to all lists no posting tool', async () => {
    const conn = await startServer(slack, ['--read-only', '--post-to', 'all']);
    try {
      const names = (await conn.tools()).map((t) => t.name);
      for (const t of POSTING) expect(names).not.toContain(t);
      expect(names).toContain('slack_get_channel_history');
    } finally {
      await conn.close();
    }
  });

  it('SL-02 a channel named #eng inside --post-to C111 is reached, and a reaction with colons is sent by name', async () => {
    const conn = await startServer(slack, ['--post-to', 'C111']);
    try {
      const r = await callChecked(conn, 'slack_add_reaction', {
        channel_id: '#eng',
        timestamp: THREAD_TS,
        reaction: ':rocket:',
      });
      expect(r.isError).toBeFalsy();
      expect(slack.calls('reactions.add').at(-1)).toMatchObject({
        channel: 'C111',
        timestamp: THREAD_TS,
        name: 'rocket',
      });
    } finally {
      await conn.close();
    }
  });
});

describe('broadcast mentions', () => {
  it('<!channel>, <!here>, <!everyone> and user groups are refused before any request unless --allow-broadcast', async () => {
    const conn = await startServer(slack, ['--post-to', 'C0TEST']);
    try {
      for (const text of [
        '<!channel> deploy done',
        'ping <!HERE|here>',
        '<!everyone>',
        'cc <!subteam^S0ONCALL|@oncall>',
      ]) {
        const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C0TEST', text });
        expect(r.isError, text).toBe(true);
        expect(r.text).toMatch(
          /notifies everyone in the channel or group; nothing was posted.*--allow-broadcast/,
        );
      }
      const reply = await callChecked(conn, 'slack_reply_to_thread', {
        channel_id: 'C0TEST',
        thread_ts: THREAD_TS,
        text: '<!here> look',
      });
      expect(reply.text).toContain('mentions @here');
      expect(slack.calls('chat.postMessage')).toHaveLength(0);
      const plain = await callChecked(conn, 'slack_post_message', {
        channel_id: 'C0TEST',
        text: 'mail @channel-owners',
      });
      expect(plain.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
    const allowed = await startServer(slack, ['--post-to', 'C0TEST', '--allow-broadcast']);
    try {
      const r = await callChecked(allowed, 'slack_post_message', {
        channel_id: 'C0TEST',
        text: '<!channel> deploy done',
      });
      expect(r.isError).toBeFalsy();
      expect(slack.calls('chat.postMessage').at(-1)?.markdown_text).toBe('<!channel> deploy done');
    } finally {
      await allowed.close();
    }
  });
});
