/**
 * What the server remembers about the workspace, filled lazily and never before `initialize`
 * answers (case SL-10: a peer's startup users.list blocked for minutes on big workspaces):
 * - channels: id ↔ name, from every conversations.list / conversations.info answer; a `#name` is
 *   resolved once (paging conversations.list, or under SLACK_CHANNEL_IDS conversations.info of the
 *   listed channels only) and cached; an unknown name is an error, never an empty result;
 * - users: id → display name, from users.list answers and single users.info look-ups for the ids a
 *   result mentions, bounded in time (names not known in time stay ids; the look-ups finish in the
 *   background and serve the next call);
 * - the workspace URL and the token's own user and bot ids (auth.test, once), for permalinks and
 *   for checking a message's author before an edit or delete.
 */
import { ConcurrencyLimit, ToolError } from '@refmcp/shared';
import { bareChannelName, isChannelId } from './names.js';
import type { SlackAnswer, SlackClient } from './slack/client.js';

/** A conversation as the server knows it. */
export interface ChannelInfo {
  id: string;
  /** Name without `#` (DMs: undefined). */
  name?: string;
  /** A DM reached through a person (`@alice`): who. */
  dm?: string;
}

/** Longest wait for user names before a result is rendered with ids, in ms. */
export const NAME_WAIT_MS = 1500;
/** Most conversations.list pages walked to resolve one name (1000 channels each). */
const MAX_NAME_PAGES = 20;

/** Slack's users.info / users.list member, read leniently. */
export interface RawUser {
  id?: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  profile?: { display_name?: string; real_name?: string };
}

/** The name a person is shown by: display name, else real name, else handle. */
export function displayName(u: RawUser): string | undefined {
  return u.profile?.display_name || u.profile?.real_name || u.real_name || u.name || undefined;
}

export class Directory {
  private readonly channelNames = new Map<string, string>();
  private readonly channelIds = new Map<string, string>();
  private readonly users = new Map<string, string>();
  private readonly pendingUsers = new Map<string, Promise<void>>();
  private readonly lookups = new ConcurrencyLimit(8);
  private auth: Promise<SlackAnswer> | undefined;

  constructor(
    private readonly slack: SlackClient,
    /** SLACK_CHANNEL_IDS, when set: names resolve among these only. */
    private readonly scoped?: readonly string[],
  ) {}

  /** Remembers a conversation from any answer (`{id, name}`). */
  rememberChannel(raw: { id?: unknown; name?: unknown }): void {
    if (typeof raw.id !== 'string' || typeof raw.name !== 'string' || !raw.name) return;
    // A renamed channel: its old name no longer leads to it.
    const old = this.channelNames.get(raw.id)?.toLowerCase();
    if (old && old !== raw.name.toLowerCase() && this.channelIds.get(old) === raw.id)
      this.channelIds.delete(old);
    this.channelNames.set(raw.id, raw.name);
    this.channelIds.set(raw.name.toLowerCase(), raw.id);
  }

  /** Remembers a user's display name from any answer. */
  rememberUser(raw: RawUser): void {
    const name = displayName(raw);
    if (raw.id && name) this.users.set(raw.id, name);
  }

  /** The cached name of conversation `id` (no request). */
  channelName(id: string): string | undefined {
    return this.channelNames.get(id);
  }

  /** The cached name of user `id` (no request). */
  userName(id: string): string | undefined {
    return this.users.get(id);
  }

