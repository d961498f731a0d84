/**
 * Unread messages (toolset `unread`, off by default): slack_list_unread and slack_mark_read.
 *
 * What Slack lets a token see: conversations.info gives the token's own read marker (`last_read`)
 * in conversations it is a member of; its current answer has no unread count (@slack/web-api's
 * ConversationsInfoResponse). So the count is the messages after `last_read` in
 * conversations.history (at most {@link COUNT_LIMIT}, "15+" beyond), which apps not approved for
 * the Slack Marketplace may call once a minute (2025): when history is rate limited the remaining
 * conversations are listed as not counted. The marker is the token's own — a bot token's is the
 * bot's, not any person's. Conversations: `channel_ids`, or SLACK_CHANNEL_IDS, or those the token
 * is a member of (conversations.list), at most {@link MAX_CONVERSATIONS}.
 * A conversation Slack refuses (`missing_scope` naming the scope, `channel_not_found`…) is a line
 * saying so and the others keep their counts; a token-wide failure (invalid_auth…) fails the call.
 *
 * slack_get_unread_messages reads them: conversations.history after `last_read`, newest first, as
 * slack_get_channel_history pages it; the cursor keeps the marker of the first page, so marking read
 * meanwhile does not skip or repeat messages.
 *
 * slack_mark_read moves the marker (conversations.mark, `*:write` scopes): opt-in, --post-to only, as
 * --post-to confines every write (the marker is what Slack shows as read), and the errors say so.
 */
import {
  compact,
  defineTool,
  OPEN_WORLD_HINTS,
  queryKey,
  readCursor,
  structuredResult,
  ToolError,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { startHeartbeat } from '@refmcp/shared/server';
import type { Config } from '../config.js';
import * as arg from '../names.js';
import { type SlackAnswer, SlackApiError } from '../slack/client.js';
import type { SlackTool } from '../toolsets.js';
import {
  channelLabel,
  channelTool,
  LIST_MESSAGE_BYTES,
  postTool,
  resolveChannel,
  scopeNote,
} from './common.js';
import { messagePage, messagesOut } from './message-page.js';

/** Conversations looked at per call. */
export const MAX_CONVERSATIONS = 20;
/** Messages counted per conversation (the history page Slack allows apps off the Marketplace). */
export const COUNT_LIMIT = 15;

const unreadShape = z.object({
  channel: z.string(),
  name: z.string().optional(),
  last_read: z.string().optional(),
  unread: z.number().int().optional().describe(`Messages after last_read (at most ${COUNT_LIMIT})`),
  more: z.boolean().optional().describe(`More than ${COUNT_LIMIT} unread`),
  note: z.string().optional().describe('Why there is no count'),
});

async function memberConversations(config: Config, signal: AbortSignal): Promise<string[]> {
  if (config.channels) return config.channels.ids.slice(0, MAX_CONVERSATIONS);
  const answer = await config.slack.call(
    'conversations.list',
    { types: 'public_channel,private_channel,mpim,im', exclude_archived: true, limit: 200 },
    { signal },
  );
  const list = Array.isArray(answer.channels) ? (answer.channels as Array<Record<string, unknown>>) : [];
  return list
    .filter((c) => typeof c.id === 'string' && (c.is_member === true || c.is_im === true))
    .map((c) => c.id as string)
    .slice(0, MAX_CONVERSATIONS);
}

/** Failures that are the token's or the network's, not one conversation's: the whole call fails. */
const WHOLE_CALL = new Set([
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'network',
]);

/**
 * The note of a conversation Slack refused to describe or count (`missing_scope` naming the scope,
 * `channel_not_found`…), so the others keep their counts. Rethrows token-wide and non-Slack errors.
 */
function notCounted(error: unknown): string {
  if (!(error instanceof SlackApiError) || !error.reason || WHOLE_CALL.has(error.reason)) throw error;
  return `not counted: ${error.message.replace(/^Slack /, '')}`;
}

export function unreadTools(config: Config): SlackTool[] {
  const tools: SlackTool[] = [
    defineTool({
      name: 'slack_list_unread',
      title: 'Unread messages',
      toolset: 'unread',
      description: `Conversations with messages after this token's read marker, and how many (at most ${COUNT_LIMIT} counted each).`,
      inputSchema: z.strictObject({
        channel_ids: z
          .array(arg.channel())
          .max(MAX_CONVERSATIONS)
          .optional()
          .describe('Default: SLACK_CHANNEL_IDS or the conversations the token is in'),
      }),
      outputSchema: z.object({ conversations: z.array(unreadShape) }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ channel_ids }, { signal, progress }) => {
        const ids = channel_ids
          ? await Promise.all(channel_ids.map(async (c) => (await resolveChannel(config, c, signal)).id))
          : await memberConversations(config, signal);
        const rows: z.infer<typeof unreadShape>[] = [];
        // With a progressToken: a heartbeat counting the conversations done (two paced calls each).
        const beat =
          progress &&
          startHeartbeat(progress, (s) => `${rows.length} of ${ids.length} conversations counted, ${s} s`);
        try {
          return await countUnread(config, ids, rows, signal);
        } finally {
          beat?.stop();
        }
      },
    }),
    channelTool(config, {
      name: 'slack_get_unread_messages',
      title: 'Get unread messages',
      toolset: 'unread',
      description: `Messages after this token's read marker in a conversation, newest first.${scopeNote(config)}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        limit: arg.limit(10, 200),
        cursor: arg.cursor(),
      }),
      outputSchema: messagesOut,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ channel_id, limit = 10, cursor }, { signal }) => {
        const channel = await resolveChannel(config, channel_id, signal);
        const key = queryKey('unread', { id: channel.id, limit });
        const repeat = 'the same channel_id and limit';
        // The marker read for the first page is kept in the cursor (`m`).
        let marker = readCursor<{ m?: unknown }>(cursor, key, repeat)?.m;
        if (
          cursor !== undefined &&
          cursor !== '' &&
          (typeof marker !== 'string' || !arg.MESSAGE_TS.test(marker))
        )
          throw new ToolError('cursor: malformed; pass the exact nextCursor value from a previous result');
        if (typeof marker !== 'string') {
          const info = await config.slack.call('conversations.info', { channel: channel.id }, { signal });
          const lastRead = (info.channel as { last_read?: unknown } | undefined)?.last_read;
          if (typeof lastRead !== 'string' || !lastRead)
            throw new ToolError(
              `channel_id: ${channelLabel(channel)} has no read marker for this token (it is not a member); read it with slack_get_channel_history`,
            );
          marker = lastRead;
        }
        const oldest = marker as string;
        return messagePage(config, {
          method: 'conversations.history',
          args: { channel: channel.id, limit, oldest },
          channel,
          key,
          cursor,
          repeat,
          maxBytes: LIST_MESSAGE_BYTES,
          heading: (n) => `${n} unread messages after read marker ${oldest}, newest first.`,
          carry: { m: oldest },
          signal,
        });
      },
    }),
  ];
  if (!config.postTo) return tools;
  const where = config.postTo.description === 'all' ? '' : ` Only in ${config.postTo.description}.`;
  tools.push(
    postTool(config, {
      name: 'slack_mark_read',
      title: 'Mark read',
      toolset: 'unread',
      description: `Move this token's read marker in a conversation to a message (default: the newest).${where}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        ts: arg.ts('Read up to this message ts').optional(),
      }),
      outputSchema: z.object({ channel: z.string(), ts: z.string() }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ channel_id, ts: raw }, { signal }) => {
        const channel = await resolveChannel(config, channel_id, signal, { post: true });
        let ts = raw === undefined ? undefined : arg.normalizeTs(raw, 'ts');
        if (!ts) {
          const history = await config.slack.call(
            'conversations.history',
            { channel: channel.id, limit: 1 },
            { signal },
          );
          const newest = Array.isArray(history.messages)
            ? (history.messages[0] as { ts?: unknown })
            : undefined;
          ts = typeof newest?.ts === 'string' ? newest.ts : undefined;
          if (!ts)
            return structuredResult(
              { channel: channel.id, ts: '' },
              `${channelLabel(channel)} has no messages to mark read.`,
            );
        }
        await config.slack.call('conversations.mark', { channel: channel.id, ts }, { write: true, signal });
        return structuredResult(
          { channel: channel.id, ts },
          `Marked ${channelLabel(channel)} read up to ${ts}.`,
        );
      },
    }),
  );
  return tools;
}

