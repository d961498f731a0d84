/**
 * Read tools: read_text_file (and its deprecated alias read_file), read_media_file, read_multiple_files,
 * get_file_info, list_allowed_directories. Names and argument names are the official server's, so existing
 * prompts work; everything added (offset/limit, byte ranges, budgets) is optional.
 */

import { pathString } from '@refmcp/shared/schema';
import { defineTool, LOCAL_HINTS, structuredResult, type ToolDefinition } from '@refmcp/shared/server';
import * as z from 'zod'; // zod itself: through shared/schema's re-exported namespace every zod export stays in the bundle (+100 KB)
import type { Config } from '../config.js';
import { fileInfo } from '../file-info.js';
import { readMediaFile } from '../media-read.js';
import { readMultipleFiles } from '../multi-read.js';
import { readTextFile } from '../text-read.js';

const lineCount = (what: string) => z.number().int().min(1).optional().describe(what);

const readTextInput = z.strictObject({
  path: pathString().describe('File to read'),
  head: lineCount('Only the first N lines'),
  tail: lineCount('Only the last N lines'),
  offset: lineCount('First line, 1-based'),
  limit: lineCount('Lines from offset'),
  byteOffset: z.number().int().min(0).optional().describe('First byte, 0-based'),
  byteLength: lineCount('Bytes from byteOffset'),
});

const readTextOutput = z.object({
  path: z.string(),
  content: z.string().describe('The text read, without truncation markers.'),
  fileBytes: z.number().describe('Size of the whole file in bytes.'),
  startByte: z.number(),
  endByte: z.number().describe('The content is bytes [startByte, endByte) of the file.'),
  startLine: z.number().optional(),
  endLine: z.number().optional(),
  truncated: z.boolean().describe('True when the result budget cut what was asked for.'),
  nextOffset: z.number().optional().describe('Pass as offset to continue after this part.'),
  nextByteOffset: z.number().optional().describe('Pass as byteOffset to continue after this part.'),
  invalidUtf8: z
    .literal(true)
    .optional()
    .describe('The bytes read are not valid UTF-8: invalid sequences are shown as U+FFFD in content.'),
});

function readTextDescription(config: Config): string {
  return (
    `Read a UTF-8 text file: whole up to ${config.maxFileBytes} bytes, or one part: head, tail, ` +
    `offset+limit (lines) or byteOffset+byteLength. At most ${config.maxResultBytes} bytes a result: a cut one ends ` +
    'with "[truncated: …]" naming the offset that continues it. Invalid UTF-8 shows as U+FFFD; binary files are ' +
    'refused (use read_media_file).'
  );
}

