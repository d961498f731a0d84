/**
 * One page of conversations.history or conversations.replies as a tool result: Slack's page read,
 * the authors' names learnt (bounded in time), every message formatted as untrusted text, the
 * page fitted to its byte budget, and the cursor that continues — inside this Slack page when
 * the budget cut it (`{c: Slack's cursor of the page, s: messages already shown}`), else at
 * Slack's `next_cursor`.
 */
import { compact, makeCursor, readCursor, type ToolResult, truncationMarker } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import type { ChannelInfo } from '../directory.js';
import { fitPage, messageShape, peopleLine, rawMessages, toMessage, usersOf } from '../format/messages.js';
import { channelLabel, PAGE_BYTES } from './common.js';

/** The page fields every list result has. */
export const pageOut = {
  hasMore: z.boolean(),
  nextCursor: z.string().optional().describe('Pass as cursor for the next page'),
};

/** The output schema of a message page. */
export const messagesOut = z.object({
  channel: z.string(),
  messages: z.array(messageShape),
  ...pageOut,
  ...neutralizedField,
});

/** What one message page reads and how it is shown. */
export interface MessagePageRequest {
  method: 'conversations.history' | 'conversations.replies';
  /** The method's arguments but the cursor. */
  args: Record<string, unknown>;
  channel: ChannelInfo;
  /** The query key of the cursor (queryKey of the tool and its arguments). */
  key: string;
  cursor: string | undefined;
  /** What to repeat with a cursor, for its error ("the same channel_id and limit"). */
  repeat: string;
  /** Largest text of one message, in bytes. */
  maxBytes: number;
  /** The first line, given how many messages are shown. */
  heading: (shown: number) => string;
  /** On pages after the first, a message with this ts is dropped (the thread parent Slack repeats). */
  dropTsAfterFirst?: string;
  /** Kept in every cursor this page issues (what the first page fixed, e.g. the read marker). */
  carry?: Record<string, string>;
  signal: AbortSignal;
}

/** One message page as a tool result (module comment). Errors: as SlackClient.call, and a foreign cursor. */
export async function messagePage(config: Config, r: MessagePageRequest): Promise<ToolResult> {
  const { directory } = config;
  const pos = readCursor<{ c?: string; s?: number }>(r.cursor, r.key, r.repeat);
  const answer = await config.slack.call(
    r.method,
    { ...r.args, cursor: pos?.c || undefined },
    { signal: r.signal },
  );
  const later = Boolean(pos?.c);
  const raw = rawMessages(answer.messages)
    .filter((m) => !(later && r.dropTsAfterFirst && m.ts === r.dropTsAfterFirst))
    .slice(pos?.s ?? 0);
  const [workspace] = await Promise.all([directory.workspaceUrl(), directory.learnUsers(usersOf(raw))]);
  const untrusted = new UntrustedText();
  const id = r.channel.id;
  const page = fitPage(
    raw,
    (m) =>
      toMessage(m, {
        channel: id,
        directory,
        untrusted,
        maxBytes: r.maxBytes,
        ...(workspace ? { workspace } : {}),
      }),
    PAGE_BYTES,
    r.method === 'conversations.replies',
  );
  const slackNext = answer.response_metadata?.next_cursor || undefined;
  const cut = page.used < raw.length;
  const nextCursor = cut
    ? makeCursor(r.key, { ...r.carry, c: pos?.c ?? '', s: (pos?.s ?? 0) + page.used })
    : slackNext
      ? makeCursor(r.key, { ...r.carry, c: slackNext, s: 0 })
      : undefined;
  const tail = cut
    ? truncationMarker(
        `${raw.length - page.used} more messages of this page did not fit`,
        'call again with cursor',
      )
    : nextCursor
      ? 'More messages: call again with cursor.'
      : 'No more messages.';
  return respond(
    compact({ channel: id, messages: page.messages, hasMore: nextCursor !== undefined, nextCursor }),
    [
      `${channelLabel(r.channel)}: ${r.heading(page.used)}`,
      ...page.lines,
      peopleLine(page.messages),
      tail,
    ].filter(Boolean),
    untrusted,
  );
}
