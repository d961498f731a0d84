/**
 * Completion of channels (`#name`) for the prompts, fenced by SLACK_CHANNEL_IDS: under it only
 * those channels are offered (their names looked up with conversations.info, remembered by the
 * directory); without it one page of conversations.list (public and private channels the token
 * is in or can see, not archived). Cut off and cached by the shared mechanism (completion.ts).
 */
import { type Completer, completeFrom } from '@refmcp/shared/server';
import type { Config } from './config.js';

/** Channels offered at most, before filtering by what was typed. */
const PAGE = 1000;

/** `#name` of each channel a call could reach, best match first. */
export function channelCompleter(config: Config): Completer {
  return async (q) => {
    const typed = q.value.startsWith('#') || /^[CGD][A-Z0-9]/.test(q.value) ? q.value : `#${q.value}`;
    if (config.channels) {
      const names = await Promise.all(
        config.channels.ids.map(async (id) => {
          const name = await config.directory.nameOf(id, q.signal).catch(() => undefined);
          return name ? `#${name}` : id;
        }),
      );
      return completeFrom(names, typed);
    }
    const answer = await config.slack.call(
      'conversations.list',
      { types: 'public_channel,private_channel', exclude_archived: true, limit: PAGE },
      { signal: q.signal },
    );
    const channels = (answer.channels as { id?: string; name?: string }[] | undefined) ?? [];
    for (const c of channels) config.directory.rememberChannel(c);
    const more = Boolean(answer.response_metadata?.next_cursor);
    const found = completeFrom(
      channels.flatMap((c) => (c.name ? [`#${c.name}`] : [])),
      typed,
    );
    return more ? { ...found, hasMore: true } : found;
  };
}