export function readTools(config: Config): ToolDefinition[] {
  const limits = { maxFileBytes: config.maxFileBytes, maxResultBytes: config.maxResultBytes };
  const readText = defineTool({
    name: 'read_text_file',
    title: 'Read Text File',
    description: readTextDescription(config),
    inputSchema: readTextInput,
    outputSchema: readTextOutput,
    annotations: LOCAL_HINTS.readOnly,
    // The context, not its signal: a small file is answered without one (see ToolContext.signal).
    handler: async (args, context) => {
      const read = await readTextFile(config.workspace.roots, args, limits, context);
      return structuredResult({ ...read.data }, read.text);
    },
  });

  const readFile = defineTool({
    ...readText,
    name: 'read_file',
    title: 'Read File (Deprecated)',
    description: 'DEPRECATED: use read_text_file (this is its alias: same arguments and result).',
  });

  const readMedia = defineTool({
    name: 'read_media_file',
    title: 'Read Media File',
    description:
      'Read an image or audio file as base64 content with its MIME type (from magic bytes, then extension); other ' +
      `binary files as a resource blob, SVG as text. At most ${mediaLimit(config)} bytes.`,
    inputSchema: z.strictObject({
      path: pathString().describe('File to read'),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) =>
      readMediaFile(config.workspace.roots, args.path, mediaLimit(config), signal),
  });

  const readMultiple = defineTool({
    name: 'read_multiple_files',
    title: 'Read Multiple Files',
    description:
      'Read several text files: "<path>:\\n<content>" each, separated by "---"; a file that fails gets ' +
      `"<path>: Error - <reason>" without failing the others. All share one ${config.maxResultBytes}-byte budget, ` +
      'in order: a cut file names the offset that continues it, later ones are listed as not read.',
    inputSchema: z.strictObject({
      paths: z
        .array(pathString())
        .min(1, 'give at least one path')
        .max(MAX_PATHS, `at most ${MAX_PATHS} paths per call`)
        .describe('Files to read, in order'),
    }),
    outputSchema: z.object({
      files: z.array(
        z.object({
          path: z.string(),
          status: z.enum(['ok', 'error', 'skipped']),
          content: z.string().optional(),
          error: z.string().optional(),
          truncated: z.boolean().optional(),
          nextOffset: z.number().optional(),
          invalidUtf8: z.literal(true).optional().describe('Not valid UTF-8: invalid bytes shown as U+FFFD.'),
        }),
      ),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const read = await readMultipleFiles(config.workspace.roots, args.paths, limits, signal);
      return structuredResult({ files: read.files }, read.text);
    },
  });

  const getInfo = defineTool({
    name: 'get_file_info',
    title: 'Get File Info',
    description:
      'Metadata of a file or directory: size in bytes, created/modified/accessed times, type (a symlink is ' +
      'described by its target) and permissions.',
    inputSchema: z.strictObject({
      path: pathString().describe('File or directory'),
    }),
    outputSchema: z.object({
      path: z.string(),
      realPath: z.string().describe('Canonical path with symlinks resolved.'),
      size: z.number(),
      created: z.string().optional().describe('Absent where the filesystem does not record it.'),
      modified: z.string(),
      accessed: z.string(),
      isDirectory: z.boolean(),
      isFile: z.boolean(),
      isSymbolicLink: z.boolean(),
      permissions: z.string().describe('Octal permission bits, e.g. "644".'),
      permissionsText: z.string().describe('rwx form, e.g. "rw-r--r--".'),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args) => {
      const info = await fileInfo(config.workspace.roots, args.path);
      const text = Object.entries(info)
        .map(([key, value]) => `${key}: ${value}`)
        .join('\n');
      return structuredResult({ ...info }, text);
    },
  });

  const listAllowed = defineTool({
    name: 'list_allowed_directories',
    title: 'List Allowed Directories',
    description:
      'The directories this server may read and write (with subdirectories), and their real paths where a ' +
      'symlink makes them differ. Every path argument is absolute or relative to the first one.',
    inputSchema: z.strictObject({}),
    outputSchema: z.object({
      directories: z.array(
        z.object({
          path: z.string().describe('The directory as configured.'),
          resolvedPath: z
            .string()
            .optional()
            .describe('Its real path, when different (it is or contains a symlink).'),
        }),
      ),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async () => {
      const roots = config.workspace.roots;
      const directories = roots.roots.map((r) => ({
        path: r.configured,
        ...(r.real !== r.configured ? { resolvedPath: r.real } : {}),
      }));
      if (directories.length === 0) return structuredResult({ directories }, roots.emptyReason);
      const lines = directories.map((d) =>
        d.resolvedPath ? `${d.path} (resolves to ${d.resolvedPath})` : d.path,
      );
      return structuredResult({ directories }, `Allowed directories:\n${lines.join('\n')}`);
    },
  });

  return [readText, readFile, readMedia, readMultiple, getInfo, listAllowed] as ToolDefinition[];
}

/** Paths accepted by one read_multiple_files call. */
const MAX_PATHS = 100;

/** Largest media file returned: at least 10 MiB (photos, audio), more if --max-file-bytes is higher. */
function mediaLimit(config: Config): number {
  return Math.max(config.maxFileBytes, 10 * 1024 * 1024);
}
