/**
 * Issue 16, DMs and group DMs: slack_list_channels' `types` (Slack's public_channel,
 * private_channel, mpim, im; the default unchanged), DMs named by the other person, missing_scope
 * naming the scope the type needs, history and replies on D… and G… ids, and SLACK_CHANNEL_IDS /
 * --post-to fencing DMs before any request, exactly as channels.
 */
import { callChecked } from '@refmcp/test-harness';
import { addGroupDm, type FakeSlack, NO_DM_BOT_TOKEN, slackArgs } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyRequestNames, methodsCalled, startScene, startServer } from './support.js';

type Listed = { channels: { id: string; name?: string; user?: string; kind: string }[] };

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
  addGroupDm(slack.state);
});
afterAll(() => slack.close());

/** The `types` conversations.list was last asked for. */
function typesAsked(s: FakeSlack): unknown {
  const last = s.api.requests.filter((r) => r.path.endsWith('conversations.list')).at(-1);
  return last ? slackArgs(last).types : undefined;
}

describe('slack_list_channels types', () => {
  it('lists public and private channels only by default (no DM scope asked)', async () => {
    const conn = await startServer(slack);
    try {
      slack.api.clearRequests();
      const r = await callChecked(conn, 'slack_list_channels', {});
      expect(r.isError).toBeFalsy();
      expect(typesAsked(slack)).toBe('public_channel,private_channel');
      const kinds = new Set((r.structuredContent as Listed).channels.map((c) => c.kind));
      expect([...kinds].sort()).toEqual(['private', 'public']);
    } finally {
      await conn.close();
    }
  });

  it('lists DMs by the other person’s name and group DMs, with types im and mpim', async () => {
    const conn = await startServer(slack);
    try {
      slack.api.clearRequests();
      const r = await callChecked(conn, 'slack_list_channels', { types: ['im', 'mpim'] });
      expect(r.isError, r.text).toBeFalsy();
      expect(typesAsked(slack)).toBe('im,mpim');
      const { channels } = r.structuredContent as Listed;
      expect(channels).toEqual([
        { id: 'D0ALICE', name: '@alice', user: 'U0ALICE', kind: 'im' },
        expect.objectContaining({ id: 'G0GROUP', name: 'mpdm-alice--bob--refmcp-1', kind: 'mpim' }),
      ]);
      expect(r.text).toContain('- @alice (D0ALICE) im');
      expect(r.text).toContain('(G0GROUP) mpim, 3 members');
      expect(methodsCalled(slack)).toContain('users.info');
    } finally {
      await conn.close();
    }
  });

  it('a cursor is bound to its types', async () => {
    const conn = await startServer(slack);
    try {
      const first = await callChecked(conn, 'slack_list_channels', { types: ['public_channel'], limit: 2 });
      const { nextCursor } = first.structuredContent as { nextCursor?: string };
      expect(nextCursor).toBeDefined();
      const wrong = await callChecked(conn, 'slack_list_channels', { limit: 2, cursor: nextCursor });
      expect(wrong.isError).toBe(true);
      const right = await callChecked(conn, 'slack_list_channels', {
        types: ['public_channel'],
        limit: 2,
        cursor: nextCursor,
      });
      expect(right.isError, right.text).toBeFalsy();
    } finally {
      await conn.close();
    }
  });

  it('refuses a type Slack does not have before any request', async () => {
    const conn = await startServer(slack);
    try {
      slack.api.clearRequests();
      const r = await callChecked(conn, 'slack_list_channels', { types: ['dm'] });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/types/);
      expect(methodsCalled(slack)).not.toContain('conversations.list');
    } finally {
      await conn.close();
    }
  });

  it('missing_scope names im:read (types im) and mpim:read (types mpim) for a token without them', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_BOT_TOKEN: NO_DM_BOT_TOKEN } });
    try {
      const ok = await callChecked(conn, 'slack_list_channels', {});
      expect(ok.isError, ok.text).toBeFalsy();
      const im = await callChecked(conn, 'slack_list_channels', { types: ['im'] });
      expect(im.isError).toBe(true);
      expect(im.text).toContain('missing_scope: the token lacks the OAuth scope "im:read"');
      const mpim = await callChecked(conn, 'slack_list_channels', { types: ['mpim', 'public_channel'] });
      expect(mpim.isError).toBe(true);
      expect(mpim.text).toContain('"mpim:read"');
      const history = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'D0ALICE' });
      expect(history.isError).toBe(true);
      expect(history.text).toContain('"im:history"');
    } finally {
      await conn.close();
    }
  });

  it('under SLACK_CHANNEL_IDS, types filters the listed conversations', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_CHANNEL_IDS: 'C111,D0ALICE,G0GROUP' } });
    try {
      const all = await callChecked(conn, 'slack_list_channels', {});
      expect((all.structuredContent as Listed).channels.map((c) => c.id)).toEqual([
        'C111',
        'D0ALICE',
        'G0GROUP',
      ]);
      const dms = await callChecked(conn, 'slack_list_channels', { types: ['im'] });
      // conversations.info's DM has no `user` in @slack/web-api's recorded type, so the fake sends none.
      expect((dms.structuredContent as Listed).channels).toEqual([{ id: 'D0ALICE', kind: 'im' }]);
    } finally {
      await conn.close();
    }
  });
});

