/**
 * The search server's toolsets, declared once: `--toolsets`, `--help`, the README and the type of
 * every tool's `toolset` come from this list.
 */
import { defineToolsets, type ToolDefinition, type ToolsetName } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';

export const TOOLSETS = defineToolsets([
  { name: 'search', description: 'Web search (and, with Brave, local places)', default: true },
  { name: 'media', description: 'News, image and video search', default: true },
  { name: 'fetch', description: 'Read a result page as Markdown (fetch_url)', default: true },
]);

/** "search" | "media" | "fetch". */
export type SearchToolset = ToolsetName<typeof TOOLSETS>;

/** A search-server tool: its `toolset` is one of {@link TOOLSETS}. */
export type SearchTool = ToolDefinition<z.ZodObject, z.ZodObject, SearchToolset>;
