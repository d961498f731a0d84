// The fake Slack's wire shapes: conversations, users, profiles, messages and search matches as the
// Web API answers them — only fields @slack/web-api's response types (recorded from real
// answers) carry, which the spec check enforces.
import type { ChannelRecord, FileRecord, MessageRecord, SlackState, UserRecord } from './state.js';

type Json = Record<string, unknown>;

/**
 * A conversation as conversations.list / conversations.info answer it, seen by `viewer`. A DM in
 * conversations.info (`info`) has only the fields its recorded type has (no `user`, `priority`,
 * `is_user_deleted`: @slack/web-api's type for that method was recorded from channels).
 */
export function channelObject(c: ChannelRecord, viewer: string, o: { info?: boolean } = {}): Json {
  if (c.kind === 'im')
    return {
      id: c.id,
      created: c.created,
      is_im: true,
      is_org_shared: false,
      ...(o.info ? {} : { ...(c.imUser ? { user: c.imUser } : {}), is_user_deleted: false, priority: 0 }),
    };
  return {
    id: c.id,
    name: c.name,
    is_channel: c.kind === 'public' || c.kind === 'private',
    is_group: false,
    is_im: false,
    is_mpim: c.kind === 'mpim',
    is_private: c.kind !== 'public',
    created: c.created,
    is_archived: c.archived,
    is_general: c.isGeneral,
    unlinked: 0,
    name_normalized: c.name,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: 'T0TEAM',
    updated: c.created * 1000,
    creator: c.creator,
    is_ext_shared: false,
    shared_team_ids: ['T0TEAM'],
    pending_connected_team_ids: [],
    is_member: c.members.has(viewer),
    topic: { value: c.topic, creator: c.topic ? c.creator : '', last_set: c.topic ? c.created : 0 },
    purpose: { value: c.purpose, creator: c.purpose ? c.creator : '', last_set: c.purpose ? c.created : 0 },
    previous_names: [],
    num_members: c.members.size,
  };
}

/**
 * A user's profile: `profile` of users.list / users.info, or (`own`) users.profile.get's, whose
 * type has no `team`, `bot_id` or `api_app_id`.
 */
export function profileObject(u: UserRecord, state: SlackState, own = false): Json {
  const avatar = (size: number) => `https://avatars.example.com/${u.id}_${size}.png`;
  return {
    title: u.title,
    phone: '',
    skype: '',
    real_name: u.realName,
    real_name_normalized: u.realName,
    display_name: u.displayName,
    display_name_normalized: u.displayName,
    status_text: '',
    status_emoji: '',
    status_expiration: 0,
    avatar_hash: `g${u.id.toLowerCase()}`,
    ...(u.email ? { email: u.email } : {}),
    ...(u.botId ? { always_active: true } : {}),
    ...(u.botId && !own ? { bot_id: u.botId, api_app_id: state.appId } : {}),
    first_name: u.realName.split(' ')[0] ?? u.realName,
    last_name: u.realName.split(' ').slice(1).join(' '),
    image_24: avatar(24),
    image_32: avatar(32),
    image_48: avatar(48),
    image_72: avatar(72),
    image_192: avatar(192),
    image_512: avatar(512),
    ...(own ? {} : { team: state.team.id }),
  };
}

/** A user as users.list / users.info answer it. */
export function userObject(u: UserRecord, state: SlackState): Json {
  return {
    id: u.id,
    team_id: state.team.id,
    name: u.name,
    deleted: u.deleted,
    color: '9f69e7',
    real_name: u.realName,
    tz: u.tz,
    tz_label: 'Greenwich Mean Time',
    tz_offset: 0,
    profile: profileObject(u, state),
    is_admin: u.isAdmin,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: u.isBot,
    is_app_user: false,
    updated: 1_600_000_000,
    is_email_confirmed: !u.isBot,
    who_can_share_contact_card: 'EVERYONE',
  };
}

/** Thread fields of a parent: `thread_ts`, `reply_count`, `reply_users(_count)`, `latest_reply`. */
function threadFields(m: MessageRecord): Json {
  const users = [...new Set(m.replies.map((r) => r.user))];
  return {
    thread_ts: m.ts,
    reply_count: m.replies.length,
    reply_users: users,
    reply_users_count: users.length,
    latest_reply: m.replies.at(-1)?.ts,
  };
}