/**
 * One row per conversation of `ids` in `rows` (pushed as each is counted: progress reads its length):
 * the messages after the token's read marker, or why it was not counted.
 */
async function countUnread(
  config: Config,
  ids: readonly string[],
  rows: z.infer<typeof unreadShape>[],
  signal: AbortSignal,
) {
  let limited = false;
  for (const id of ids) {
    let info: SlackAnswer;
    try {
      info = await config.slack.call('conversations.info', { channel: id }, { signal });
    } catch (error) {
      rows.push({ channel: id, note: notCounted(error) });
      continue;
    }
    const ch = (info.channel ?? {}) as Record<string, unknown>;
    const name = typeof ch.name === 'string' ? ch.name : undefined;
    const lastRead = typeof ch.last_read === 'string' ? ch.last_read : undefined;
    if (!lastRead) {
      rows.push(compact({ channel: id, name, note: 'no read marker: the token is not a member' }));
      continue;
    }
    if (limited) {
      rows.push(
        compact({ channel: id, name, last_read: lastRead, note: 'not counted: history rate limited' }),
      );
      continue;
    }
    try {
      const history = await config.slack.call(
        'conversations.history',
        { channel: id, oldest: lastRead, limit: COUNT_LIMIT },
        { signal },
      );
      const n = Array.isArray(history.messages) ? history.messages.length : 0;
      rows.push(
        compact({
          channel: id,
          name,
          last_read: lastRead,
          unread: n,
          more: history.has_more === true || undefined,
        }),
      );
    } catch (error) {
      const ratelimited = error instanceof SlackApiError && error.reason === 'ratelimited';
      limited ||= ratelimited;
      const note = ratelimited ? 'not counted: history rate limited' : notCounted(error);
      rows.push(compact({ channel: id, name, last_read: lastRead, note }));
    }
  }
  const unread = rows.filter((r) => (r.unread ?? 0) > 0);
  const lines = rows.map(
    (r) =>
      `${r.name ? `#${r.name}` : r.channel} (${r.channel}): ${r.unread !== undefined ? `${r.unread}${r.more ? '+' : ''} unread` : r.note}`,
  );
  return structuredResult(
    { conversations: rows },
    [
      `${unread.length} of ${rows.length} conversation(s) have unread messages (this token's read marker; a bot's marker is its own).${limited ? ' conversations.history was rate limited (once a minute for apps off the Slack Marketplace): ask again later for the rest.' : ''}`,
      ...lines,
    ].join('\n'),
  );
}
