// The fake Slack's data: one workspace (team) with users and their profiles, tokens (bot `xoxb-`
// or user `xoxp-`, each with its scopes), conversations (public and private channels, DMs, group
// DMs) with members, and messages with threads and reactions — and the seeding API tests, the
// demo and the bench use. Message timestamps are Slack's "seconds.micros" strings.

/** A workspace member (a person or a bot user). */
export interface UserRecord {
  id: string;
  name: string;
  realName: string;
  displayName: string;
  email?: string;
  title: string;
  isBot: boolean;
  /** The bot's `B…` id (bot users only). */
  botId?: string;
  isAdmin: boolean;
  deleted: boolean;
  tz: string;
}

export type ConversationKind = 'public' | 'private' | 'im' | 'mpim';

/** A conversation: channel, private channel, DM or group DM. */
export interface ChannelRecord {
  id: string;
  /** Channel name without `#` (DMs: the other user's id). */
  name: string;
  kind: ConversationKind;
  members: Set<string>;
  topic: string;
  purpose: string;
  created: number;
  creator: string;
  archived: boolean;
  isGeneral: boolean;
  /** The other member of a DM. */
  imUser?: string;
  /** Top-level messages (thread broadcasts included), oldest first. */
  messages: MessageRecord[];
  /** Each member's read marker (conversations.mark), by user id; unset reads as nothing read. */
  lastRead?: Map<string, string>;
  /** Errors a method answers for this conversation whatever the token (method → `{error, ...extra}`); survive `resetFaults`. */
  errors?: Record<string, { error: string } & Record<string, unknown>>;
}

/** A message; a thread parent holds its replies. */
export interface MessageRecord {
  ts: string;
  /** Author's user id. */
  user: string;
  text: string;
  /** The parent's ts, on replies and on parents with replies. */
  threadTs?: string;
  replies: MessageRecord[];
  /** Reaction name → user ids, in the order they reacted. */
  reactions: Map<string, string[]>;
  /** A reply also shown in the channel (`reply_broadcast`). */
  broadcast?: boolean;
  /** Block Kit blocks and secondary attachments, as Slack answers them (seeded). */
  blocks?: Record<string, unknown>[];
  attachments?: Record<string, unknown>[];
  /** Posted as `markdown_text` (Slack renders it as Markdown). */
  markdown?: boolean;
  /** Changed by chat.update. */
  edited?: boolean;
  /** What chat.postMessage asked for (recorded on posted messages). */
  unfurlLinks?: boolean;
  unfurlMedia?: boolean;
  /** Ids of files shared with the message ({@link SlackState.files}). */
  files?: string[];
}

/** A file shared in channels (files.info, downloads at `url_private_download`). */
export interface FileRecord {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  content: Buffer;
  /** Uploader's user id. */
  user: string;
  /** Conversations it is shared in. */
  channels: string[];
  created: number;
}

/** A token: whose it is, which kind, which scopes. */
/** A message chat.scheduleMessage will post at `postAt` (Unix seconds). */
export interface ScheduledRecord {
  id: string;
  channel: string;
  /** The scheduling user (the bot user for a bot token). */
  user: string;
  postAt: number;
  dateCreated: number;
  text: string;
  threadTs?: string;
  unfurlLinks?: boolean;
}

export interface TokenRecord {
  userId: string;
  kind: 'bot' | 'user';
  scopes: string[];
  /** Answer `token_revoked` instead. */
  revoked?: boolean;
}

/**
 * Scopes a bot token of the Slack server typically has: what its README's "Scopes each tool needs"
 * tells a user to grant, the `*:write` scopes of slack_mark_read (conversations.mark) included.
 */
export const BOT_SCOPES = [
  'files:read',
  'channels:history',
  'channels:read',
  'channels:write',
  'chat:write',
  'groups:history',
  'groups:read',
  'groups:write',
  'im:history',
  'im:read',
  'im:write',
  'mpim:history',
  'mpim:read',
  'mpim:write',
  'reactions:write',
  'users:read',
  'users.profile:read',
];

/** Scopes of a user token that may search. */
export const USER_SCOPES = [...BOT_SCOPES, 'search:read'];

