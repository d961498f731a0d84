/**
 * What every Slack tool shares: channel tools confined to SLACK_CHANNEL_IDS (and write tools to
 * --post-to) by the shared `scopedTool` before their handler runs, channel names resolved to ids
 * and checked again, the byte budget of a page, and the query-bound cursors.
 */
import { scopedTool, type ToolDefinition } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import type { ChannelInfo } from '../directory.js';
import { isPersonRef } from '../names.js';
import { bothScopes } from '../scope.js';

/** Text budget of one page of messages, channels or users (the structured twin is about as big). */
export const PAGE_BYTES = 48 * 1024;
/** Largest text of one message in a list, in bytes. */
export const LIST_MESSAGE_BYTES = 4 * 1024;
/** Largest text of one message in a thread read, in bytes. */
export const THREAD_MESSAGE_BYTES = 16 * 1024;

type ChannelArgs = { channel_id: string } | { channel?: string | undefined };
const channelOf = (args: ChannelArgs): [string] => [
  ('channel_id' in args ? args.channel_id : args.channel) ?? '',
];

/** A read tool over one channel: confined to SLACK_CHANNEL_IDS before its handler runs. */
export function channelTool<
  I extends z.ZodType<ChannelArgs> & z.ZodObject,
  O extends z.ZodObject,
  S extends string,
>(config: Config, definition: ToolDefinition<I, O, S>): ToolDefinition<I, O, S> {
  return scopedTool(config.channels, channelOf as (args: z.infer<I>) => [string], definition);
}

/** A write tool: confined to SLACK_CHANNEL_IDS and --post-to before its handler runs. */
export function postTool<
  I extends z.ZodType<{ channel_id: string }> & z.ZodObject,
  O extends z.ZodObject,
  S extends string,
>(config: Config, definition: ToolDefinition<I, O, S>): ToolDefinition<I, O, S> {
  if (!config.postTo) throw new Error(`${definition.name}: posting tools need --post-to`);
  return scopedTool(bothScopes(config.channels, config.postTo), channelOf, definition);
}

/** True for a tool naming a channel (`channel_id` or `channel`): it must be a {@link channelTool} or {@link postTool}. */
export function hasChannelArgument(tool: ToolDefinition): boolean {
  const shape = tool.inputSchema.shape;
  return 'channel_id' in shape || 'channel' in shape;
}

/**
 * The conversation `channel` names (id, `#name`, `name`, or `@person`/email for the DM with
 * them), checked against SLACK_CHANNEL_IDS and,
 * for writes, --post-to on its id. Errors: ToolError (not found, or outside a limit), before any
 * request reads or writes the channel.
 */
export async function resolveChannel(
  config: Config,
  channel: string,
  signal: AbortSignal,
  opts: { post?: boolean } = {},
): Promise<ChannelInfo> {
  const allowed = (id: string) =>
    (config.channels?.allows(id) ?? true) && (config.postTo?.allows(id) ?? false);
  let info: ChannelInfo;
  if (isPersonRef(channel)) {
    // `@alice` or an email: the token's DM with that person (found, never opened).
    const person = await config.people.resolve(channel, signal);
    info = { id: await config.people.dmWith(person, signal), dm: person.label };
  } else info = await config.directory.resolveChannel(channel, signal, opts.post ? { fresh: allowed } : {});
  config.channels?.check(info.id);
  if (opts.post) config.postTo?.check(info.id);
  return info;
}

/** "#eng (C111)", "DM with @alice (D0ALICE)" or "C111". */
export const channelLabel = (c: ChannelInfo): string =>
  c.name ? `#${c.name} (${c.id})` : c.dm ? `DM with ${c.dm} (${c.id})` : c.id;

/** Sentence appended to channel tools' descriptions when SLACK_CHANNEL_IDS is set. */
export function scopeNote(config: Config): string {
  return config.channels ? ` Only channels ${config.channels.description}.` : '';
}
