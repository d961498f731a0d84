/**
 * Demo scene: the Slack server against a fake Slack Web API the demo starts itself on 127.0.0.1
 * (the harness's fake, checked against @slack/web-api's response types by the Slack server's
 * tests; no network, no real token), launched with `--post-to C0TEST`. The agent reads a thread
 * (mentions and links made readable, the text labelled as data), is refused when it tries to post
 * in #eng (not in --post-to: nothing is sent), and posts its summary where it may — with link
 * unfurling off.
 */
import { BOT_TOKEN, type FakeSlack, seedScene, startFakeSlack, THREAD_TS } from '../fakes/slack/index.js';
import type { DemoScene } from './scene.js';
import { bold } from './session.js';

let slack: FakeSlack | undefined;

export const slackScene: DemoScene = {
  server: 'slack',
  async prepare() {
    slack = await startFakeSlack();
    seedScene(slack);
    process.env.REFMCP_DEMO_SLACK_URL = slack.apiUrl;
    process.env.REFMCP_DEMO_SLACK_TOKEN = BOT_TOKEN;
  },
  async run(session) {
    console.log(`\n${bold('Task: summarise the deploy thread in #eng and post the summary in #test.')}`);
    await session.call(
      'slack_get_thread_replies',
      { channel_id: '#eng', thread_ts: THREAD_TS },
      'Read the thread: <@U…> become names, <https://…|label> "label (url)", all of it labelled as data.',
    );
    await session.call(
      'slack_post_message',
      { channel_id: '#eng', text: 'Summary: deploy approved, shipped.' },
      'Post the summary back in #eng: not in --post-to C0TEST, refused before anything is sent.',
      true,
    );
    await session.call(
      'slack_post_message',
      {
        channel_id: 'C0TEST',
        text: 'Summary of the #eng deploy thread: approved by Bob, shipped by Carol. Runbook: https://docs.example.com/deploy',
      },
      'Post it where --post-to allows; Slack is told not to unfurl the link.',
    );
  },
  async cleanup() {
    await slack?.close();
    slack = undefined;
  },
};