/** Slack's ts for `seconds` plus `micros` ("1700000000.000100"). */
export function slackTs(seconds: number, micros = 0): string {
  return `${seconds}.${String(micros).padStart(6, '0')}`;
}

/** Seeding options of {@link SlackState.addUser}. */
export interface UserSeed {
  id?: string;
  realName?: string;
  displayName?: string;
  email?: string;
  title?: string;
  isBot?: boolean;
  isAdmin?: boolean;
  deleted?: boolean;
}

/** Seeding options of {@link SlackState.addChannel}. */
export interface ChannelSeed {
  id?: string;
  kind?: ConversationKind;
  members?: string[];
  topic?: string;
  purpose?: string;
  archived?: boolean;
  isGeneral?: boolean;
  imUser?: string;
}

/** Seeding options of {@link SlackState.addMessage}. */
export interface MessageSeed {
  ts?: string;
  user?: string;
  blocks?: Record<string, unknown>[];
  attachments?: Record<string, unknown>[];
  reactions?: Record<string, string[]>;
}

export class SlackState {
  team = { id: 'T0TEAM', name: 'Fake Team', domain: 'fake-team' };
  /** The app the bot users belong to. */
  appId = 'A0FAKEAPP';
  readonly users = new Map<string, UserRecord>();
  readonly channels = new Map<string, ChannelRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly files = new Map<string, FileRecord>();
  /** Origin of the files.slack.com stand-in (set by startFakeSlack): where downloads are served. */
  filesOrigin = 'https://files.slack.com';
  /** Messages waiting to be posted (chat.scheduleMessage), in the order scheduled. */
  readonly scheduled: ScheduledRecord[] = [];
  /** Seconds part of the next generated ts; each generated ts is one second after the last. */
  private clock = 1_700_000_000;
  private serial = { user: 1, channel: 1, bot: 1 };

  /** `https://<domain>.slack.com/` (auth.test url, permalinks). */
  get webUrl(): string {
    return `https://${this.team.domain}.slack.com/`;
  }

  /** Adds a user (`U…` id generated unless given); name is the handle ("alice"). */
  addUser(name: string, seed: UserSeed = {}): UserRecord {
    const id = seed.id ?? `U${String(this.serial.user++).padStart(8, '0')}`;
    const user: UserRecord = {
      id,
      name,
      realName: seed.realName ?? name,
      displayName: seed.displayName ?? name,
      ...(seed.isBot ? {} : { email: seed.email ?? `${name}@example.com` }),
      title: seed.title ?? '',
      isBot: seed.isBot ?? false,
      ...(seed.isBot ? { botId: `B${String(this.serial.bot++).padStart(8, '0')}` } : {}),
      isAdmin: seed.isAdmin ?? false,
      deleted: seed.deleted ?? false,
      tz: 'Europe/London',
    };
    this.users.set(id, user);
    return user;
  }

  /**
   * Shares a file in `message`'s channel: `F…` id generated, listed on the message, served by
   * files.info and downloadable at its `url_private_download` with a token.
   */
  addFile(
    channel: string,
    message: MessageRecord,
    seed: { name: string; mimetype: string; filetype: string; content: Buffer; title?: string },
  ): FileRecord {
    const id = `F${String(this.files.size + 1).padStart(8, '0')}`;
    const file: FileRecord = {
      id,
      name: seed.name,
      title: seed.title ?? seed.name,
      mimetype: seed.mimetype,
      filetype: seed.filetype,
      content: seed.content,
      user: message.user,
      channels: [channel],
      created: Math.floor(Number(message.ts)),
    };
    this.files.set(id, file);
    message.files = [...(message.files ?? []), id];
    return file;
  }

  /** Adds `token` for `userId` (kind from its prefix: `xoxb-` bot, otherwise user). */
  addToken(token: string, userId: string, scopes?: string[]): TokenRecord {
    const kind = token.startsWith('xoxb-') ? 'bot' : 'user';
    const record: TokenRecord = {
      userId,
      kind,
      scopes: scopes ?? (kind === 'bot' ? BOT_SCOPES : USER_SCOPES),
    };
    this.tokens.set(token, record);
    return record;
  }

