/**
 * Slack's identifier rules, checked before any request (api.slack.com/docs/conversations-api,
 * "Timestamps" in the Messaging docs): conversation ids (`C…` public or private, `G…` older private
 * channels and group DMs, `D…` DMs), channel names (`#general` or `general`: lower-case letters,
 * digits, `-`, `_`, `.`; at most 80), user ids (`U…`, `W…` on Enterprise Grid), message timestamps
 * ("1700000000.000100", the message's id within its channel), emoji names, and the page arguments.
 */
import { ToolError } from '@refmcp/shared';
import { advertisedAs, safeString, z } from '@refmcp/shared/schema';

/** A conversation id: C, G or D, then upper-case letters and digits. */
export const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;
/** A channel name as Slack allows it (new names are lower-case; old ones may not be). */
export const CHANNEL_NAME = /^#?[\p{L}\p{N}_.-]{1,80}$/u;
/** A user id: U or W, then upper-case letters and digits. */
export const USER_ID = /^[UW][A-Z0-9]{2,}$/;
/** A message timestamp: seconds, a dot, six digits of microseconds. */
export const MESSAGE_TS = /^\d{1,12}\.\d{6}$/;

/** A person by handle or display name: `@alice`, `@Alice Example` (DMs and user arguments). */
export const USER_NAME = /^@[\p{L}\p{N}_.' -]{1,80}$/u;
/** An email address (a user, looked up by Slack's users.lookupByEmail or the directory). */
export const EMAIL = /^[^\s@<>]{1,64}@[^\s@<>]{1,190}\.[^\s@<>]{1,63}$/;

/** True for `@name` or an email: a person, not a channel. */
export const isPersonRef = (value: string): boolean => USER_NAME.test(value) || EMAIL.test(value);

/** True for a conversation id (C…, G…, D…). */
export const isChannelId = (value: string): boolean => CHANNEL_ID.test(value);

/** `#general`, `general` → `general`; an id stays as is. */
export const bareChannelName = (value: string): string => value.replace(/^#/, '');

/** A conversation by id (`C0123ABCD`), name (`#general`, `general`), or a person (`@alice`, email: the DM with them). */
export const channel = (description = 'Channel ID, #name, or @user for a DM') =>
  safeString({ max: 300 })
    .refine((v) => CHANNEL_ID.test(v) || CHANNEL_NAME.test(v) || isPersonRef(v), {
      message:
        'must be a channel ID (C…, G…, D…), a channel name such as #general, or @name / an email for a DM',
    })
    .describe(description);

/** conversations.list's `types` values (Slack's terms): channels, private channels, group DMs, DMs. */
export const CONVERSATION_TYPES = ['public_channel', 'private_channel', 'mpim', 'im'] as const;
export type ConversationType = (typeof CONVERSATION_TYPES)[number];
/** What slack_list_channels lists without `types` (as the reference did: no scope beyond channels/groups:read). */
export const DEFAULT_CONVERSATION_TYPES: readonly ConversationType[] = ['public_channel', 'private_channel'];

/** The `types` argument: a non-empty list of {@link CONVERSATION_TYPES}. */
export const conversationTypes = () =>
  // Slack's own values name themselves (the default, both kinds of channel, is in the tool's
  // description); a missing im:read/mpim:read scope is explained by the error. Advertised without
  // its bounds (enforced all the same): every byte of a default tool is sent every turn.
  advertisedAs(z.array(z.enum(CONVERSATION_TYPES)).min(1).max(CONVERSATION_TYPES.length), {
    type: 'array',
    items: { type: 'string', enum: [...CONVERSATION_TYPES] },
  }).optional();

/** The `types` value a conversations.info / .list object is of (`is_im`, `is_mpim`, `is_private`). */
export function conversationType(raw: Record<string, unknown>): ConversationType {
  return raw.is_im ? 'im' : raw.is_mpim ? 'mpim' : raw.is_private ? 'private_channel' : 'public_channel';
}

/** A user: id (U…, W…), `@name` (handle, display or real name) or email. */
export const userId = (description = 'User ID, @name or email') =>
  safeString({ max: 300 })
    .refine((v) => USER_ID.test(v) || isPersonRef(v), {
      message: 'must be a Slack user ID such as U0123ABCD, @name, or an email address',
    })
    .describe(description);

/**
 * A message timestamp. Slack's own 16 digits without the dot are accepted and the dot put back
 * (the reference's description told models to do that conversion themselves).
 */
export function normalizeTs(value: string, name: string): string {
  const v = value.trim();
  if (MESSAGE_TS.test(v)) return v;
  if (/^\d{7,18}$/.test(v)) return `${v.slice(0, -6)}.${v.slice(-6)}`;
  throw new ToolError(`${name}: must be a Slack message timestamp such as 1700000000.000100`);
}

/** A message timestamp argument (checked by {@link normalizeTs} in the handler). */
export const ts = (description: string) =>
  safeString({ max: 100 })
    .refine((v) => /^\d{1,12}\.?\d{6}$/.test(v), {
      message: 'must be a Slack message timestamp such as 1700000000.000100',
    })
    .describe(description);

/** A time bound of history: a message ts or Unix seconds. */
export const timeBound = (description: string) =>
  safeString({ max: 100 })
    .refine((v) => /^\d{1,12}(\.\d{1,6})?$/.test(v), {
      message: 'must be Unix seconds or a message timestamp such as 1700000000.000100',
    })
    .describe(description);

/** An emoji name without colons (`thumbsup`, `+1`, `skin-tone-2`). */
export const emoji = () =>
  safeString({ max: 100 })
    .refine((v) => EMOJI.test(v), { message: 'must be an emoji name such as thumbsup (without colons)' })
    .describe('Emoji name, e.g. thumbsup');

/** An emoji name, with or without the colons around it (they are dropped before sending). */
export const EMOJI = /^:?[a-z0-9_+'-]+(::skin-tone-[2-6])?:?$/;

/** A page size between 1 and `max` (the range said once, in the description; still enforced). */
export const limit = (fallback: number, max: number) => {
  const description = `1-${max}, default ${fallback}`;
  return advertisedAs(z.number().int().min(1).max(max), { type: 'integer', description })
    .optional()
    .describe(description);
};

/** The continuation cursor every list takes. */
// No description: each result says to call again with cursor = nextCursor, and so do the instructions.
export const cursor = () => safeString({ max: 8192 }).optional();

/** Text written by the model (messages, queries): bounded, no NUL or lone surrogates. */
export const text = (description: string, max = 40_000) =>
  safeString({ max })
    .refine((v) => v.trim().length > 0, { message: 'must not be empty' })
    .describe(description);
