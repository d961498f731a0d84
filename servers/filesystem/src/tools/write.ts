/**
 * Write tools: write_file, edit_file, create_directory, move_file, copy_file, delete_file. Every write
 * goes through @refmcp/shared/paths (atomic temp+rename writes that keep the mode, mkdir -p checked level
 * by level, moves that never overwrite, copies built aside and renamed into place, deletes that move to
 * the freedesktop trash), so a symlink cannot redirect it outside the allowed directories.
 */
import { copyInside, mkdirInside, moveInside, trashInside, writeFileAtomic } from '@refmcp/shared/paths';
import { pathString, safeString } from '@refmcp/shared/schema';
import {
  defineTool,
  LOCAL_HINTS,
  structuredResult,
  type ToolDefinition,
  textResult,
} from '@refmcp/shared/server';
import * as z from 'zod'; // zod itself: through shared/schema's re-exported namespace every zod export stays in the bundle (+100 KB)
import type { Config } from '../config.js';
import { editFile } from '../edit-file.js';
import { formatBytes } from '../format.js';

/** Largest content write_file accepts, in characters. */
const MAX_WRITE_CHARS = 10 * 1024 * 1024;
/** Largest oldText/newText of one edit, in characters. */
const MAX_EDIT_TEXT_CHARS = 1024 * 1024;
const MAX_EDITS = 100;

const path = (what: string) => pathString().describe(what);

/** Largest file edit_file loads: at least 10 MiB (source files beyond the whole-read limit), more if configured. */
function editLimit(config: Config): number {
  return Math.max(config.maxFileBytes, 10 * 1024 * 1024);
}