/**
 * A message as conversations.history / replies / chat.postMessage answer it: thread parents carry
 * the thread fields, replies `thread_ts` and `parent_user_id`; in history (`inHistory`) a reply
 * also sent to the channel is Slack's `thread_broadcast` with the parent as `root` (the replies
 * type has no `subtype`, so there it is a plain reply).
 */
export function messageObject(
  m: MessageRecord,
  state: SlackState,
  o: { parent?: MessageRecord | undefined; inHistory?: boolean } = {},
): Json {
  const author = state.users.get(m.user);
  const out: Json = {
    type: 'message',
    user: m.user,
    text: m.text,
    ts: m.ts,
    team: state.team.id,
    ...(author?.botId ? { bot_id: author.botId, app_id: state.appId } : {}),
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
  };
  if (m.replies.length) Object.assign(out, threadFields(m), { is_locked: false, subscribed: false });
  else if (m.threadTs && m.threadTs !== m.ts) {
    out.thread_ts = m.threadTs;
    if (o.parent) out.parent_user_id = o.parent.user;
    if (o.inHistory && m.broadcast && o.parent) {
      out.subtype = 'thread_broadcast';
      out.root = {
        type: 'message',
        text: o.parent.text,
        ts: o.parent.ts,
        ...threadFields(o.parent),
        subscribed: false,
      };
    }
  }
  if (m.reactions.size)
    out.reactions = [...m.reactions].map(([name, users]) => ({ name, users, count: users.length }));
  const files = (m.files ?? []).map((id) => state.files.get(id)).filter((f) => f !== undefined);
  if (files.length) out.files = files.map((f) => fileObject(f, state));
  return out;
}

/** A file as messages and files.info carry it (the fields of @slack/web-api's File type). */
export function fileObject(f: FileRecord, state: SlackState): Json {
  const path = `${state.team.id}-${f.id}`;
  return {
    id: f.id,
    created: f.created,
    timestamp: f.created,
    name: f.name,
    title: f.title,
    mimetype: f.mimetype,
    filetype: f.filetype,
    pretty_type: f.filetype.toUpperCase(),
    user: f.user,
    mode: 'hosted',
    editable: false,
    is_external: false,
    external_type: '',
    size: f.content.length,
    url_private: `${state.filesOrigin}/files-pri/${path}/${encodeURIComponent(f.name)}`,
    url_private_download: `${state.filesOrigin}/files-pri/${path}/download/${encodeURIComponent(f.name)}`,
    permalink: `${state.webUrl}files/${f.user}/${f.id}/${encodeURIComponent(f.name)}`,
    is_public: true,
    public_url_shared: false,
  };
}

/** Permalink of message `ts` in `c` (replies: with `thread_ts` and `cid`). */
export function permalink(state: SlackState, c: ChannelRecord, m: MessageRecord): string {
  const base = `${state.webUrl}archives/${c.id}/p${m.ts.replace('.', '')}`;
  return m.threadTs && m.threadTs !== m.ts ? `${base}?thread_ts=${m.threadTs}&cid=${c.id}` : base;
}

/** One match of search.messages. */
export function matchObject(state: SlackState, c: ChannelRecord, m: MessageRecord, viewer: string): Json {
  const author = state.users.get(m.user);
  return {
    iid: `${c.id}-${m.ts}`,
    team: state.team.id,
    score: 0,
    channel: {
      id: c.id,
      is_channel: c.kind === 'public' || c.kind === 'private',
      is_group: false,
      is_im: c.kind === 'im',
      is_mpim: c.kind === 'mpim',
      is_private: c.kind !== 'public',
      is_shared: false,
      is_org_shared: false,
      is_ext_shared: false,
      is_pending_ext_shared: false,
      pending_shared: [],
      name: c.kind === 'im' ? (c.imUser ?? viewer) : c.name,
    },
    type: 'message',
    user: m.user,
    username: author?.name ?? m.user,
    ts: m.ts,
    text: m.text,
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
    permalink: permalink(state, c, m),
    no_reactions: m.reactions.size === 0,
  };
}