describe('history and replies on DMs and group DMs', () => {
  it('reads a DM (D…) and a group DM (G…), and a DM thread', async () => {
    const conn = await startServer(slack);
    try {
      const dm = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'D0ALICE' });
      expect(dm.isError, dm.text).toBeFalsy();
      expect(dm.text).toContain('hi bot');
      const group = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'G0GROUP' });
      expect(group.isError, group.text).toBeFalsy();
      expect(group.text).toContain('group hello');
      const ts = slack.state.channel('D0ALICE').messages[0]?.ts ?? '';
      const thread = await callChecked(conn, 'slack_get_thread_replies', {
        channel_id: 'D0ALICE',
        thread_ts: ts,
      });
      expect(thread.isError, thread.text).toBeFalsy();
      expect(thread.text).toContain('in a DM thread');
    } finally {
      await conn.close();
    }
  });
});

describe('SLACK_CHANNEL_IDS and --post-to fence DMs as channels', () => {
  it('a DM or group DM not on SLACK_CHANNEL_IDS is refused with no request naming it', async () => {
    const conn = await startServer(slack, ['--post-to', 'all'], { env: { SLACK_CHANNEL_IDS: 'C111' } });
    try {
      slack.api.clearRequests();
      const ts = slack.state.channel('D0ALICE').messages[0]?.ts ?? '';
      for (const [tool, args] of [
        ['slack_get_channel_history', { channel_id: 'D0ALICE' }],
        ['slack_get_thread_replies', { channel_id: 'D0ALICE', thread_ts: ts }],
        ['slack_get_channel_history', { channel_id: 'G0GROUP' }],
        ['slack_post_message', { channel_id: 'D0ALICE', text: 'hi' }],
      ] as const) {
        const r = await callChecked(conn, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(r.text).toContain('SLACK_CHANNEL_IDS C111');
      }
      expect(anyRequestNames(slack, 'D0ALICE')).toBe(false);
      expect(anyRequestNames(slack, 'G0GROUP')).toBe(false);
    } finally {
      await conn.close();
    }
  });

  it('a DM not on --post-to is refused before any request; one on it is posted to', async () => {
    const conn = await startServer(slack, ['--post-to', 'C111,G0GROUP']);
    try {
      slack.api.clearRequests();
      const refused = await callChecked(conn, 'slack_post_message', { channel_id: 'D0ALICE', text: 'hi' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('--post-to C111,G0GROUP');
      expect(anyRequestNames(slack, 'D0ALICE')).toBe(false);
      const posted = await callChecked(conn, 'slack_post_message', {
        channel_id: 'G0GROUP',
        text: 'hello group',
      });
      expect(posted.isError, posted.text).toBeFalsy();
      expect(slack.state.channel('G0GROUP').messages.at(-1)?.text).toBe('hello group');
    } finally {
      await conn.close();
    }
  });
});
