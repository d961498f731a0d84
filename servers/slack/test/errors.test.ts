/**
 * SL-07 Slack's error codes explained (not_in_channel → invite the app, missing_scope → the scope);
 * SL-09 `ok:false` is an error, a warning is not, rate limits waited out within the budget and
 * otherwise refused saying when to retry (the 2025 history limit too); ALL-03 the tokens stay out of
 * results, errors and stderr; ALL-07 a hung Slack call is a timeout error while others answer.
 */
import { callChecked } from '@refmcp/test-harness';
import { type FakeSlack, THREAD_TS } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOT_TOKEN, startScene, startServer, USER_TOKEN } from './support.js';

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
});
beforeEach(() => slack.resetFaults());
afterAll(() => slack.close());

describe('SL-07 Slack error codes explained', () => {
  it('SL-07 not_in_channel says to invite the app; missing_scope names channels:history', async () => {
    const conn = await startServer(slack);
    try {
      const out = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C0OUT' });
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(/not_in_channel/);
      expect(out.text).toMatch(/not a member.*[Ii]nvite/);
      const scope = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C0SCOPE' });
      expect(scope.isError).toBe(true);
      expect(scope.text).toContain('channels:history');
      expect(scope.text).toMatch(/lacks the OAuth scope/);
    } finally {
      await conn.close();
    }
  });
});

