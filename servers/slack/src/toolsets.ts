/**
 * The Slack server's toolsets, declared once: `--toolsets`, `--help`, the README and the type of
 * every tool's `toolset` come from this list. Posting is served only with --post-to, search only
 * with SLACK_USER_TOKEN, whatever the toolsets say.
 */
import { defineToolsets, type ToolDefinition, type ToolsetName } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';

export const TOOLSETS = defineToolsets([
  { name: 'channels', description: 'Channels, their history and threads', default: true },
  { name: 'users', description: 'Users and their profiles', default: true },
  { name: 'search', description: 'Message search (needs SLACK_USER_TOKEN)', default: true },
  {
    name: 'posting',
    description: 'Posting, replying and reactions (needs --post-to)',
    default: true,
  },
  {
    name: 'editing',
    description: "Editing and deleting the app's own messages (needs --post-to)",
    default: false,
  },
  {
    name: 'scheduling',
    description: 'Scheduling messages, listing and cancelling them (needs --post-to)',
    default: false,
  },
  {
    name: 'unread',
    description: 'Unread messages per conversation; marking read (needs --post-to)',
    default: false,
  },
]);

/** "channels" | "users" | "search" | "posting" | "editing" | "scheduling" | "unread". */
export type SlackToolset = ToolsetName<typeof TOOLSETS>;

/** A Slack tool: its `toolset` is one of {@link TOOLSETS}. */
export type SlackTool = ToolDefinition<z.ZodObject, z.ZodObject, SlackToolset>;
