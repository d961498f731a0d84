// conversations.list, .info, .history and .replies of the fake Slack: visibility (public channels
// to everyone, the rest to members), bot membership (`not_in_channel`), scopes by conversation
// kind, time windows (`oldest`/`latest`/`inclusive`), and `response_metadata.next_cursor` pages.
import { cursorPage } from '../../fake-api/index.js';
import type { FakeSlack } from './fake-slack.js';
import {
  bool,
  fail,
  int,
  need,
  requireScopes,
  type SlackArgs,
  type SlackCaller,
  slackError,
  str,
} from './http.js';
import { channelObject, messageObject } from './objects.js';
import type { ChannelRecord, ConversationKind, MessageRecord } from './state.js';

const TYPE_OF: Record<string, ConversationKind> = {
  public_channel: 'public',
  private_channel: 'private',
  im: 'im',
  mpim: 'mpim',
};
const SCOPE_PREFIX: Record<ConversationKind, string> = {
  public: 'channels',
  private: 'groups',
  im: 'im',
  mpim: 'mpim',
};

/** The `<prefix>:<what>` scope conversation `c` needs (channels:history, groups:read, …). */
export const scopeFor = (kind: ConversationKind, what: 'read' | 'history'): string =>
  `${SCOPE_PREFIX[kind]}:${what}`;

/** The conversation `id` as the caller may see it; `channel_not_found` otherwise. */
export function visibleChannel(slack: FakeSlack, id: string | undefined, who: SlackCaller): ChannelRecord {
  const c = id ? slack.state.channels.get(id) : undefined;
  if (!c || !slack.state.canSee(c, who.user.id)) fail('channel_not_found');
  return c;
}

/** A conversation a bot must be in (`not_in_channel`) to read or react; users read public ones without joining. */
export function joinedChannel(slack: FakeSlack, id: string | undefined, who: SlackCaller): ChannelRecord {
  const c = visibleChannel(slack, id, who);
  if (who.record.kind === 'bot' && !c.members.has(who.user.id)) fail('not_in_channel');
  return c;
}

/** A readable conversation: visible, the kind's history scope held, no scripted error for `method`, and (bots) a member. */
export function readableChannel(
  slack: FakeSlack,
  args: SlackArgs,
  who: SlackCaller,
  method: string,
): ChannelRecord {
  const c = visibleChannel(slack, need(args, 'channel', 'channel_not_found'), who);
  requireScopes(who, [scopeFor(c.kind, 'history')]);
  const scripted = c.errors?.[method];
  if (scripted) {
    const { error, ...extra } = scripted;
    fail(error, extra);
  }
  return joinedChannel(slack, c.id, who);
}

/** Limit of a history/replies page: `fallback` by default, at most `max` (lower when the fake caps pages). */
function messageLimit(slack: FakeSlack, args: SlackArgs, fallback: number, max: number): number {
  const cap = slack.messageLimitCap;
  const asked = int(args, 'limit', 'invalid_limit');
  const limit = asked === undefined || asked <= 0 ? (cap ?? fallback) : asked;
  return Math.min(limit, cap ?? max, max);
}

/** Messages of `list` inside the window `oldest`..`latest` (exclusive unless `inclusive`). */
function inWindow(list: MessageRecord[], args: SlackArgs): MessageRecord[] {
  const oldest = Number(str(args, 'oldest') ?? 0);
  const latest = Number(str(args, 'latest') ?? Number.POSITIVE_INFINITY);
  const inclusive = bool(args, 'inclusive', false);
  return list.filter((m) => {
    const t = Number(m.ts);
    return inclusive ? t >= oldest && t <= latest : t > oldest && t < latest;
  });
}

const invalidCursor = () => slackError('invalid_cursor');

/** The thread parent of reply `m` in `c`. */
const parentOf = (c: ChannelRecord, m: MessageRecord) => c.messages.find((p) => p.ts === m.threadTs);

