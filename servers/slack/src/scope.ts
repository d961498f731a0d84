/**
 * The operator's channel limits, below whatever the token can see:
 * - `SLACK_CHANNEL_IDS=C1,C2` (the reference's name; there it only filtered the channel list):
 *   every tool, reading and writing, is confined to these channels (case SL-03);
 * - `--post-to C1,C2|all` (env SLACK_POST_TO): the channels posting, replying and reacting may
 *   touch; without it those tools are not served (case SL-02).
 * An id is checked before the handler runs (shared `scopedTool`); a `#name` is checked again on
 * the id it resolves to, before any request that reads or writes the channel.
 */
import { ConfigError, outOfScope, type Scope, splitList, ToolError } from '@refmcp/shared';
import { isChannelId } from './names.js';

/** Parses a comma-separated list of channel ids; `source` names the flag or variable in errors. */
function channelIds(value: string, source: string): string[] {
  const ids = splitList(value) ?? [];
  if (ids.length === 0) throw new ConfigError(`${source}: give at least one channel ID (C…, G…, D…)`);
  const bad = ids.find((id) => !isChannelId(id));
  if (bad)
    throw new ConfigError(`${source}: "${bad}" is not a channel ID (C…, G…, D…; names are not accepted)`);
  return [...new Set(ids)];
}

/** SLACK_CHANNEL_IDS: the only channels any tool may touch. */
export class ChannelScope implements Scope<[channel: string]> {
  private constructor(readonly ids: readonly string[]) {}

  static parse(value: string): ChannelScope {
    return new ChannelScope(channelIds(value, 'SLACK_CHANNEL_IDS'));
  }

  get description(): string {
    return this.ids.join(',');
  }

  allows(id: string): boolean {
    return this.ids.includes(id);
  }

  /** Refuses an id outside the list; a name passes here and is checked on its id once resolved. */
  check(channel: string): void {
    if (isChannelId(channel) && !this.allows(channel))
      throw outOfScope(channel, 'channels', 'SLACK_CHANNEL_IDS', this.description);
  }
}

/** --post-to: the channels every write (posting, replying, reacting, editing, marking read) may touch (`all`: any the token may post in). */
export class PostScope implements Scope<[channel: string]> {
  private constructor(private readonly ids: readonly string[] | 'all') {}

  /** Parses `C1,C2` or `all`; `source` names the flag or variable in errors. */
  static parse(value: string, source: string): PostScope {
    return new PostScope(value.trim().toLowerCase() === 'all' ? 'all' : channelIds(value, source));
  }

  get description(): string {
    return this.ids === 'all' ? 'all' : this.ids.join(',');
  }

  /** The channels named here that `fence` does not allow (none for `all`). */
  idsOutside(fence: ChannelScope): string[] {
    return this.ids === 'all' ? [] : this.ids.filter((id) => !fence.allows(id));
  }

  allows(id: string): boolean {
    return this.ids === 'all' || this.ids.includes(id);
  }

  /** Refuses an id outside the list; a name passes here and is checked on its id once resolved. */
  check(channel: string): void {
    if (isChannelId(channel) && !this.allows(channel))
      throw new ToolError(
        `${channel} is not a channel this server may post, reply or react in (--post-to ${this.description}). ` +
          '--post-to confines every write here, marking read included (it moves the read marker Slack shows). ' +
          'This limit is set by the operator and cannot be changed by a tool call; nothing was sent.',
      );
  }
}

/** Both limits at once (the write tools' scope): SLACK_CHANNEL_IDS first, then --post-to. */
export function bothScopes(
  channels: ChannelScope | undefined,
  post: PostScope,
): Scope<[channel: string]> & { allows(id: string): boolean } {
  return {
    check(channel) {
      channels?.check(channel);
      post.check(channel);
    },
    allows: (id) => (channels?.allows(id) ?? true) && post.allows(id),
  };
}
