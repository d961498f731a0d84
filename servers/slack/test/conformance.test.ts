/**
 * The harness's conformance suite against the built Slack server and the fake Slack with every
 * tool served (a user token for search, --post-to all for posting): ALL-01 … ALL-10, META and
 * PORT, tool snapshots (each with its toolset), the read-only selection, the README's generated
 * tool table; and toolset selection with the reference's 8 tools by default.
 */
import { NO_PACING } from '@refmcp/test-harness';
import { describeConformance, describeToolsetSelection } from '@refmcp/test-harness/conformance';
import type { FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';
import { BOT_TOKEN, fakeEnv, startScene, startServer, USER_TOKEN } from './support.js';

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
  // The slow call: the history of C0HUGE answers after 2.5 s.
  slack.api.latency(
    2500,
    (req) => req.path === '/conversations.history' && `${req.rawQuery}&${req.body}`.includes('C0HUGE'),
  );
});
afterAll(() => slack.close());

const ALL = ['--post-to', 'all'];

describeConformance({
  server: 'slack',
  testFile: import.meta.url,
  args: () => [...NO_PACING, ...ALL],
  env: () => ({ ...fakeEnv(slack), SLACK_USER_TOKEN: USER_TOKEN }),
  allTools: ['--toolsets', 'all'],
  readOnly: ['--toolsets', 'all', '--read-only'],
  toolsets: TOOLSETS.map((t) => t.name),
  check: () => ({
    secrets: [BOT_TOKEN, USER_TOKEN, 'TESTTOKEN123'],
    slowCall: { name: 'slack_get_channel_history', arguments: { channel_id: 'C0HUGE' } },
  }),
});

/** The reference server's 8 tools (@modelcontextprotocol/server-slack 2025.4.25). */
const PARITY = [
  'slack_list_channels',
  'slack_post_message',
  'slack_reply_to_thread',
  'slack_add_reaction',
  'slack_get_channel_history',
  'slack_get_thread_replies',
  'slack_get_users',
  'slack_get_user_profile',
];

describeToolsetSelection({
  snapshots: new URL('./__toolsnaps__/', import.meta.url),
  start: (args) => startServer(slack, [...ALL, ...args], { env: { SLACK_USER_TOKEN: USER_TOKEN } }),
  parity: PARITY,
  offByDefault: ['editing', 'scheduling', 'unread'],
  sample: { toolset: 'channels', read: 'slack_get_channel_history', write: 'slack_post_message' },
});