export function registerConversationRoutes(slack: FakeSlack): void {
  const { state } = slack;

  slack.method(
    'conversations.list',
    (_req, args, who) => {
      const kinds = (str(args, 'types') ?? 'public_channel').split(',').map((t) => t.trim());
      if (kinds.some((t) => !TYPE_OF[t])) fail('invalid_types');
      const wanted = kinds.map((t) => TYPE_OF[t] as ConversationKind);
      requireScopes(who, [...new Set(wanted.map((k) => scopeFor(k, 'read')))]);
      const excludeArchived = bool(args, 'exclude_archived', false);
      const all = [...state.channels.values()].filter(
        (c) => wanted.includes(c.kind) && state.canSee(c, who.user.id) && !(excludeArchived && c.archived),
      );
      const limit = int(args, 'limit', 'invalid_limit');
      const page = cursorPage(all, {
        cursor: str(args, 'cursor'),
        limit,
        defaultLimit: 100,
        maxLimit: 1000,
        invalid: invalidCursor,
      });
      return {
        body: {
          ok: true,
          channels: page.items.map((c) => channelObject(c, who.user.id)),
          response_metadata: { next_cursor: page.next ?? '' },
        },
      };
    },
    ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  );

  slack.method(
    'conversations.info',
    (_req, args, who) => {
      const c = visibleChannel(slack, need(args, 'channel', 'channel_not_found'), who);
      requireScopes(who, [scopeFor(c.kind, 'read')]);
      // A member's read marker (`last_read`); Slack's current conversations.info has no unread count.
      const lastRead = c.members.has(who.user.id)
        ? { last_read: c.lastRead?.get(who.user.id) ?? '0000000000.000000' }
        : {};
      return {
        body: { ok: true, channel: { ...channelObject(c, who.user.id, { info: true }), ...lastRead } },
      };
    },
    ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  );

  slack.method(
    'conversations.mark',
    (_req, args, who) => {
      const c = visibleChannel(slack, need(args, 'channel', 'channel_not_found'), who);
      const kind = { public: 'channels', private: 'groups', im: 'im', mpim: 'mpim' }[c.kind];
      requireScopes(who, [`${kind}:write`]);
      if (!c.members.has(who.user.id)) fail('not_in_channel');
      const ts = need(args, 'ts', 'invalid_timestamp');
      if (!/^\d{10}\.\d{6}$/.test(ts)) fail('invalid_timestamp');
      c.lastRead ??= new Map();
      c.lastRead.set(who.user.id, ts);
      return { body: { ok: true } };
    },
    ['channels:write', 'groups:write', 'im:write', 'mpim:write'],
  );

  slack.method(
    'conversations.history',
    (_req, args, who) => {
      const c = readableChannel(slack, args, who, 'conversations.history');
      const messages = inWindow(c.messages, args).reverse(); // newest first
      const page = cursorPage(messages, {
        cursor: str(args, 'cursor'),
        limit: messageLimit(slack, args, 100, 999),
        defaultLimit: 100,
        invalid: invalidCursor,
      });
      return {
        body: {
          ok: true,
          messages: page.items.map((m) =>
            messageObject(m, state, { parent: m.broadcast ? parentOf(c, m) : undefined, inHistory: true }),
          ),
          has_more: page.next !== undefined,
          pin_count: 0,
          channel_actions_count: 0,
          ...(str(args, 'oldest') ? { oldest: str(args, 'oldest') } : {}),
          ...(str(args, 'latest') ? { latest: str(args, 'latest') } : {}),
          ...(page.next ? { response_metadata: { next_cursor: page.next } } : {}),
        },
      };
    },
    ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  );

  slack.method(
    'conversations.replies',
    (_req, args, who) => {
      const c = readableChannel(slack, args, who, 'conversations.replies');
      const ts = need(args, 'ts', 'thread_not_found');
      const parent = c.messages.find((m) => m.ts === ts && !(m.threadTs && m.threadTs !== m.ts));
      if (!parent) fail('thread_not_found');
      // The parent leads every page (or only the first: slack.repliesParent); the cursor walks the replies.
      const lead = slack.repliesParent === 'every-page' || !str(args, 'cursor');
      const page = cursorPage(inWindow(parent.replies, args), {
        cursor: str(args, 'cursor'),
        limit: Math.max(1, messageLimit(slack, args, 1000, 1000) - 1),
        defaultLimit: 1000,
        invalid: invalidCursor,
      });
      return {
        body: {
          ok: true,
          messages: [
            ...(lead ? [messageObject(parent, state)] : []),
            ...page.items.map((r) => messageObject(r, state, { parent })),
          ],
          has_more: page.next !== undefined,
          ...(page.next ? { response_metadata: { next_cursor: page.next } } : {}),
        },
      };
    },
    ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  );
}
