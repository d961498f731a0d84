/**
 * slack_search_messages (served only with SLACK_USER_TOKEN: search.messages takes user tokens
 * only): Slack's search syntax passed through, the channel filter normalised (`#general`,
 * `general` and `C…` name the same channel, added once as `in:#general`; an unknown one is an
 * error before any search), matches outside SLACK_CHANNEL_IDS dropped (case SL-03, SL-06).
 */
import {
  compact,
  counted,
  makeCursor,
  OPEN_WORLD_HINTS,
  queryKey,
  readCursor,
  ToolError,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import {
  fitPage,
  messageShape,
  peopleLine,
  type RawMessage,
  rawMessages,
  toMessage,
  usersOf,
} from '../format/messages.js';
import * as arg from '../names.js';
import type { SlackTool } from '../toolsets.js';
import { channelTool, LIST_MESSAGE_BYTES, PAGE_BYTES, resolveChannel, scopeNote } from './common.js';
import { pageOut } from './message-page.js';

interface RawMatch extends RawMessage {
  channel?: { id?: string; name?: string };
  permalink?: string;
}

const matchShape = messageShape.extend({ channel: z.string(), channelName: z.string().optional() });

export function searchTools(config: Config): SlackTool[] {
  const search = config.search;
  if (!search) return [];
  const { directory } = config;
  return [
    channelTool(config, {
      name: 'slack_search_messages',
      title: 'Search messages',
      toolset: 'search',
      description: `Search messages with Slack's search syntax (from:@name, before:2025-01-31, "phrase"), newest first.${scopeNote(config)}`,
      inputSchema: z.strictObject({
        query: arg.text('Search query', 1000),
        channel: arg.channel('Only this channel (ID or #name)').optional(),
        limit: arg.limit(20, 100),
        cursor: arg.cursor(),
      }),
      outputSchema: z.object({
        matches: z.array(matchShape),
        total: z.number().int().optional(),
        ...pageOut,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ query, channel, limit = 20, cursor }, { signal }) => {
        let filter = '';
        if (channel) {
          const c = await resolveChannel(config, channel, signal);
          const name = c.name ?? (await directory.nameOf(c.id, signal));
          filter = name ? ` in:#${name}` : ` in:<#${c.id}>`;
        }
        if (config.channels) await checkInModifiers(config, query, signal);
        const key = queryKey('search', { query, channel, limit });
        const page = readCursor<{ p?: number }>(cursor, key, 'the same query, channel and limit')?.p ?? 1;
        const answer = await search.call(
          'search.messages',
          { query: `${query.trim()}${filter}`, count: limit, page, sort: 'timestamp', sort_dir: 'desc' },
          { search: true, signal },
        );
        const found = (answer.messages ?? {}) as {
          matches?: RawMatch[];
          total?: number;
          paging?: { pages?: number };
          pagination?: { page_count?: number };
        };
        const all = rawMessages<RawMatch>(found.matches);
        const inScope = all.filter((m) => !config.channels || config.channels.allows(m.channel?.id ?? ''));
        for (const m of inScope) if (m.channel) directory.rememberChannel(m.channel);
        await directory.learnUsers(usersOf(inScope));
        const untrusted = new UntrustedText();
        const fitted = fitPage(
          inScope,
          (m) => {
            const id = m.channel?.id ?? '';
            const name = m.channel?.name;
            const message = toMessage(m, { channel: id, directory, untrusted, maxBytes: LIST_MESSAGE_BYTES });
            const link = m.permalink;
            return {
              ...message,
              channel: id,
              ...(name ? { channelName: untrusted.line(name, 100) } : {}),
              ...(link ? { permalink: link } : {}),
            };
          },
          PAGE_BYTES,
        );
        const pages = found.pagination?.page_count ?? found.paging?.pages ?? page;
        const nextCursor = page < Math.min(pages, 100) ? makeCursor(key, { p: page + 1 }) : undefined;
        // Under SLACK_CHANNEL_IDS Slack's counts include matches outside the fence: they would tell
        // whether fenced channels hold a phrase, so they are not passed on.
        const total = config.channels ? undefined : found.total;
        const lines = [
          config.channels
            ? `${counted(fitted.used, 'matches')} on page ${page}; only matches in SLACK_CHANNEL_IDS are shown.`
            : `${counted(fitted.used, 'matches')} on page ${page} of ${pages}${total !== undefined ? ` (${total} in all)` : ''}.`,
          ...fitted.messages.map(
            (m, i) => `${fitted.lines[i]} in #${'channelName' in m ? m.channelName : m.channel}`,
          ),
          peopleLine(fitted.messages),
          fitted.used < inScope.length
            ? `${counted(inScope.length - fitted.used, 'matches')} of this page did not fit.`
            : '',
          nextCursor ? 'More: call again with cursor.' : 'No more matches.',
        ].filter(Boolean);
        return respond(
          compact({
            matches: fitted.messages,
            total,
            hasMore: nextCursor !== undefined,
            nextCursor,
          }),
          lines,
          untrusted,
        );
      },
    }),
  ];
}

/**
 * Under SLACK_CHANNEL_IDS, every `in:` modifier of a query (`in:#hr`, `in:hr`, `in:<#C…|hr>`,
 * `in:C…`, `in:@alice` for a DM) must name a listed channel: otherwise a search's matches (dropped)
 * and page signal would still answer questions about a fenced channel. Errors: ToolError (not
 * found, outside SLACK_CHANNEL_IDS, or a DM), before any search.
 */
async function checkInModifiers(config: Config, query: string, signal: AbortSignal): Promise<void> {
  for (const [, target = ''] of query.matchAll(/(?<![\p{L}\p{N}_-])in:(\S+)/giu)) {
    const spec = target.replace(/^"|"$/g, '');
    const id = /^<#([A-Z0-9]+)(?:\|[^>]*)?>$/.exec(spec)?.[1];
    if (!id && !arg.CHANNEL_ID.test(spec) && !arg.CHANNEL_NAME.test(spec))
      throw new ToolError(
        `query: "in:${spec}" is not a channel of SLACK_CHANNEL_IDS (${config.channels?.description}); use the channel argument`,
      );
    await resolveChannel(config, id ?? spec, signal);
  }
}
