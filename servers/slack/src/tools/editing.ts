/**
 * The token's own messages, after they are posted: slack_update_message and slack_delete_message
 * (toolset `editing`, off by default: `--toolsets …,editing`) and slack_remove_reaction (with the
 * posting tools) — all served only with --post-to, never under --read-only, confined to
 * SLACK_CHANNEL_IDS and --post-to before any request. An edit or delete first checks that the
 * message is the token's own (ownership.ts: a workspace admin's user token could otherwise delete
 * anyone's message) and refuses another author's before chat.update or chat.delete is sent.
 *
 * An edit follows the posting rules: broadcast mentions refused unless --allow-broadcast, the text
 * sent as Markdown (`markdown_text`). chat.update has no `unfurl_links`, so an edit may carry links
 * only when every one is on --unfurl-domains (a post's links are never unfurled otherwise).
 */
import { compact, OPEN_WORLD_HINTS, structuredResult, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import { refuseBroadcast } from '../format/broadcast.js';
import { permalink } from '../format/messages.js';
import { linkHosts, mayUnfurl } from '../format/mrkdwn.js';
import * as arg from '../names.js';
import type { SlackTool } from '../toolsets.js';
import { channelLabel, postTool, resolveChannel } from './common.js';
import { requireOwnMessage } from './ownership.js';
import { MAX_MARKDOWN_CHARS } from './posting.js';

/** Refuses an edit's `text` that a post would send with a broadcast or unfurled link (module comment). */
function checkEdit(config: Config, text: string): void {
  refuseBroadcast(text, config.allowBroadcast, 'The new text', 'changed');
  if (linkHosts(text).length > 0 && !mayUnfurl(text, config.unfurlDomains))
    throw new ToolError(
      `The new text links outside --unfurl-domains${config.unfurlDomains.length ? ` (${config.unfurlDomains.join(',')})` : ''}, and Slack's chat.update cannot turn link previews off; nothing was changed. Post the link in a new message instead.`,
    );
}

export function editingTools(config: Config): SlackTool[] {
  if (!config.postTo) return [];
  const where = config.postTo.description === 'all' ? '' : ` Only in ${config.postTo.description}.`;
  return [
    postTool(config, {
      name: 'slack_update_message',
      title: 'Edit message',
      toolset: 'editing',
      description: `Replace the text of a message this app posted.${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        ts: arg.ts('Message ts'),
        thread_ts: arg.ts('Its thread, for a reply').optional(),
        text: arg.text('Markdown', MAX_MARKDOWN_CHARS),
      }),
      outputSchema: z.object({ channel: z.string(), ts: z.string(), permalink: z.string().optional() }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ channel_id, ts: raw, thread_ts, text }, { signal }) => {
        const ts = arg.normalizeTs(raw, 'ts');
        const thread = thread_ts === undefined ? undefined : arg.normalizeTs(thread_ts, 'thread_ts');
        checkEdit(config, text);
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        await requireOwnMessage(config, channel.id, ts, thread, 'edit', signal);
        await config.slack.call(
          'chat.update',
          { channel: channel.id, ts, markdown_text: text },
          { write: true, signal },
        );
        const workspace = await config.directory.workspaceUrl();
        const link = workspace ? permalink(workspace, channel.id, ts) : undefined;
        return structuredResult(
          compact({ channel: channel.id, ts, permalink: link }),
          `Edited ${ts} in ${channelLabel(channel)}.`,
        );
      },
    }),
    postTool(config, {
      name: 'slack_delete_message',
      title: 'Delete message',
      toolset: 'editing',
      description: `Delete a message this app posted (a thread parent leaves its replies).${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        ts: arg.ts('Message ts'),
        thread_ts: arg.ts('Its thread, for a reply').optional(),
      }),
      confirm: (a) => `Delete message ${a.ts} in ${a.channel_id}? Slack keeps no copy to restore.`,
      outputSchema: z.object({ channel: z.string(), ts: z.string() }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ channel_id, ts: raw, thread_ts }, { signal }) => {
        const ts = arg.normalizeTs(raw, 'ts');
        const thread = thread_ts === undefined ? undefined : arg.normalizeTs(thread_ts, 'thread_ts');
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        await requireOwnMessage(config, channel.id, ts, thread, 'delete', signal);
        await config.slack.call('chat.delete', { channel: channel.id, ts }, { write: true, signal });
        return structuredResult({ channel: channel.id, ts }, `Deleted ${ts} in ${channelLabel(channel)}.`);
      },
    }),
    postTool(config, {
      name: 'slack_remove_reaction',
      title: 'Remove reaction',
      toolset: 'posting',
      description: `Remove this app's emoji reaction from a message.${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        timestamp: arg.ts('Message ts'),
        reaction: arg.emoji(),
      }),
      outputSchema: z.object({ channel: z.string(), ts: z.string(), reaction: z.string() }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ channel_id, timestamp, reaction }, { signal }) => {
        const ts = arg.normalizeTs(timestamp, 'timestamp');
        const name = reaction.replace(/^:|:$/g, '');
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        await config.slack.call(
          'reactions.remove',
          { channel: channel.id, timestamp: ts, name },
          { write: true, signal },
        );
        return structuredResult(
          { channel: channel.id, ts, reaction: name },
          `Removed :${name}: from ${ts} in ${channelLabel(channel)}.`,
        );
      },
    }),
  ];
}