  /**
   * The conversation `channel` names: an id as is (its name when known), a `#name` or `name`
   * resolved once and cached. With `fresh` (before a write), a cached name whose id `fresh`
   * accepts is confirmed with conversations.info first: a channel renamed since is looked up
   * again, so a post never goes to the channel that used to have the name (an id it refuses is
   * returned unconfirmed, to be refused without a request). Errors: ToolError "channel not found"
   * when no visible channel has that name.
   */
  async resolveChannel(
    channel: string,
    signal?: AbortSignal,
    opts: { fresh?: (id: string) => boolean } = {},
  ): Promise<ChannelInfo> {
    if (isChannelId(channel)) {
      const name = this.channelNames.get(channel);
      return name ? { id: channel, name } : { id: channel };
    }
    const name = bareChannelName(channel).toLowerCase();
    const known = this.channelIds.get(name);
    if (known && opts.fresh?.(known)) {
      const now = await this.info(known, signal).catch(() => undefined);
      if (typeof now?.name !== 'string' || now.name.toLowerCase() !== name) this.channelIds.delete(name);
    }
    const cached = this.channelIds.get(name);
    if (cached) return { id: cached, name: this.channelNames.get(cached) ?? name };
    if (this.scoped) {
      await Promise.all(
        this.scoped
          .filter((id) => !this.channelNames.has(id))
          .map((id) => this.info(id, signal).catch(() => undefined)),
      );
    } else {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_NAME_PAGES && !this.channelIds.has(name); page++) {
        const answer = await this.slack.call(
          'conversations.list',
          { types: 'public_channel,private_channel', exclude_archived: false, limit: 1000, cursor },
          { signal },
        );
        for (const c of (answer.channels as { id?: string; name?: string }[] | undefined) ?? [])
          this.rememberChannel(c);
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (!cursor) break;
      }
    }
    const id = this.channelIds.get(name);
    if (!id)
      throw new ToolError(
        `channel not found: no channel named #${name} is visible to the token${this.scoped ? ' among SLACK_CHANNEL_IDS' : ''}. Use slack_list_channels to find its ID.`,
      );
    return { id, name: this.channelNames.get(id) ?? name };
  }

  /** conversations.info of `id` (remembered). */
  async info(id: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const answer = await this.slack.call('conversations.info', { channel: id }, { signal });
    const channel = (answer.channel ?? {}) as Record<string, unknown>;
    this.rememberChannel(channel);
    return channel;
  }

  /** The name of conversation `id`, asking conversations.info when it is not cached. */
  async nameOf(id: string, signal?: AbortSignal): Promise<string | undefined> {
    const known = this.channelNames.get(id);
    if (known) return known;
    const channel = await this.info(id, signal);
    return typeof channel.name === 'string' ? channel.name : undefined;
  }

  /**
   * Looks up the users of `ids` not yet known (users.info each, at most 8 at once), waiting at most
   * {@link NAME_WAIT_MS}; what is not back by then stays an id in this result. Never throws.
   */
  async learnUsers(ids: Iterable<string>): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const id of new Set(ids)) {
      if (this.users.has(id)) continue;
      let pending = this.pendingUsers.get(id);
      if (!pending) {
        pending = this.lookups
          .run(() => this.slack.call('users.info', { user: id }))
          .then((answer) => this.rememberUser((answer.user ?? {}) as RawUser))
          .catch(() => {});
        this.pendingUsers.set(id, pending);
      }
      waits.push(pending);
    }
    if (waits.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(waits),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, NAME_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /** auth.test's answer, asked once; a failure is forgotten so the next caller asks again. */
  private authTest(): Promise<SlackAnswer> {
    this.auth ??= this.slack.call('auth.test').catch((error: unknown) => {
      this.auth = undefined;
      throw error;
    });
    return this.auth;
  }

  /**
   * Who the token is (auth.test, once): `userId` (`user_id`) and, for a bot token, `botId`
   * (`bot_id`). Errors: the SlackApiError of auth.test.
   */
  async identity(): Promise<{ userId?: string; botId?: string }> {
    const a = await this.authTest();
    return {
      ...(typeof a.user_id === 'string' ? { userId: a.user_id } : {}),
      ...(typeof a.bot_id === 'string' ? { botId: a.bot_id } : {}),
    };
  }

  /** The workspace's web URL (`https://team.slack.com/`, from auth.test once), or undefined if unknown in time. */
  async workspaceUrl(): Promise<string | undefined> {
    const workspace = this.authTest()
      .then((a) => (typeof a.url === 'string' ? a.url : undefined))
      .catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const url = await Promise.race([
      workspace,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), NAME_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    return url;
  }
}
