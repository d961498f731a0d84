/**
 * Issue 31: people by name, display name or email (users.lookupByEmail where the scope allows, the
 * directory otherwise), DMs by @name in every channel argument (fenced on the DM's id), and a
 * pasted message link read with its thread (fenced on its channel).
 */
import { callChecked } from '@refmcp/test-harness';
import { BOT_SCOPES, BOT_USER, type FakeSlack, THREAD_TS } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { methodsCalled, startScene, startServer } from './support.js';

const EMAIL_TOKEN = 'xoxb-EMAILSCOPE1';
let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
  slack.state.addToken(EMAIL_TOKEN, BOT_USER, [...BOT_SCOPES, 'users:read.email']);
  slack.state.addUser('sam.one', { id: 'U0SAM1', realName: 'Sam Lee', displayName: 'sam' });
  slack.state.addUser('sam.two', { id: 'U0SAM2', realName: 'Sam Lee', displayName: 'samuel' });
});
beforeEach(() => slack.api.clearRequests());
afterAll(() => slack.close());

interface Users {
  users: { id: string; email?: string }[];
}

describe('people by name and email', () => {
  it('slack_find_users matches handles, display and real names, and emails from the directory', async () => {
    const conn = await startServer(slack);
    try {
      const byName = await callChecked(conn, 'slack_find_users', { query: 'builder' });
      expect((byName.structuredContent as Users).users.map((u) => u.id)).toEqual(['U0BOB']);
      expect(byName.text).toContain('bob (U0BOB) Bob Builder');
      // No users:read.email: Slack refuses the lookup and the directory answers.
      const byEmail = await callChecked(conn, 'slack_find_users', { query: 'carol@example.com' });
      expect((byEmail.structuredContent as Users).users[0]).toMatchObject({
        id: 'U0CAROL',
        email: 'carol@example.com',
      });
      const none = await callChecked(conn, 'slack_find_users', { query: 'nobody-here' });
      expect(none.text).toContain('No one matches "nobody-here"');
    } finally {
      await conn.close();
    }
  });

  it('slack_get_user_profile takes @handle, @display name and email, and says which id it resolved', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_BOT_TOKEN: EMAIL_TOKEN } });
    try {
      const handle = await callChecked(conn, 'slack_get_user_profile', { user_id: '@carol' });
      expect(handle.isError, handle.text).toBeFalsy();
      expect(handle.text).toContain('Profile of U0CAROL (@carol resolved to U0CAROL)');
      const display = await callChecked(conn, 'slack_get_user_profile', { user_id: '@Bob Builder' });
      expect(display.text).toContain('resolved to U0BOB');
      slack.api.clearRequests();
      const email = await callChecked(conn, 'slack_get_user_profile', { user_id: 'alice@example.com' });
      expect(email.text).toContain('resolved to U0ALICE');
      expect(methodsCalled(slack)).toContain('users.lookupByEmail');
      const two = await callChecked(conn, 'slack_get_user_profile', { user_id: '@Sam Lee' });
      expect(two.isError).toBe(true);
      expect(two.text).toMatch(/2 members are named @sam lee: @sam.one \(U0SAM1\), @sam.two \(U0SAM2\)/);
      const bad = await callChecked(conn, 'slack_get_user_profile', { user_id: 'not a user' });
      expect(bad.isError).toBe(true);
    } finally {
      await conn.close();
    }
  });
});

describe('DMs by @name', () => {
  it('history of @alice reads the DM with her and names it', async () => {
    const conn = await startServer(slack);
    try {
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: '@alice' });
      expect(r.isError, r.text).toBeFalsy();
      expect(r.text).toContain('DM with @alice (D0ALICE)');
      expect(r.text).toContain('hi bot');
      const email = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'alice@example.com' });
      expect(email.text).toContain('(D0ALICE)');
      const none = await callChecked(conn, 'slack_get_channel_history', { channel_id: '@bob' });
      expect(none.isError).toBe(true);
      expect(none.text).toContain('the token has no DM with @bob (U0BOB)');
    } finally {
      await conn.close();
    }
  });

  it('under SLACK_CHANNEL_IDS a DM outside the list is refused before its history is read', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_CHANNEL_IDS: 'C111' } });
    try {
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: '@alice' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/D0ALICE.*SLACK_CHANNEL_IDS/);
      expect(methodsCalled(slack)).not.toContain('conversations.history');
    } finally {
      await conn.close();
    }
  });
});

describe('message links', () => {
  const reply = () => slack.state.channel('C111').messages[0]?.replies[0]?.ts ?? '';

  it('a reply permalink reads the message and its whole thread', async () => {
    const conn = await startServer(slack);
    try {
      const ts = reply();
      const link = `https://fake-team.slack.com/archives/C111/p${ts.replace('.', '')}?thread_ts=${THREAD_TS}&cid=C111`;
      const r = await callChecked(conn, 'slack_get_message', { permalink: link });
      expect(r.isError, r.text).toBeFalsy();
      expect(r.text).toContain(`C111: message ${ts}, a reply in thread ${THREAD_TS}; 3 messages`);
      expect(r.text).toContain('Looks good to me');
      expect(r.text).toContain('Deploy plan for #ops');
      const top = await callChecked(conn, 'slack_get_message', {
        permalink: `https://fake-team.slack.com/archives/C111/p${THREAD_TS.replace('.', '')}`,
      });
      expect(top.text).toContain(`message ${THREAD_TS}; 3 messages`);
    } finally {
      await conn.close();
    }
  });

  it('a link into a channel outside SLACK_CHANNEL_IDS is refused before any read; a non-link is an error', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_CHANNEL_IDS: 'C222' } });
    try {
      const r = await callChecked(conn, 'slack_get_message', {
        permalink: `https://fake-team.slack.com/archives/C111/p${THREAD_TS.replace('.', '')}`,
      });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/C111.*SLACK_CHANNEL_IDS/);
      expect(methodsCalled(slack)).not.toContain('conversations.replies');
      // A link of another workspace (or a look-alike host) is refused, whatever its channel (hostile run).
      for (const host of ['other-team.slack.com', 'fake-team.slack.com.evil.com']) {
        const foreign = await callChecked(conn, 'slack_get_message', {
          permalink: `https://${host}/archives/C222/p${THREAD_TS.replace('.', '')}`,
        });
        expect(foreign.text).toContain(`the link is to ${host}, not to this server's workspace`);
      }
      const bad = await callChecked(conn, 'slack_get_message', { permalink: 'https://example.com/x' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain('not a Slack message link');
    } finally {
      await conn.close();
    }
  });
});
