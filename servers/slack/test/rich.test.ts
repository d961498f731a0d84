/**
 * Issue 28 item 1: the words of messages that are not in `text` — secondary attachments from
 * integrations and Block Kit blocks (rich_text from Slack's clients, section/context/actions from
 * apps, and block types the renderer has no layout for) — shown, bounded and as untrusted text,
 * in history, thread replies and search; posts sent as Markdown with the broadcast and unfurl
 * rules still applied.
 */
import { callChecked } from '@refmcp/test-harness';
import { ALICE, BOB, type FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScene, startServer, USER_TOKEN } from './support.js';

let slack: FakeSlack;
const TS = {
  alert: '1700300000.000100',
  composed: '1700300001.000100',
  app: '1700300002.000100',
  other: '1700300003.000100',
  huge: '1700300004.000100',
};

beforeAll(async () => {
  ({ slack } = await startScene());
  const s = slack.state;
  s.addChannel('alerts', { id: 'C0ALERT', members: ['U0BOT', ALICE, BOB] });
  // An alerting integration: everything in a legacy attachment, `text` empty.
  s.addMessage('C0ALERT', '', {
    ts: TS.alert,
    user: 'U0BOT',
    attachments: [
      {
        id: 1,
        color: 'ff0000',
        fallback: '[FIRING] DiskFull on db-7',
        pretext: 'Alertmanager zircon',
        title: '[FIRING] DiskFull',
        title_link: 'https://alerts.example.com/a/1',
        text: `Disk 97% on db-7, paging <@${BOB}>`,
        fields: [
          { title: 'Severity', value: 'critical', short: true },
          { title: 'Runbook', value: '<https://docs.example.com/disk|disk runbook>', short: true },
        ],
        footer: 'prometheus-eu',
      },
    ],
  });
  // Composed in Slack's client: the same words in `text` and a rich_text block.
  s.addMessage('C0ALERT', `Rollout *done*, thanks <@${BOB}>`, {
    ts: TS.composed,
    user: ALICE,
    blocks: [
      {
        type: 'rich_text',
        block_id: 'r1',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'text', text: 'Rollout ' },
              { type: 'text', text: 'done', style: { bold: true } },
              { type: 'text', text: ', thanks ' },
              { type: 'user', user_id: BOB },
            ],
          },
          {
            type: 'rich_text_list',
            style: 'ordered',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'canary quartz' }] },
              {
                type: 'rich_text_section',
                elements: [{ type: 'link', url: 'https://grafana.example.com/d/1', text: 'dashboards' }],
              },
            ],
          },
          { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'kubectl rollout status' }] },
        ],
      },
    ],
  });
  // An app: a short notification `text`, the content in section/context/actions/header blocks.
  s.addMessage('C0ALERT', 'New incident', {
    ts: TS.app,
    user: 'U0BOT',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'INC-42 payments latency' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*Owner:* <@U0ALICE>' },
        fields: [{ type: 'mrkdwn', text: '*Status*\ninvestigating' }],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'opened by pagerbot' }] },
      { type: 'divider' },
      {
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'Acknowledge' }, action_id: 'ack' }],
      },
    ],
  });
  // Block types with no layout of their own in the renderer: their words still show.
  s.addMessage('C0ALERT', '', {
    ts: TS.other,
    user: 'U0BOT',
    blocks: [
      {
        type: 'table',
        rows: [
          [
            { type: 'raw_text', text: 'service' },
            { type: 'raw_text', text: 'p99' },
          ],
          [
            { type: 'raw_text', text: 'checkout' },
            {
              type: 'rich_text',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: '870ms' }] }],
            },
          ],
        ],
      },
      { type: 'alert', level: 'warning', text: { type: 'plain_text', text: 'budget burn basalt' } },
      {
        type: 'card',
        title: { type: 'mrkdwn', text: 'Postmortem obsidian' },
        body: { type: 'mrkdwn', text: 'due friday' },
      },
      {
        type: 'video',
        title: { type: 'plain_text', text: 'Replay garnet' },
        alt_text: 'replay',
        video_url: 'https://video.example.com/v',
        thumbnail_url: 'https://video.example.com/t.png',
      },
      { type: 'data_table', caption: 'Error budget jasper', rows: [[{ type: 'raw_text', text: '12%' }]] },
    ],
  });
  // A huge attachment: bounded like any message text.
  s.addMessage('C0ALERT', '', {
    ts: TS.huge,
    user: 'U0BOT',
    attachments: [{ id: 1, title: 'log dump', text: `start ${'y'.repeat(200_000)} end` }],
  });
  s.addReply('C0ALERT', TS.alert, '', {
    user: 'U0BOT',
    attachments: [{ id: 1, fallback: 'resolved fallback', title: '[RESOLVED] DiskFull', text: 'cleared' }],
  });
});
beforeEach(() => slack.api.clearRequests());
afterAll(() => slack.close());

interface Msg {
  ts: string;
  text: string;
}
const byTs = (r: { structuredContent?: unknown }, ts: string) =>
  (
    (r.structuredContent as { messages?: Msg[]; matches?: Msg[] }).messages ??
    (r.structuredContent as { matches: Msg[] }).matches
  ).find((m) => m.ts === ts);

