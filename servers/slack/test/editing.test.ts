/**
 * Issue 31: editing and deleting the app's own messages (toolset `editing`, opt-in), removing its
 * reactions — fenced by --post-to and SLACK_CHANNEL_IDS before any request, absent under
 * --read-only or without the toolset, and edits under the broadcast and unfurl rules.
 */
import { callChecked } from '@refmcp/test-harness';
import { ALICE, BOB, BOT_USER, type FakeSlack, THREAD_TS } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScene, startServer, USER_TOKEN } from './support.js';

let slack: FakeSlack;
let own: string;
let other: string;
beforeAll(async () => {
  ({ slack } = await startScene());
  own = slack.state.addMessage('C0TEST', 'typo here', { user: BOT_USER }).ts;
  other = slack.state.addMessage('C0TEST', 'alice wrote this', { user: ALICE }).ts;
});
beforeEach(() => slack.api.clearRequests());
afterAll(() => slack.close());

const EDITING = ['slack_update_message', 'slack_delete_message'];
const EDIT_ARGS = ['--post-to', 'C0TEST', '--toolsets', 'channels,posting,editing'];

describe('opt-in', () => {
  it('editing tools are listed only with --post-to and the editing toolset, never under --read-only', async () => {
    for (const [args, listed] of [
      [['--post-to', 'C0TEST'], false],
      [['--toolsets', 'channels,posting,editing'], false],
      [[...EDIT_ARGS, '--read-only'], false],
      [EDIT_ARGS, true],
    ] as const) {
      const conn = await startServer(slack, [...args]);
      try {
        const names = (await conn.tools()).map((t) => t.name);
        for (const t of EDITING) expect(names.includes(t), `${args.join(' ')}: ${t}`).toBe(listed);
        const r = await callChecked(conn, 'slack_delete_message', { channel_id: 'C0TEST', ts: own }).catch(
          (e: Error) => ({ isError: true, text: e.message }),
        );
        expect(Boolean(r.isError)).toBe(!listed);
      } finally {
        await conn.close();
      }
      if (!listed) expect(slack.calls('chat.delete')).toHaveLength(0);
      own = slack.state.addMessage('C0TEST', 'typo here', { user: BOT_USER }).ts;
    }
  });
});

describe('edits and deletes', () => {
  it("edits its own message as Markdown; another author's is refused before chat.update; outside --post-to nothing is sent", async () => {
    const conn = await startServer(slack, EDIT_ARGS);
    try {
      const r = await callChecked(conn, 'slack_update_message', {
        channel_id: 'C0TEST',
        ts: own,
        text: '**fixed** text',
      });
      expect(r.isError, r.text).toBeFalsy();
      expect(slack.calls('chat.update').at(-1)).toMatchObject({
        channel: 'C0TEST',
        ts: own,
        markdown_text: '**fixed** text',
      });
      expect(slack.state.findMessage(slack.state.channel('C0TEST'), own)?.text).toBe('**fixed** text');
      const theirs = await callChecked(conn, 'slack_update_message', {
        channel_id: 'C0TEST',
        ts: other,
        text: 'x',
      });
      expect(theirs.isError).toBe(true);
      expect(theirs.text).toContain(`not posted by this app (its author is ${ALICE})`);
      expect(slack.calls('chat.update')).toHaveLength(1);
      const before = slack.api.requests.length;
      const fenced = await callChecked(conn, 'slack_update_message', {
        channel_id: 'C111',
        ts: THREAD_TS,
        text: 'x',
      });
      expect(fenced.isError).toBe(true);
      expect(fenced.text).toMatch(/--post-to C0TEST/);
      expect(slack.api.requests.length).toBe(before);
    } finally {
      await conn.close();
    }
  });

  it('an edit with a broadcast or a link off --unfurl-domains is refused before any request', async () => {
    const conn = await startServer(slack, [...EDIT_ARGS, '--unfurl-domains', 'docs.example.com']);
    try {
      for (const text of ['@here fixed', 'see [x](https://attacker.example/?d=1)']) {
        const r = await callChecked(conn, 'slack_update_message', { channel_id: 'C0TEST', ts: own, text });
        expect(r.isError, text).toBe(true);
        expect(r.text).toContain('nothing was changed');
      }
      expect(slack.calls('chat.update')).toHaveLength(0);
      const ok = await callChecked(conn, 'slack_update_message', {
        channel_id: 'C0TEST',
        ts: own,
        text: 'see [docs](https://docs.example.com/a)',
      });
      expect(ok.isError, ok.text).toBeFalsy();
    } finally {
      await conn.close();
    }
  });

  it('deletes its own message; another author is refused', async () => {
    const conn = await startServer(slack, EDIT_ARGS);
    try {
      const theirs = await callChecked(conn, 'slack_delete_message', { channel_id: 'C0TEST', ts: other });
      expect(theirs.isError).toBe(true);
      expect(theirs.text).toContain('not posted by this app');
      expect(slack.calls('chat.delete')).toHaveLength(0);
      const r = await callChecked(conn, 'slack_delete_message', { channel_id: '#test', ts: own });
      expect(r.isError, r.text).toBeFalsy();
      expect(slack.state.findMessage(slack.state.channel('C0TEST'), own)).toBeUndefined();
    } finally {
      await conn.close();
    }
  });
});

