/**
 * Messages as the model reads them: who (name and id), when (ts, the message's id in its
 * channel), the text — with the words of its blocks and attachments (format/rich.ts) — with
 * Slack's markup resolved and neutralised as untrusted content, thread
 * facts, reactions, files by name, and the permalink (built from the workspace URL as Slack builds
 * them: `<workspace>/archives/<channel>/p<ts without dot>`, `?thread_ts=…&cid=…` on replies).
 * Also the page walk every message list shares: a byte budget over the page, with the position to
 * continue from when it runs out (a huge page from Slack too).
 */

import { count } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import type { Directory } from '../directory.js';
import { fileLabel } from './files.js';
import { mentionedUsers } from './mrkdwn.js';
import { messageBody, richUsers } from './rich.js';

/** Slack's message object, read leniently (fields go missing). */
export interface RawMessage {
  ts?: string;
  user?: string;
  bot_id?: string;
  username?: string;
  bot_profile?: { name?: string };
  subtype?: string;
  text?: string;
  thread_ts?: string;
  reply_count?: number;
  reactions?: { name?: string; count?: number }[];
  files?: {
    id?: string;
    name?: string;
    title?: string;
    filetype?: string;
    mimetype?: string;
    size?: number;
  }[];
  edited?: unknown;
  /** Block Kit blocks and secondary attachments: read by format/rich.ts. */
  blocks?: unknown[];
  attachments?: unknown[];
}

export const messageShape = z.object({
  ts: z.string().describe('Message timestamp: its ID in the channel (thread_ts for replies to it)'),
  user: z.string().optional().describe('Author user ID'),
  author: z.string().optional().describe('Author name'),
  text: z.string(),
  threadTs: z.string().optional().describe('Parent ts when in a thread'),
  replyCount: count().optional(),
  reactions: z.string().optional().describe('e.g. "eyes 2, +1 1"'),
  files: z.array(z.string()).optional(),
  subtype: z.string().optional(),
  permalink: z.string().optional(),
});

export type Message = z.infer<typeof messageShape>;

const STRING_FIELDS = ['ts', 'user', 'bot_id', 'username', 'subtype', 'text', 'thread_ts'] as const;

/**
 * The messages of an answer's array field (`messages`, `matches`), read defensively: a value that
 * is not an array gives none, entries that are not objects are dropped, and the string fields
 * Slack documents (`ts`, `text`, …) are dropped when they hold anything else, so an odd answer is
 * shown as far as it makes sense instead of failing the call.
 */
export function rawMessages<R extends RawMessage = RawMessage>(value: unknown): R[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m))
    .map((m) => {
      const copy: Record<string, unknown> = { ...m };
      for (const field of STRING_FIELDS)
        if (field in copy && typeof copy[field] !== 'string') delete copy[field];
      for (const field of ['reactions', 'files', 'blocks', 'attachments'] as const)
        if (field in copy && !Array.isArray(copy[field])) delete copy[field];
      if (typeof copy.reply_count !== 'number') delete copy.reply_count;
      return copy as R;
    });
}

/** Ids of the authors and mentioned users of `raw` messages (to learn their names first). */
export function usersOf(raw: RawMessage[]): string[] {
  return raw.flatMap((m) => [...(m.user ? [m.user] : []), ...mentionedUsers(m.text ?? ''), ...richUsers(m)]);
}

/** Permalink of message `ts` in `channel` under workspace URL `base` (`https://team.slack.com/`). */
export function permalink(base: string, channel: string, ts: string, threadTs?: string): string {
  const url = `${base.replace(/\/+$/, '')}/archives/${channel}/p${ts.replace('.', '')}`;
  return threadTs && threadTs !== ts ? `${url}?thread_ts=${threadTs}&cid=${channel}` : url;
}

/** One message for the model; `maxBytes` bounds its text (marker says how to read it whole). */
export function toMessage(
  raw: RawMessage,
  ctx: {
    channel: string;
    directory: Directory;
    untrusted: UntrustedText;
    workspace?: string;
    maxBytes: number;
  },
): Message {
  const { directory, untrusted } = ctx;
  const ts = raw.ts ?? '';
  const names = {
    user: (id: string) => directory.userName(id),
    channel: (id: string) => directory.channelName(id),
  };
  const author = raw.user ? directory.userName(raw.user) : raw.bot_profile?.name || raw.username;
  const more = raw.thread_ts
    ? `read it alone with slack_get_thread_replies (thread_ts ${raw.thread_ts}, limit 1)`
    : 'the message is longer than a list shows';
  const reactions = (raw.reactions ?? [])
    .filter((r) => r.name)
    .map((r) => `${r.name} ${r.count ?? 1}`)
    .join(', ');
  const files = (raw.files ?? []).map(fileLabel(untrusted));
  return {
    ts,
    ...(raw.user ? { user: raw.user } : {}),
    ...(author ? { author: untrusted.line(author, 200) } : {}),
    // Text, blocks and attachments (an integration's words are often only in the last two).
    text: untrusted.clean(messageBody(raw, names, ctx.maxBytes * 2), ctx.maxBytes, more),
    ...(raw.thread_ts ? { threadTs: raw.thread_ts } : {}),
    ...(raw.reply_count ? { replyCount: raw.reply_count } : {}),
    ...(reactions ? { reactions: untrusted.line(reactions, 1000) } : {}),
    ...(files.length ? { files } : {}),
    ...(raw.subtype ? { subtype: raw.subtype } : {}),
    ...(ctx.workspace && ts ? { permalink: permalink(ctx.workspace, ctx.channel, ts, raw.thread_ts) } : {}),
  };
}

/** One message as a text line (or a few: multi-line text indented). */
export function renderMessage(m: Message, inThread = false): string {
  const who = m.author ?? m.user ?? 'unknown';
  const facts = [
    m.replyCount ? `${m.replyCount} replies` : '',
    !inThread && m.threadTs && m.threadTs !== m.ts ? `in thread ${m.threadTs}` : '',
    m.reactions ? `reactions: ${m.reactions}` : '',
    m.files ? `files: ${m.files.join(', ')}` : '',
    m.subtype ? m.subtype : '',
  ].filter(Boolean);
  const text = m.text.includes('\n') ? `\n  ${m.text.replace(/\n/g, '\n  ')}` : ` ${m.text}`;
  return `[${m.ts}] ${who}:${text}${facts.length ? ` (${facts.join('; ')})` : ''}`;
}

/** "People: alice U0ALICE, bob U0BOB." — each named author's ID once (the lines show names only). */
export function peopleLine(messages: Message[]): string {
  const people = new Map<string, string>();
  for (const m of messages) if (m.author && m.user) people.set(m.user, m.author);
  return people.size ? `People: ${[...people].map(([id, name]) => `${name} ${id}`).join(', ')}.` : '';
}

/**
 * Formats `raw` in order until the page's text would pass `budgetBytes`: returns the messages
 * and lines that fit (at least one) and how many of `raw` were used.
 */
export function fitPage<R extends RawMessage, M extends Message>(
  raw: R[],
  format: (m: R) => M,
  budgetBytes: number,
  inThread = false,
): { messages: M[]; lines: string[]; used: number } {
  const messages: M[] = [];
  const lines: string[] = [];
  let bytes = 0;
  for (const m of raw) {
    const message = format(m);
    const line = renderMessage(message, inThread);
    const size = Buffer.byteLength(line, 'utf8') * 2 + 64; // the text line and its structured twin
    if (messages.length > 0 && bytes + size > budgetBytes) break;
    bytes += size;
    messages.push(message);
    lines.push(line);
  }
  return { messages, lines, used: messages.length };
}