export function writeTools(config: Config): ToolDefinition[] {
  const writeFile = defineTool({
    name: 'write_file',
    title: 'Write File',
    description:
      'Create a file or overwrite its whole content with UTF-8 text, atomically (for a part, use edit_file). ' +
      'The parent directory must exist.',
    inputSchema: z.strictObject({
      path: path('File to write'),
      content: safeString({ max: MAX_WRITE_CHARS }).describe('The whole new content'),
    }),
    annotations: LOCAL_HINTS.destructiveIdempotent,
    // Only an overwrite asks: the operator's directories say whether the file is there (a client's roots only narrow them).
    confirm: async (args) =>
      (await config.workspace.roots.resolve(args.path).catch(() => undefined))?.exists
        ? `Overwrite ${JSON.stringify(args.path)}? Its whole content is replaced.`
        : undefined,
    handler: async (args) => {
      const before = await config.workspace.roots.resolve(args.path);
      await writeFileAtomic(config.workspace.roots, args.path, args.content);
      const bytes = formatBytes(Buffer.byteLength(args.content, 'utf8'));
      return textResult(`${before.exists ? 'Overwrote' : 'Created'} ${args.path} (${bytes}).`);
    },
  });

  const editFileTool = defineTool({
    name: 'edit_file',
    title: 'Edit File',
    description:
      'Replace exact text in a text file; returns a unified diff. Edits apply in order, all or none; line endings ' +
      'and trailing whitespace may differ, indentation may not.',
    inputSchema: z.strictObject({
      path: path('Text file to edit'),
      edits: z
        .array(
          z.strictObject({
            oldText: safeString({ max: MAX_EDIT_TEXT_CHARS }).describe(
              'Text that occurs exactly once (add lines around it if not)',
            ),
            newText: safeString({ max: MAX_EDIT_TEXT_CHARS }).describe('Its replacement, literal'),
          }),
        )
        .min(1, 'give at least one edit')
        .max(MAX_EDITS, `at most ${MAX_EDITS} edits per call`),
      dryRun: z.boolean().default(false).describe('Only show the diff'),
    }),
    outputSchema: z.object({
      path: z.string(),
      dryRun: z.boolean(),
      written: z.boolean().describe('True when the file was changed on disk.'),
      edits: z.array(
        z.object({
          index: z.number(),
          line: z.number().describe('1-based line where the replaced text started.'),
          match: z.enum(['exact', 'line-endings', 'trailing-whitespace']),
        }),
      ),
      diff: z.string().describe('Unified diff of the change (cut to the result budget).'),
    }),
    annotations: LOCAL_HINTS.destructive,
    handler: async (args) => {
      const { result, text } = await editFile(config.workspace.roots, args.path, args.edits, {
        dryRun: args.dryRun,
        maxFileBytes: editLimit(config),
        maxDiffBytes: Math.max(1024, config.maxResultBytes - 2048),
      });
      return structuredResult({ ...result }, text);
    },
  });

  const createDirectory = defineTool({
    name: 'create_directory',
    title: 'Create Directory',
    description: 'Create a directory and any missing parents (mkdir -p); succeeds if it exists.',
    inputSchema: z.strictObject({ path: path('Directory to create') }),
    annotations: LOCAL_HINTS.additiveIdempotent,
    handler: async (args) => {
      const before = await config.workspace.roots.resolve(args.path);
      await mkdirInside(config.workspace.roots, args.path);
      return textResult(
        before.exists ? `Directory ${args.path} already exists.` : `Created directory ${args.path}.`,
      );
    },
  });

  const moveFile = defineTool({
    name: 'move_file',
    title: 'Move File',
    description: 'Move or rename a file or directory. Never overwrites: fails if the destination exists.',
    inputSchema: z.strictObject({
      source: path('File or directory to move'),
      destination: path('New path'),
    }),
    annotations: LOCAL_HINTS.destructive,
    handler: async (args) => {
      await moveInside(config.workspace.roots, args.source, args.destination);
      return textResult(`Moved ${args.source} to ${args.destination}.`);
    },
  });

  const copyFile = defineTool({
    name: 'copy_file',
    title: 'Copy File',
    description:
      'Copy a file, or a directory with everything in it, atomically. Fails if the destination exists unless ' +
      'overwrite is true (files only).',
    inputSchema: z.strictObject({
      source: path('File or directory to copy'),
      destination: path('New path (not an existing directory to copy into)'),
      overwrite: z.boolean().default(false).describe('Replace an existing destination file'),
    }),
    annotations: LOCAL_HINTS.destructive,
    confirm: (args) =>
      args.overwrite
        ? `Copy ${JSON.stringify(args.source)} to ${JSON.stringify(args.destination)}, replacing it if it exists?`
        : undefined,
    handler: async (args, context) => {
      const copied = await copyInside(config.workspace.roots, args.source, args.destination, {
        overwrite: args.overwrite,
        signal: context.signal,
      });
      const what =
        copied.kind === 'file'
          ? `${formatBytes(copied.bytes)}`
          : `${copied.entries} entries, ${formatBytes(copied.bytes)}` +
            (copied.skipped
              ? `; ${copied.skipped} not copied (sockets, FIFOs, devices, or symlinks that would point outside the allowed directories)`
              : '');
      return textResult(
        `${copied.replaced ? 'Replaced' : 'Copied to'} ${args.destination} from ${args.source} (${what}).`,
      );
    },
  });

  const deleteFile = defineTool({
    name: 'delete_file',
    title: 'Delete File',
    description:
      "Move a file or directory to the user's trash (restorable, never unlinked). A directory that is not empty " +
      'needs recursive: true.',
    inputSchema: z.strictObject({
      path: path('File, symlink or directory to delete'),
      recursive: z
        .boolean()
        .default(false)
        .describe('Also a directory that is not empty, with everything in it'),
    }),
    annotations: LOCAL_HINTS.destructive,
    confirm: (args) =>
      `Move ${JSON.stringify(args.path)}${args.recursive ? ' and everything in it' : ''} to the trash? It can be restored from there.`,
    handler: async (args) => {
      const trashed = await trashInside(config.workspace.roots, args.path, { recursive: args.recursive });
      return textResult(
        `Moved ${trashed.kind} ${args.path} to the trash as ${trashed.trashedAs} (restorable).`,
      );
    },
  });

  return [writeFile, editFileTool, createDirectory, moveFile, copyFile, deleteFile] as ToolDefinition[];
}
