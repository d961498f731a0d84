/**
 * Scheduled messages (toolset `scheduling`, off by default: `--toolsets …,scheduling`), served only
 * with --post-to, never under --read-only, confined to SLACK_CHANNEL_IDS and --post-to before any
 * request: slack_schedule_message (chat.scheduleMessage), slack_list_scheduled_messages
 * (chat.scheduledMessages.list of one channel) and slack_delete_scheduled_message
 * (chat.deleteScheduledMessage). A scheduled message follows the posting rules: broadcast mentions
 * refused unless --allow-broadcast, Markdown sent as `markdown_text`, links unfurled only when
 * every one is on --unfurl-domains. Slack lists and cancels only the token's own scheduled messages.
 */
import {
  compact,
  makeCursor,
  OPEN_WORLD_HINTS,
  queryKey,
  readCursor,
  structuredResult,
  ToolError,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import { refuseBroadcast } from '../format/broadcast.js';
import { mayUnfurl } from '../format/mrkdwn.js';
import * as arg from '../names.js';
import type { SlackTool } from '../toolsets.js';
import { channelLabel, postTool, resolveChannel } from './common.js';
import { pageOut } from './message-page.js';
import { MAX_MARKDOWN_CHARS } from './posting.js';

/** Slack schedules at most 120 days ahead (chat.scheduleMessage, `time_too_far`). */
export const MAX_SCHEDULE_DAYS = 120;

/** Scheduled messages listed per call (chat.scheduledMessages.list `limit`); `cursor` pages on. */
const LIST_LIMIT = 100;

/**
 * `post_at` as Unix seconds: Unix seconds, or an ISO 8601 date-time with `Z` or an offset (a local
 * time would be ambiguous). Errors: ToolError when unreadable, past, or over 120 days ahead.
 */
export function postAtSeconds(value: string, now = Date.now()): number {
  const v = value.trim();
  let ms: number;
  if (/^\d{9,11}$/.test(v)) ms = Number(v) * 1000;
  else if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(v)) ms = Date.parse(v);
  else ms = Number.NaN;
  if (!Number.isFinite(ms))
    throw new ToolError(
      'post_at: give Unix seconds or an ISO 8601 date-time with Z or an offset, e.g. 2026-12-08T09:00:00+01:00',
    );
  const seconds = Math.floor(ms / 1000);
  if (seconds <= Math.floor(now / 1000))
    throw new ToolError(`post_at: ${v} is not in the future; nothing was scheduled`);
  if (seconds > now / 1000 + MAX_SCHEDULE_DAYS * 86_400)
    throw new ToolError(
      `post_at: Slack schedules at most ${MAX_SCHEDULE_DAYS} days ahead; nothing was scheduled`,
    );
  return seconds;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function schedulingTools(config: Config): SlackTool[] {
  if (!config.postTo) return [];
  const where = config.postTo.description === 'all' ? '' : ` Only in ${config.postTo.description}.`;
  return [
    postTool(config, {
      name: 'slack_schedule_message',
      title: 'Schedule message',
      toolset: 'scheduling',
      description: `Schedule a message (or thread reply) for a later time, up to ${MAX_SCHEDULE_DAYS} days ahead.${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        post_at: arg.text('When: ISO 8601 with offset, or Unix seconds', 40),
        text: arg.text('Markdown', MAX_MARKDOWN_CHARS),
        thread_ts: arg.ts('Parent message ts, to reply in its thread').optional(),
      }),
      outputSchema: z.object({
        channel: z.string(),
        scheduled_message_id: z.string(),
        post_at: z.string().describe('ISO 8601, UTC'),
        unfurled: z.boolean(),
      }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ channel_id, post_at, text, thread_ts }, { signal }) => {
        const at = postAtSeconds(post_at);
        const thread = thread_ts === undefined ? undefined : arg.normalizeTs(thread_ts, 'thread_ts');
        refuseBroadcast(text, config.allowBroadcast, 'The message', 'scheduled');
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        const unfurl = mayUnfurl(text, config.unfurlDomains);
        const answer = await config.slack.call(
          'chat.scheduleMessage',
          compact({
            channel: channel.id,
            post_at: at,
            markdown_text: text,
            thread_ts: thread,
            unfurl_links: unfurl,
            unfurl_media: unfurl,
          }),
          { write: true, signal },
        );
        const id = typeof answer.scheduled_message_id === 'string' ? answer.scheduled_message_id : '';
        const when = iso(typeof answer.post_at === 'number' ? answer.post_at : at);
        return structuredResult(
          { channel: channel.id, scheduled_message_id: id, post_at: when, unfurled: unfurl },
          `Scheduled ${id} in ${channelLabel(channel)}${thread ? ` (thread ${thread})` : ''} for ${when}. Link unfurling ${unfurl ? 'on' : 'off'}.`,
        );
      },
    }),
    postTool(config, {
      name: 'slack_list_scheduled_messages',
      title: 'List scheduled messages',
      toolset: 'scheduling',
      description: `List this app's scheduled messages in a channel.${where}`,
      inputSchema: z.strictObject({ channel_id: arg.channel(), cursor: arg.cursor() }),
      outputSchema: z.object({
        channel: z.string(),
        scheduled: z.array(z.object({ id: z.string(), post_at: z.string(), text: z.string() })),
        ...pageOut,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ channel_id, cursor }, { signal }) => {
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        // Slack's `next_cursor` continues the list, bound to this channel.
        const key = queryKey('scheduled', { id: channel.id });
        const pos = readCursor<{ c?: string }>(cursor, key, 'the same channel_id');
        const answer = await config.slack.call(
          'chat.scheduledMessages.list',
          compact({ channel: channel.id, limit: LIST_LIMIT, cursor: pos?.c }),
          { signal },
        );
        const raw = Array.isArray(answer.scheduled_messages) ? answer.scheduled_messages : [];
        const scheduled = (raw as Array<{ id?: unknown; post_at?: unknown; text?: unknown }>)
          .filter((m) => typeof m.id === 'string' && typeof m.post_at === 'number')
          .map((m) => ({
            id: m.id as string,
            post_at: iso(m.post_at as number),
            text: typeof m.text === 'string' ? m.text : '',
          }));
        const next = answer.response_metadata?.next_cursor;
        const nextCursor = next ? makeCursor(key, { c: next }) : undefined;
        const lines = scheduled.map((m) => `${m.id} at ${m.post_at}: ${m.text}`);
        return structuredResult(
          compact({ channel: channel.id, scheduled, hasMore: nextCursor !== undefined, nextCursor }),
          [
            `${scheduled.length} scheduled message(s) in ${channelLabel(channel)}.`,
            ...lines,
            nextCursor ? 'More: call again with cursor.' : 'No more.',
          ].join('\n'),
        );
      },
    }),
    postTool(config, {
      name: 'slack_delete_scheduled_message',
      title: 'Cancel scheduled message',
      toolset: 'scheduling',
      description: `Cancel one of this app's scheduled messages.${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        scheduled_message_id: arg.text('Id from slack_schedule_message or the list', 64),
      }),
      outputSchema: z.object({ channel: z.string(), scheduled_message_id: z.string() }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ channel_id, scheduled_message_id: id }, { signal }) => {
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        await config.slack.call(
          'chat.deleteScheduledMessage',
          { channel: channel.id, scheduled_message_id: id },
          { write: true, signal },
        );
        return structuredResult(
          compact({ channel: channel.id, scheduled_message_id: id }),
          `Cancelled ${id} in ${channelLabel(channel)}.`,
        );
      },
    }),
  ];
}