describe('messages whose words are in attachments and blocks', () => {
  it('history shows attachments, rich_text, app blocks and unknown block types, once each', async () => {
    const conn = await startServer(slack);
    try {
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C0ALERT', limit: 20 });
      expect(r.isError).toBeFalsy();
      const alert = byTs(r, TS.alert)?.text ?? '';
      for (const word of [
        'Alertmanager zircon',
        '[FIRING] DiskFull (https://alerts.example.com/a/1)',
        'Disk 97% on db-7, paging @bob',
        'Severity: critical',
        'Runbook: disk runbook (https://docs.example.com/disk)',
        'prometheus-eu',
      ])
        expect(alert).toContain(word);
      // The fallback summarises the rest: not shown when the rest is.
      expect(alert).not.toContain('[FIRING] DiskFull on db-7');

      const composed = byTs(r, TS.composed)?.text ?? '';
      expect(composed).toContain('1. canary quartz');
      expect(composed).toContain('2. dashboards (https://grafana.example.com/d/1)');
      expect(composed).toContain('```\nkubectl rollout status\n```');
      expect(composed.match(/thanks @bob/g)).toHaveLength(1);

      const app = byTs(r, TS.app)?.text ?? '';
      for (const word of [
        'New incident',
        'INC-42 payments latency',
        '*Owner:* @alice',
        'investigating',
        'opened by pagerbot',
        '[Acknowledge]',
      ])
        expect(app).toContain(word);

      const other = byTs(r, TS.other)?.text ?? '';
      for (const word of [
        'service | p99',
        'checkout | 870ms',
        'budget burn basalt',
        'Postmortem obsidian',
        'due friday',
        'Replay garnet',
        'Error budget jasper',
      ])
        expect(other).toContain(word);
      expect(r.text).toContain('INC-42 payments latency');
      expect(r.text).toMatch(/untrusted/i);

      const huge = byTs(r, TS.huge)?.text ?? '';
      expect(Buffer.byteLength(huge)).toBeLessThan(8 * 1024);
      expect(huge).toMatch(/log dump\nstart y+/);
      expect(huge).toMatch(/\[truncated: \d+ more bytes;/);
    } finally {
      await conn.close();
    }
  });

  it('thread replies show an attachment-only reply', async () => {
    const conn = await startServer(slack);
    try {
      const r = await callChecked(conn, 'slack_get_thread_replies', {
        channel_id: 'C0ALERT',
        thread_ts: TS.alert,
      });
      expect(r.isError).toBeFalsy();
      const texts = (r.structuredContent as { messages: Msg[] }).messages.map((m) => m.text);
      expect(texts[0]).toContain('Disk 97% on db-7');
      expect(texts[1]).toBe('[RESOLVED] DiskFull\ncleared');
    } finally {
      await conn.close();
    }
  });

  it('search matches words of blocks and shows them', async () => {
    const conn = await startServer(slack, [], { env: { SLACK_USER_TOKEN: USER_TOKEN } });
    try {
      const r = await callChecked(conn, 'slack_search_messages', { query: 'obsidian' });
      expect(r.isError).toBeFalsy();
      expect(byTs(r, TS.other)?.text).toContain('Postmortem obsidian');
      const a = await callChecked(conn, 'slack_search_messages', { query: 'zircon' });
      expect(byTs(a, TS.alert)?.text).toContain('Severity: critical');
    } finally {
      await conn.close();
    }
  });
});

describe('posting Markdown', () => {
  it('posts go out as markdown_text, links still decide unfurling, plain @here is a broadcast', async () => {
    const conn = await startServer(slack, ['--post-to', 'C0ALERT', '--unfurl-domains', 'docs.example.com']);
    try {
      const md = '**Deploy** done\n\n- see [the doc](https://docs.example.com/a)\n\n```\nok\n```';
      const ok = await callChecked(conn, 'slack_post_message', { channel_id: 'C0ALERT', text: md });
      expect(ok.isError).toBeFalsy();
      const call = slack.calls('chat.postMessage').at(-1);
      expect(call?.markdown_text).toBe(md);
      expect(call?.text).toBeUndefined();
      expect(String(call?.unfurl_links)).toBe('true');

      const before = slack.calls('chat.postMessage').length;
      await callChecked(conn, 'slack_reply_to_thread', {
        channel_id: 'C0ALERT',
        thread_ts: TS.alert,
        text: 'see [docs.example.com](https://attacker.example/x?d=1)',
      });
      expect(String(slack.calls('chat.postMessage')[before]?.unfurl_links)).toBe('false');

      for (const text of ['@here **look**', 'ping @Channel now', '<!everyone>']) {
        const r = await callChecked(conn, 'slack_post_message', { channel_id: 'C0ALERT', text });
        expect(r.isError, text).toBe(true);
        expect(r.text).toMatch(/nothing was posted/);
      }
      expect(slack.calls('chat.postMessage')).toHaveLength(before + 1);
      const plain = await callChecked(conn, 'slack_post_message', {
        channel_id: 'C0ALERT',
        text: 'mail @channel-owners or ops@here.example',
      });
      expect(plain.isError).toBeFalsy();
    } finally {
      await conn.close();
    }
  });
});