describe('SL-09 ok:false is an error', () => {
  it('SL-09 channel_not_found, already_reacted, user_not_found and thread_not_found are isError with their meaning', async () => {
    const conn = await startServer(slack, ['--post-to', 'all']);
    try {
      slack.fail({ method: 'chat.postMessage', error: 'channel_not_found' });
      slack.fail({ method: 'reactions.add', error: 'already_reacted' });
      slack.fail({ method: 'conversations.replies', error: 'thread_not_found' });
      const cases = [
        ['slack_post_message', { channel_id: 'C111', text: 'hi' }, /channel_not_found: no such channel/],
        [
          'slack_add_reaction',
          { channel_id: 'C111', timestamp: THREAD_TS, reaction: 'eyes' },
          /already_reacted: that reaction is already/,
        ],
        ['slack_get_user_profile', { user_id: 'U404' }, /user_not_found: no user with that ID/],
        [
          'slack_get_thread_replies',
          { channel_id: 'C111', thread_ts: THREAD_TS },
          /thread_not_found: no thread starts/,
        ],
      ] as const;
      for (const [tool, args, meaning] of cases) {
        const r = await callChecked(conn, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toMatch(meaning);
        expect(r.text).not.toContain('"ok":false');
      }
    } finally {
      await conn.close();
    }
  });

  it("SL-09 Slack's own messages beside the code are passed on (response_metadata.messages)", async () => {
    const conn = await startServer(slack, ['--post-to', 'all']);
    try {
      slack.fail({
        method: 'chat.postMessage',
        error: 'invalid_blocks',
        extra: { response_metadata: { messages: ['[ERROR] unsupported type: text'] } },
      });
      const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C111', text: 'hi' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/invalid_blocks .*Slack says: \[ERROR\] unsupported type: text/);
    } finally {
      await conn.close();
    }
  });

  it('SL-09 {ok:true, warning} stays a success', async () => {
    const conn = await startServer(slack);
    try {
      slack.stage({
        method: 'users.profile.get',
        when: 'after',
        reply: (_req, reply) => ({
          ...(reply ?? { status: 200 }),
          body: { ...(reply?.body as object), warning: 'missing_charset' },
        }),
      });
      const r = await callChecked(conn, 'slack_get_user_profile', { user_id: 'U0ALICE' });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ profile: { user: 'U0ALICE', realName: 'Alice Example' } });
    } finally {
      await conn.close();
    }
  });

  it('SL-09 a 429 with Retry-After: 1 is retried once and succeeds', async () => {
    const conn = await startServer(slack);
    try {
      const before = slack.calls('conversations.history').length;
      slack.throttle({ method: 'conversations.history', retryAfter: 1 });
      const started = Date.now();
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      expect(r.isError).toBeFalsy();
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(slack.calls('conversations.history').length - before).toBe(2);
    } finally {
      await conn.close();
    }
  });

  it('SL-09 a 429 with Retry-After: 600 is isError at once, saying when to retry', async () => {
    const conn = await startServer(slack);
    try {
      const before = slack.calls('conversations.history').length;
      slack.throttle({ method: 'conversations.history', retryAfter: 600 });
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      expect(r.isError).toBe(true);
      // Answered from the one refusal: no retry after any wait, however short.
      expect(slack.calls('conversations.history').length - before).toBe(1);
      expect(r.text).toMatch(/rate limited/);
      expect(r.text).toMatch(/Retry after \d{4}-\d\d-\d\dT.*in 10 min/);
      expect(r.text).toMatch(/Marketplace/);
      expect(slack.calls('conversations.history').length - before).toBe(1);
    } finally {
      await conn.close();
    }
  });

  it('SL-09 the 2025 limit for apps not on the Marketplace: the second history call in a minute says when to retry', async () => {
    const conn = await startServer(slack, ['--rate-limit-wait', '2000']);
    try {
      slack.nonMarketplaceApp();
      const first = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111', limit: 100 });
      expect(first.isError).toBeFalsy();
      const second = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111', limit: 100 });
      expect(second.isError).toBe(true);
      expect(second.text).toMatch(/Retry after .*\(in \d+ s/);
      expect(second.text).toMatch(/once a minute, 15 messages/);
    } finally {
      await conn.close();
    }
  });

  it('SL-09 a write is not repeated after a 5xx, and says its outcome is unknown', async () => {
    const conn = await startServer(slack, ['--post-to', 'all']);
    try {
      const before = slack.calls('chat.postMessage').length;
      slack.api.inject({ status: 503, body: 'unavailable', match: { path: '/chat.postMessage' } });
      const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C111', text: 'once' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/503/);
      expect(r.text).toMatch(/unknown/);
      expect(slack.calls('chat.postMessage').length - before).toBe(1);
      // A read after a 503 is retried.
      slack.api.inject({ status: 503, body: 'unavailable', match: { path: '/users.profile.get' } });
      const read = await callChecked(conn, 'slack_get_user_profile', { user_id: 'U0ALICE' });
      expect(read.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });
});

describe('ALL-03 secrets', () => {
  it('ALL-03 neither token appears in results, errors or stderr, also on invalid_auth', async () => {
    const conn = await startServer(slack, [], {
      env: { SLACK_USER_TOKEN: USER_TOKEN, DEBUG: '*', SLACK_LOG_LEVEL: 'debug' },
    });
    try {
      const results = [
        await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' }),
        await callChecked(conn, 'slack_search_messages', { query: 'meeting' }),
        await callChecked(conn, 'slack_get_user_profile', { user_id: 'nope' }),
      ];
      slack.fail({ method: 'conversations.history', error: 'invalid_auth' });
      const failed = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      expect(failed.isError).toBe(true);
      expect(failed.text).toMatch(/invalid_auth: the token is invalid/);
      for (const text of [...results.map((r) => JSON.stringify(r)), JSON.stringify(failed), conn.stderr()]) {
        expect(text).not.toContain('TESTTOKEN123');
        expect(text).not.toContain(BOT_TOKEN);
      }
    } finally {
      await conn.close();
    }
  });
});

describe('ALL-07 timeouts', () => {
  it('ALL-07 a hung conversations.history is isError naming the timeout; another call answers meanwhile', async () => {
    const conn = await startServer(slack, ['--timeout', '1500']);
    try {
      slack.api.inject({ status: 200, hang: true, match: { path: '/conversations.history' } });
      let hungAnswered = false;
      const hung = callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' }).finally(() => {
        hungAnswered = true;
      });
      const other = await callChecked(conn, 'slack_get_user_profile', { user_id: 'U0ALICE' });
      expect(other.isError).toBeFalsy();
      // Answered while the hung call still waited (not after its timeout), however slow the machine.
      expect(hungAnswered).toBe(false);
      const r = await hung;
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/timed out after 1500 ms/);
    } finally {
      await conn.close();
    }
  });
});