  /** Adds a conversation (`C…` id generated unless given; private ones too, as Slack does now). */
  addChannel(name: string, seed: ChannelSeed = {}): ChannelRecord {
    const kind = seed.kind ?? 'public';
    const id = seed.id ?? `${kind === 'im' ? 'D' : 'C'}${String(this.serial.channel++).padStart(8, '0')}`;
    const members = seed.members ?? [];
    const channel: ChannelRecord = {
      id,
      name,
      kind,
      members: new Set(members),
      topic: seed.topic ?? '',
      purpose: seed.purpose ?? '',
      created: 1_600_000_000 + this.channels.size,
      creator: members[0] ?? '',
      archived: seed.archived ?? false,
      isGeneral: seed.isGeneral ?? false,
      ...(seed.imUser ? { imUser: seed.imUser } : {}),
      messages: [],
    };
    this.channels.set(id, channel);
    return channel;
  }

  /** Adds a top-level message (ts generated, strictly increasing, unless given). */
  addMessage(channelId: string, text: string, seed: MessageSeed = {}): MessageRecord {
    const channel = this.channel(channelId);
    const message = this.message(text, seed);
    channel.messages.push(message);
    channel.messages.sort((a, b) => Number(a.ts) - Number(b.ts));
    return message;
  }

  /** Adds a reply to the thread of `parentTs` (broadcast: also shown in the channel). */
  addReply(
    channelId: string,
    parentTs: string,
    text: string,
    seed: MessageSeed & { broadcast?: boolean } = {},
  ): MessageRecord {
    const channel = this.channel(channelId);
    const parent = channel.messages.find((m) => m.ts === parentTs);
    if (!parent) throw new Error(`no message ${parentTs} in ${channelId}`);
    const reply = this.message(text, seed);
    reply.threadTs = parent.ts;
    parent.threadTs = parent.ts;
    parent.replies.push(reply);
    if (seed.broadcast) {
      reply.broadcast = true;
      channel.messages.push(reply);
      channel.messages.sort((a, b) => Number(a.ts) - Number(b.ts));
    }
    return reply;
  }

  private message(text: string, seed: MessageSeed): MessageRecord {
    const ts = seed.ts ?? slackTs(this.clock++, 100);
    const seconds = Math.floor(Number(ts));
    if (seconds >= this.clock) this.clock = seconds + 1;
    return {
      ts,
      user: seed.user ?? [...this.users.keys()][0] ?? '',
      text,
      replies: [],
      reactions: new Map(Object.entries(seed.reactions ?? {})),
      ...(seed.blocks ? { blocks: seed.blocks } : {}),
      ...(seed.attachments ? { attachments: seed.attachments } : {}),
    };
  }

  /** A conversation by id; throws for an unknown one (a seeding mistake). */
  channel(id: string): ChannelRecord {
    const channel = this.channels.get(id);
    if (!channel) throw new Error(`no conversation ${id}`);
    return channel;
  }

  /** A conversation by name (`general` or `#general`). */
  channelByName(name: string): ChannelRecord | undefined {
    const bare = name.replace(/^#/, '');
    return [...this.channels.values()].find((c) => c.name === bare && c.kind !== 'im');
  }

  /** A message of `channel` by ts: top-level or a reply. */
  findMessage(channel: ChannelRecord, ts: string): MessageRecord | undefined {
    for (const m of channel.messages) {
      if (m.ts === ts) return m;
      const reply = m.replies.find((r) => r.ts === ts);
      if (reply) return reply;
    }
    return undefined;
  }

  /** Removes message `ts` of `channel` (top-level with its thread, or one reply). */
  removeMessage(channel: ChannelRecord, ts: string): void {
    channel.messages = channel.messages.filter((m) => m.ts !== ts);
    for (const m of channel.messages) m.replies = m.replies.filter((r) => r.ts !== ts);
  }

  /** Can `userId` see `channel`? Public channels: everyone; the rest: members only. */
  canSee(channel: ChannelRecord, userId: string): boolean {
    return channel.kind === 'public' || channel.members.has(userId);
  }
}