describe('authorship is checked before any change', () => {
  it("a workspace admin's user token, which Slack lets delete anyone's message, is refused another author's", async () => {
    const bobs = slack.state.addMessage('C0TEST', 'bob wrote this', { user: BOB }).ts;
    // Slack (and the fake) would delete it for this token: the refusal is the server's own.
    const spare = slack.state.addMessage('C0TEST', 'bob again', { user: BOB }).ts;
    const direct = await fetch(new URL('chat.delete', slack.apiUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${USER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'C0TEST', ts: spare }),
    });
    expect(await direct.json()).toMatchObject({ ok: true });
    slack.api.clearRequests();
    const conn = await startServer(slack, EDIT_ARGS, {
      env: { SLACK_BOT_TOKEN: '', SLACK_USER_TOKEN: USER_TOKEN },
    });
    try {
      for (const tool of ['slack_delete_message', 'slack_update_message']) {
        const args = tool === 'slack_delete_message' ? {} : { text: 'x' };
        const r = await callChecked(conn, tool, { channel_id: 'C0TEST', ts: bobs, ...args });
        expect(r.isError, tool).toBe(true);
        expect(r.text).toContain(`not posted by this app (its author is ${BOB})`);
      }
      expect(slack.calls('chat.delete')).toHaveLength(0);
      expect(slack.calls('chat.update')).toHaveLength(0);
      expect(slack.state.findMessage(slack.state.channel('C0TEST'), bobs)?.text).toBe('bob wrote this');
      // Alice's own message, through the same token, is deleted.
      const hers = slack.state.addMessage('C0TEST', 'mine', { user: ALICE }).ts;
      const ok = await callChecked(conn, 'slack_delete_message', { channel_id: 'C0TEST', ts: hers });
      expect(ok.isError, ok.text).toBeFalsy();
      expect(slack.state.findMessage(slack.state.channel('C0TEST'), hers)).toBeUndefined();
    } finally {
      await conn.close();
    }
  });

  it('a reply is found in its thread (thread_ts); without it, the answer says to pass it', async () => {
    const reply = slack.state.addReply('C0TEST', THREAD_TS, 'bot reply', { user: BOT_USER }).ts;
    const conn = await startServer(slack, EDIT_ARGS);
    try {
      const lost = await callChecked(conn, 'slack_update_message', {
        channel_id: 'C0TEST',
        ts: reply,
        text: 'y',
      });
      expect(lost.isError).toBe(true);
      expect(lost.text).toContain('needs thread_ts');
      const r = await callChecked(conn, 'slack_update_message', {
        channel_id: 'C0TEST',
        ts: reply,
        thread_ts: THREAD_TS,
        text: 'edited reply',
      });
      expect(r.isError, r.text).toBeFalsy();
      expect(slack.state.findMessage(slack.state.channel('C0TEST'), reply)?.text).toBe('edited reply');
      const parent = await callChecked(conn, 'slack_delete_message', { channel_id: 'C0TEST', ts: THREAD_TS });
      expect(parent.text).toContain(`its author is ${ALICE}`);
      expect(slack.calls('chat.delete')).toHaveLength(0);
    } finally {
      await conn.close();
    }
  });
});

describe('reactions', () => {
  it('removes its own reaction; one it did not add is explained', async () => {
    const conn = await startServer(slack, ['--post-to', 'C0TEST']);
    try {
      await callChecked(conn, 'slack_add_reaction', {
        channel_id: 'C0TEST',
        timestamp: other,
        reaction: 'eyes',
      });
      const r = await callChecked(conn, 'slack_remove_reaction', {
        channel_id: 'C0TEST',
        timestamp: other,
        reaction: ':eyes:',
      });
      expect(r.isError, r.text).toBeFalsy();
      expect(slack.state.findMessage(slack.state.channel('C0TEST'), other)?.reactions.has('eyes')).toBe(
        false,
      );
      const again = await callChecked(conn, 'slack_remove_reaction', {
        channel_id: 'C0TEST',
        timestamp: other,
        reaction: 'eyes',
      });
      expect(again.isError).toBe(true);
      expect(again.text).toContain('no_reaction');
    } finally {
      await conn.close();
    }
  });
});
