/**
 * What every Drive tool shares: tools on one file confined to --folders (shared `scopedTool`),
 * file metadata, Shared Drive names (cached), and the Shared Drive parameters every call carries.
 */
import type { drive_v3 } from '@googleapis/drive';
import type { z } from '@refmcp/shared/schema';
import { scopedTool, type ToolDefinition } from '@refmcp/shared/server';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { fileIdOf } from '../names.js';

/** files.list parameters that make Shared Drive items visible (the most reported Drive failure). */
export const ALL_DRIVES = {
  supportsAllDrives: true,
  includeItemsFromAllDrives: true,
  corpora: 'allDrives',
} as const;

/**
 * A tool on the file named by `pick(args)` (an id or URL): confined to --folders before its
 * handler runs. The server refuses to start with a file tool not made by it.
 */
export function fileTool<I extends z.ZodObject, O extends z.ZodObject, S extends string>(
  config: Config,
  pick: (args: z.infer<I>) => string,
  argument: string,
  definition: ToolDefinition<I, O, S>,
): ToolDefinition<I, O, S> {
  return scopedTool(
    config.scope,
    (args: z.infer<I>): [string] => [fileIdOf(pick(args), argument)],
    definition,
  );
}

/** True for a tool that names a file or folder: it must be a {@link fileTool}. */
export function namesAFile(tool: ToolDefinition): boolean {
  const shape = tool.inputSchema.shape as Record<string, unknown>;
  return ['file_id', 'folder_id', 'parent_id'].some((k) => k in shape);
}

/** Sentence appended to descriptions when --folders is set. */
export function scopeNote(config: Config): string {
  return config.scope
    ? ` Limited to folders ${config.scope.description} and what is inside them (--folders).`
    : '';
}

/** files.get of `fileId` with `fields`. */
export async function getFile(
  config: Config,
  fileId: string,
  fields: string,
  signal: AbortSignal,
): Promise<drive_v3.Schema$File> {
  const { drive } = config;
  const res = await drive.call<drive_v3.Schema$File>(
    'GET',
    `files.get ${fileId}`,
    (o) => drive.api.files.get({ fileId, fields, supportsAllDrives: true }, o),
    signal,
  );
  return res.data;
}

const driveNames = new WeakMap<Config, Map<string, Promise<string | undefined>>>();

/** Names of the Shared Drives `ids` (drives.get, cached; an unreadable drive has no name). */
export async function sharedDriveNames(
  config: Config,
  ids: Iterable<string>,
  text: UntrustedText,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  let cache = driveNames.get(config);
  if (!cache) {
    cache = new Map();
    driveNames.set(config, cache);
  }
  const { drive } = config;
  const out = new Map<string, string>();
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      let name = cache.get(id);
      if (!name) {
        name = drive
          .call<drive_v3.Schema$Drive>(
            'GET',
            `drives.get ${id}`,
            (o) => drive.api.drives.get({ driveId: id, fields: 'id,name' }, o),
            signal,
          )
          .then(
            (r) => r.data.name ?? undefined,
            () => undefined,
          );
        cache.set(id, name);
      }
      const value = await name;
      if (value) out.set(id, text.line(value));
    }),
  );
  return out;
}
