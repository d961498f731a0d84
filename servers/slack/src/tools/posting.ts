/**
 * Posting: slack_post_message, slack_reply_to_thread and slack_add_reaction (the reference's names
 * and arguments), served only with --post-to and confined to its channels (and SLACK_CHANNEL_IDS)
 * before any request. Link unfurling is always off — an injected model could otherwise make Slack
 * fetch an attacker's URL with data in its query, no click needed — unless --unfurl-domains covers
 * every link of the message (case SL-01). Broadcast mentions (<!channel>, <!here>, <!everyone>,
 * user groups) are refused before any request unless --allow-broadcast.
 *
 * The model writes Markdown (`**bold**`, `[label](url)`, lists, code fences): it is sent as
 * chat.postMessage's `markdown_text`, which Slack renders itself (docs.slack.dev, chat.postMessage:
 * "Accepts message text formatted in markdown … Limit this field to 12,000 characters"), so posts
 * read as meant instead of showing the asterisks.
 */
import { compact, OPEN_WORLD_HINTS, structuredResult } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import { refuseBroadcast } from '../format/broadcast.js';
import { permalink } from '../format/messages.js';
import { mayUnfurl } from '../format/mrkdwn.js';
import * as arg from '../names.js';
import type { SlackTool } from '../toolsets.js';
import { channelLabel, postTool, resolveChannel } from './common.js';

/** Slack's limit on `markdown_text`, in characters (chat.postMessage). */
export const MAX_MARKDOWN_CHARS = 12_000;

const posted = z.object({
  channel: z.string(),
  ts: z.string().describe('The new message ts (thread_ts for replies to it)'),
  permalink: z.string().optional(),
  unfurled: z.boolean().describe('Slack may unfurl its links (every link on --unfurl-domains)'),
});

export function postingTools(config: Config): SlackTool[] {
  if (!config.postTo) return [];
  const where = config.postTo.description === 'all' ? '' : ` Only in ${config.postTo.description}.`;

  const post = async (channelArg: string, text: string, signal: AbortSignal, threadTs?: string) => {
    refuseBroadcast(text, config.allowBroadcast, 'The message', 'posted');
    const channel = await resolveChannel(config, channelArg, signal, { post: true });
    const unfurl = mayUnfurl(text, config.unfurlDomains);
    const answer = await config.slack.call(
      'chat.postMessage',
      compact({
        channel: channel.id,
        markdown_text: text,
        thread_ts: threadTs,
        unfurl_links: unfurl,
        unfurl_media: unfurl,
      }),
      { write: true, signal },
    );
    const ts = typeof answer.ts === 'string' ? answer.ts : '';
    const workspace = await config.directory.workspaceUrl();
    const link = workspace && ts ? permalink(workspace, channel.id, ts, threadTs) : undefined;
    return structuredResult(
      compact({ channel: channel.id, ts, permalink: link, unfurled: unfurl }),
      `${threadTs ? `Replied in thread ${threadTs}` : 'Posted'} to ${channelLabel(channel)}: ts ${ts}${link ? ` — ${link}` : ''}. Link unfurling ${unfurl ? 'on' : 'off'}.`,
    );
  };

  return [
    postTool(config, {
      name: 'slack_post_message',
      title: 'Post message',
      toolset: 'posting',
      description: `Post a message to a channel.${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        text: arg.text('Markdown', MAX_MARKDOWN_CHARS),
      }),
      outputSchema: posted,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: ({ channel_id, text }, { signal }) => post(channel_id, text, signal),
    }),
    postTool(config, {
      name: 'slack_reply_to_thread',
      title: 'Reply to thread',
      toolset: 'posting',
      description: `Reply in a message's thread.${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        thread_ts: arg.ts('Parent message ts, e.g. 1234567890.123456'),
        text: arg.text('Markdown', MAX_MARKDOWN_CHARS),
      }),
      outputSchema: posted,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: ({ channel_id, thread_ts, text }, { signal }) =>
        post(channel_id, text, signal, arg.normalizeTs(thread_ts, 'thread_ts')),
    }),
    postTool(config, {
      name: 'slack_add_reaction',
      title: 'Add reaction',
      toolset: 'posting',
      description: `Add an emoji reaction to a message.${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        timestamp: arg.ts('Message ts'),
        reaction: arg.emoji(),
      }),
      outputSchema: z.object({ channel: z.string(), ts: z.string(), reaction: z.string() }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ channel_id, timestamp, reaction }, { signal }) => {
        const ts = arg.normalizeTs(timestamp, 'timestamp');
        const name = reaction.replace(/^:|:$/g, '');
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        await config.slack.call(
          'reactions.add',
          { channel: channel.id, timestamp: ts, name },
          { write: true, signal },
        );
        return structuredResult(
          { channel: channel.id, ts, reaction: name },
          `Reacted :${name}: to ${ts} in ${channelLabel(channel)}.`,
        );
      },
    }),
  ];
}
