/**
 * Channels: slack_list_channels, slack_get_channel_history and slack_get_thread_replies (the
 * reference's names and arguments; cursors on all three, time windows on history). Every page is
 * bounded in bytes; a page cut short says so and its cursor continues inside it.
 */
import {
  compact,
  counted,
  defineTool,
  makeCursor,
  OPEN_WORLD_HINTS,
  queryKey,
  readCursor,
  ToolError,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { channelShape, renderChannel, toChannel } from '../format/channels.js';
import * as arg from '../names.js';
import type { SlackTool } from '../toolsets.js';
import {
  channelTool,
  LIST_MESSAGE_BYTES,
  resolveChannel,
  scopeNote,
  THREAD_MESSAGE_BYTES,
} from './common.js';
import { messagePage, messagesOut, pageOut } from './message-page.js';

export function channelTools(config: Config): SlackTool[] {
  const scope = scopeNote(config);
  const { directory } = config;

  return [
    defineTool({
      name: 'slack_list_channels',
      title: 'List channels',
      toolset: 'channels',
      description: `List channels the token can see (default: not DMs).${scope}`,
      inputSchema: z.strictObject({
        limit: arg.limit(100, 200),
        cursor: arg.cursor(),
        types: arg.conversationTypes(),
      }),
      outputSchema: z.object({ channels: z.array(channelShape), ...pageOut, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ limit = 100, cursor, types }, { signal }) => {
        // The default (no types) keeps the reference's query, and its cursors, as they were.
        const asked = types ? [...new Set(types)].sort() : undefined;
        const key = queryKey('channels', asked ? { limit, types: asked } : { limit });
        const repeat = asked ? 'the same limit and types' : 'the same limit';
        const untrusted = new UntrustedText();
        let raws: Record<string, unknown>[];
        let nextCursor: string | undefined;
        if (config.channels) {
          // Only the listed channels, each by conversations.info (as the reference did), paged.
          const start = readCursor<{ o?: number }>(cursor, key, repeat)?.o ?? 0;
          const ids = config.channels.ids.slice(start, start + limit);
          const infos = await Promise.all(
            ids.map((id) => directory.info(id, signal).catch(() => ({ id, missing: true }))),
          );
          raws = infos.filter(
            (c) => !('missing' in c) && (!asked || asked.includes(arg.conversationType(c))),
          );
          if (start + limit < config.channels.ids.length) nextCursor = makeCursor(key, { o: start + limit });
        } else {
          const pos = readCursor<{ t?: string }>(cursor, key, repeat);
          const answer = await config.slack.call(
            'conversations.list',
            {
              types: (asked ?? arg.DEFAULT_CONVERSATION_TYPES).join(','),
              exclude_archived: true,
              limit,
              cursor: pos?.t,
            },
            { signal },
          );
          raws = (answer.channels as Record<string, unknown>[] | undefined) ?? [];
          for (const c of raws) directory.rememberChannel(c);
          const next = answer.response_metadata?.next_cursor;
          if (next) nextCursor = makeCursor(key, { t: next });
        }
        // DMs are shown by the other person's name (users cache; ids when not known in time).
        const dmUsers = raws.flatMap((c) => (c.is_im && typeof c.user === 'string' ? [c.user] : []));
        if (dmUsers.length) await directory.learnUsers(dmUsers);
        const channels = raws.map((c) => toChannel(c, untrusted, (id) => directory.userName(id)));
        return respond(
          compact({ channels, hasMore: nextCursor !== undefined, nextCursor }),
          [
            ...channels.map(renderChannel),
            nextCursor
              ? `${counted(channels.length, 'channels')}; more: call again with cursor.`
              : `${counted(channels.length, 'channels')}; no more.`,
          ],
          untrusted,
        );
      },
    }),

    channelTool(config, {
      name: 'slack_get_channel_history',
      title: 'Get channel history',
      toolset: 'channels',
      description: `Recent messages in a channel.${scope}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        limit: arg.limit(10, 200),
        oldest: arg.timeBound('After this ts').optional(),
        latest: arg.timeBound('Before this ts').optional(),
        cursor: arg.cursor(),
      }),
      outputSchema: messagesOut,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ channel_id, limit = 10, oldest, latest, cursor }, { signal }) => {
        const channel = await resolveChannel(config, channel_id, signal);
        return messagePage(config, {
          method: 'conversations.history',
          args: compact({ channel: channel.id, limit, oldest, latest }),
          channel,
          key: queryKey('history', { id: channel.id, limit, oldest, latest }),
          cursor,
          repeat: 'the same channel_id, limit, oldest and latest',
          maxBytes: LIST_MESSAGE_BYTES,
          heading: (n) => `${n} messages, newest first.`,
          signal,
        });
      },
    }),

    channelTool(config, {
      name: 'slack_get_thread_replies',
      title: 'Get thread replies',
      toolset: 'channels',
      description: `A thread's parent message and replies.${scope}`,
      inputSchema: z.strictObject({
        channel_id: arg.channel(),
        thread_ts: arg.ts('Parent message ts'),
        limit: arg.limit(100, 200),
        cursor: arg.cursor(),
      }),
      outputSchema: messagesOut,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ channel_id, thread_ts, limit = 100, cursor }, { signal }) => {
        const ts = arg.normalizeTs(thread_ts, 'thread_ts');
        const channel = await resolveChannel(config, channel_id, signal);
        return messagePage(config, {
          method: 'conversations.replies',
          args: { channel: channel.id, ts, limit },
          channel,
          key: queryKey('replies', { id: channel.id, ts, limit }),
          cursor,
          repeat: 'the same channel_id, thread_ts and limit',
          maxBytes: THREAD_MESSAGE_BYTES,
          heading: (n) => `thread ${ts}, ${n} messages.`,
          // Slack repeats the parent on later pages (or not): it is shown on the first page only.
          dropTsAfterFirst: ts,
          signal,
        });
      },
    }),

    defineTool({
      name: 'slack_get_message',
      title: 'Get message by link',
      toolset: 'channels',
      description: `Read the message a Slack link points to, with its thread.${scope}`,
      inputSchema: z.strictObject({
        permalink: arg.text('https://….slack.com/archives/C…/p…', 2048),
        cursor: arg.cursor(),
      }),
      outputSchema: messagesOut,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ permalink, cursor }, { signal }) => {
        const link = parsePermalink(permalink);
        // A link of another workspace names a channel id of that workspace, not of this one.
        const workspace = await directory.workspaceUrl();
        if (workspace && new URL(workspace).host !== link.host)
          throw new ToolError(
            `permalink: the link is to ${link.host}, not to this server's workspace ${new URL(workspace).host}`,
          );
        // The fence is checked on the link's channel before anything of it is read.
        const channel = await resolveChannel(config, link.channel, signal);
        return messagePage(config, {
          method: 'conversations.replies',
          args: { channel: channel.id, ts: link.threadTs, limit: 100 },
          channel,
          key: queryKey('permalink', { id: channel.id, ts: link.threadTs }),
          cursor,
          repeat: 'the same permalink',
          maxBytes: THREAD_MESSAGE_BYTES,
          heading: (n) =>
            `message ${link.ts}${link.threadTs !== link.ts ? `, a reply in thread ${link.threadTs}` : ''}; ${n} messages of its thread.`,
          dropTsAfterFirst: link.threadTs,
          signal,
        });
      },
    }),
  ];
}

/**
 * A message permalink (`https://team.slack.com/archives/C0123/p1700000000000100`, with
 * `?thread_ts=1700000000.000050&cid=C0123` on replies): its host, channel, ts and thread. Errors:
 * ToolError for anything else.
 */
export function parsePermalink(value: string): {
  host: string;
  channel: string;
  ts: string;
  threadTs: string;
} {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ToolError('permalink: not a URL; copy the message link from Slack (More actions → Copy link)');
  }
  const m = /\/archives\/([CGD][A-Z0-9]{2,})\/p(\d{7,18})\/?$/.exec(url.pathname);
  if (!m || !/^https?:$/.test(url.protocol))
    throw new ToolError('permalink: not a Slack message link (…/archives/<channel>/p<digits>)');
  const ts = arg.normalizeTs(m[2] ?? '', 'permalink');
  const thread = url.searchParams.get('thread_ts');
  return {
    host: url.host,
    channel: m[1] ?? '',
    ts,
    threadTs: thread ? arg.normalizeTs(thread, 'permalink thread_ts') : ts,
  };
}
