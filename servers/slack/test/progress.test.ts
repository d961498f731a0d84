/**
 * Issue 32, progress: slack_list_unread (two paced Slack calls per conversation, conversations.history
 * limited to once a minute for apps off the Marketplace) reports "N of M conversations counted" as a
 * heartbeat, only to a call that carried a progressToken; a cancel mid-count ends the call and
 * nothing more is reported.
 */
import { type Connection, callChecked, cancelAtBeat } from '@refmcp/test-harness';
import { BOT_SCOPES, BOT_USER, type FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

const MARKER_TOKEN = 'xoxb-progress-0001';
let slack: FakeSlack;
let conn: Connection;
const progressLines = () => conn.stdoutLines().filter((l) => l.includes('"notifications/progress"'));

beforeAll(async () => {
  ({ slack } = await startScene());
  slack.state.addToken(MARKER_TOKEN, BOT_USER, [...BOT_SCOPES]);
  conn = await startServer(slack, ['--toolsets', 'channels,unread'], {
    env: { SLACK_BOT_TOKEN: MARKER_TOKEN },
  });
});
afterAll(async () => {
  await conn?.close();
  await slack?.close();
});

describe('progress of slack_list_unread', () => {
  it('heartbeats while conversations are counted, and a cancel mid-count ends the call', async () => {
    // History never answers: only the heartbeat shows the call is alive.
    slack.api.inject({
      status: 200,
      hang: true,
      times: Number.POSITIVE_INFINITY,
      match: { path: '/conversations.history' },
    });
    try {
      const { outcome, seen } = await cancelAtBeat(conn, 'slack_list_unread', { channel_ids: ['#test'] });
      expect(outcome).toBe('aborted');
      expect(seen.map((p) => p.progress)).toEqual([0, 1]);
      expect(seen[0]?.message).toMatch(/^0 of 1 conversations counted, \d+ s$/);
      // Messages are handled in order: once tools/list answers, the server has seen the cancellation.
      await conn.client.listTools();
      const after = progressLines().length;
      await conn.client.listTools();
      expect(progressLines().length).toBe(after);
    } finally {
      slack.resetFaults();
    }
  });

  it('sends nothing to a call without a progressToken, and the count is whole', async () => {
    const before = progressLines().length;
    const r = await callChecked(conn, 'slack_list_unread', { channel_ids: ['#test'] });
    expect(r.isError, r.text).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ conversations: [{ channel: 'C0TEST' }] });
    expect(progressLines().length).toBe(before);
  });
});
