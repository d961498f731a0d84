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
  path: pathString().describe('File to read: absolute, or relative to the first allowed directory.'),
  head: lineCount('Return only the first N lines. Not with tail, offset/limit or byteOffset/byteLength.'),
  tail: lineCount('Return only the last N lines (read from the end; fast on huge files). Not with head.'),
  offset: lineCount(
    '1-based line number to start at (with limit: a line range). Use nextOffset from a cut result.',
  ),
  limit: lineCount('Number of lines to return, starting at offset (default: to the end of the file).'),
  byteOffset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('0-based byte position to start at (a byte range; moved forward to a character boundary).'),
  byteLength: lineCount(
    'Number of bytes to return from byteOffset (default: to the end, within the budget).',
  ),
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
    'Read a text file (UTF-8). Without options it returns the whole file, up to ' +
    `${config.maxFileBytes} bytes; for bigger files, or to save context, read a part: head=N (first N lines), ` +
    'tail=N (last N lines), offset+limit (a 1-based line range), or byteOffset+byteLength (a byte range). ' +
    'Use only one of these at a time. Each result is at most ' +
    `${config.maxResultBytes} bytes; when it is cut, a final "[truncated: …]" line says which offset or ` +
    'byteOffset continues it. Bytes that are not valid UTF-8 are shown as U+FFFD and a final "[note: …]" line ' +
    '(and invalidUtf8: true) says so. Binary files (a NUL byte in the first 8000 bytes) are refused: use read_media_file ' +
    'for images and audio. Relative paths resolve against the first allowed directory.'
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
    description: `DEPRECATED: use read_text_file, which this is an alias of (same arguments and result). ${readTextDescription(config)}`,
  });

  const readMedia = defineTool({
    name: 'read_media_file',
    title: 'Read Media File',
    description:
      'Read an image or audio file and return it as an image or audio content block (base64) with its MIME type, ' +
      'decided from the file content (magic bytes) and then the extension: PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF, ' +
      'HEIC, MP3, WAV, OGG, FLAC, M4A. Other binary files (PDF, ZIP, …) come back as an embedded resource blob; ' +
      `SVG as its XML text. Files over ${mediaLimit(config)} bytes are refused. For text files use read_text_file.`,
    inputSchema: z.strictObject({
      path: pathString().describe(
        'Image, audio or other binary file: absolute, or relative to the first allowed directory.',
      ),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) =>
      readMediaFile(config.workspace.roots, args.path, mediaLimit(config), signal),
  });

  const readMultiple = defineTool({
    name: 'read_multiple_files',
    title: 'Read Multiple Files',
    description:
      'Read several text files in one call; each comes back as "<path>:\\n<content>", separated by "---". A file ' +
      'that cannot be read (missing, binary, too big, outside the allowed directories) gets an inline ' +
      '"<path>: Error - <reason>" and does not fail the others. All files share one ' +
      `${config.maxResultBytes}-byte budget, filled in the order given: a file cut by it says which offset ` +
      'continues it, and files after the budget is used up are listed as not read. Use read_text_file for parts ' +
      'of big files.',
    inputSchema: z.strictObject({
      paths: z
        .array(pathString())
        .min(1, 'give at least one path')
        .max(MAX_PATHS, `at most ${MAX_PATHS} paths per call`)
        .describe('Files to read, in the order their contents should appear.'),
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
      'Metadata of a file or directory without reading it: size in bytes, created/modified/accessed times ' +
      '(ISO 8601), type (isFile, isDirectory, isSymbolicLink — a symlink is described by its target, which must ' +
      'be inside the allowed directories) and permissions (octal and rwx). Use it to check size before reading.',
    inputSchema: z.strictObject({
      path: pathString().describe('File or directory: absolute, or relative to the first allowed directory.'),
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
      'The directories this server may read and write (subdirectories included), as configured, with the real ' +
      'path where a symlink makes it differ. Relative paths in other tools resolve against the first one. Call ' +
      'this first when unsure where files may be.',
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
