/**
 * The Drive server's toolsets, declared once: `--toolsets`, `--help`, the README and the type of
 * every tool's `toolset` come from this list. Writes are opt-in (least privilege: the server asks
 * for `drive.readonly` unless a write toolset is on).
 */

import type { z } from '@refmcp/shared/schema';
import { defineToolsets, type ToolDefinition, type ToolsetName } from '@refmcp/shared/server';

export const TOOLSETS = defineToolsets([
  {
    name: 'files',
    description: 'Search, list folders and Shared Drives, read files and their metadata (read-only)',
    default: true,
  },
  {
    name: 'files_write',
    description: 'Create and update text files, create folders, move, rename, move to trash',
    default: false,
  },
  { name: 'sharing', description: 'List and change who a file is shared with', default: false },
]);

/** "files" | "files_write" | "sharing". */
export type DriveToolset = ToolsetName<typeof TOOLSETS>;

/** The toolsets whose tools write (they need the full `drive` scope). */
export const WRITE_TOOLSETS: readonly DriveToolset[] = ['files_write', 'sharing'];

/** A Drive tool: its `toolset` is one of {@link TOOLSETS}. */
export type DriveTool = ToolDefinition<z.ZodObject, z.ZodObject, DriveToolset>;
