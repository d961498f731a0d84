/**
 * Listing tools: list_directory, list_directory_with_sizes, directory_tree. Names, argument names
 * and text shapes are the official server's ([FILE]/[DIR] lines, the JSON tree); what is added —
 * pagination, depth/entry/byte/time budgets, symlink containment — is optional or explicit.
 */

import type { ResolvedPath } from '@refmcp/shared/paths';
import { displayPath, pathFs as fs, hasRawBytes } from '@refmcp/shared/paths';
import { cursorString, pathString, safeString } from '@refmcp/shared/schema';
import {
  defineTool,
  LOCAL_HINTS,
  makeCursor,
  queryKey,
  readCursor,
  structuredResult,
  type ToolDefinition,
  ToolError,
  type ToolResult,
  truncationMarker,
} from '@refmcp/shared/server';
import * as z from 'zod'; // zod itself: through shared/schema's re-exported namespace every zod export stays in the bundle (+100 KB)
import type { Config } from '../config.js';
import { excluder } from '../globs.js';
import {
  entriesAfter,
  entryTag,
  formatSize,
  type ListedEntry,
  readListing,
  type SortBy,
  sortEntries,
  sortKey,
} from '../listing.js';
import { buildTreePage, type TreeNode } from '../tree.js';

/** Bytes of a result kept free for summary and marker lines. */
const RESERVE_BYTES = 2048;

export const DEFAULT_TREE_DEPTH = 8;
export const MAX_TREE_DEPTH = 64;

const entryKind = z.enum(['file', 'directory', 'symlink', 'other']);
const targetKind = z.enum(['file', 'directory', 'other']);

const listedEntry = z.object({
  name: z.string(),
  type: entryKind,
  target: targetKind
    .optional()
    .describe('For a symlink: what it points to (always inside the allowed directories).'),
  size: z.number().optional().describe('Bytes (files and links to files; list_directory_with_sizes only).'),
});

const listingOutput = z.object({
  path: z.string(),
  entries: z.array(listedEntry).describe('This page of entries.'),
  total: z.number().describe('Entries in the whole directory.'),
  files: z.number(),
  directories: z.number(),
  others: z.number().describe('Symlinks, FIFOs, sockets, devices.'),
  totalSize: z.number().optional().describe('Sum of all file sizes in the directory, in bytes.'),
  skippedLinks: z
    .number()
    .describe('Symlinks not shown: target outside the allowed directories, dangling or looping.'),
  nextCursor: z.string().optional().describe('Pass as cursor to get the next page; absent on the last page.'),
});

export const excludePatternsSchema = z
  .array(safeString({ max: 1000, min: 1 }))
  .max(100)
  .default([])
  .describe(
    'Entries to leave out: globs relative to path ("**/*.log"), or names at any depth ("node_modules")',
  );

const pathArg = (what: string) => pathString().describe(what);

/** Resolves `input` to an existing directory inside the allowed directories. */
export async function resolveDirectory(config: Config, input: string): Promise<ResolvedPath> {
  const resolved = await config.workspace.roots.resolve(input, { mustExist: true });
  const st = await fs.stat(resolved.real).catch(() => {
    throw new ToolError(`path: ${JSON.stringify(input)} changed while it was being used; retry.`);
  });
  if (!st.isDirectory()) {
    throw new ToolError(
      `path: ${JSON.stringify(input)} is not a directory; use read_text_file or get_file_info for files`,
    );
  }
  return resolved;
}

/** Said after a name that is not valid UTF-8 (shown with its raw bytes as \xHH). */
const NOT_UTF8 = ' (name not valid UTF-8: each \\xHH is a raw byte; pass the name exactly as shown)';

function entryLine(e: ListedEntry, withSizes: boolean): string {
  const tag = entryTag(e);
  const link = e.type === 'symlink' ? ` (link to a ${e.target ?? 'file'})` : '';
  const note = hasRawBytes(e.name) ? NOT_UTF8 : '';
  const name = displayPath(e.name);
  if (!withSizes) return `${tag} ${name}${link}${note}`;
  const isFile = e.type === 'file' || (e.type === 'symlink' && e.target === 'file');
  const size = e.size !== undefined ? formatSize(e.size).padStart(10) : isFile ? '(size unknown)' : '';
  return `${tag} ${`${name}${link}`.padEnd(30)} ${size}${note}`;
}

async function listingPage(
  config: Config,
  args: { path: string; cursor?: string | undefined },
  withSizes: boolean,
  sortBy: SortBy,
): Promise<ToolResult> {
  const tool = withSizes ? 'list_directory_with_sizes' : 'list_directory';
  const dir = await resolveDirectory(config, args.path);
  const key = queryKey(tool, { real: dir.real, sortBy });
  const position = readCursor<{ after: [number, string] }>(args.cursor, key);
  const listing = await readListing(dir.real, {
    withSizes,
    contains: (r) => config.workspace.roots.containsReal(r),
  });
  const remaining = entriesAfter(sortEntries(listing.entries, sortBy), sortBy, position?.after);
  const budget = config.maxResultBytes - RESERVE_BYTES;
  const page: ListedEntry[] = [];
  const lines: string[] = [];
  let bytes = 0;
  for (const e of remaining) {
    if (page.length >= config.maxEntries) break;
    const line = entryLine(e, withSizes);
    const cost = Buffer.byteLength(line) + 1;
    if (page.length > 0 && bytes + cost > budget) break;
    page.push(e);
    lines.push(line);
    bytes += cost;
  }
  const more = remaining.length - page.length;
  const last = page[page.length - 1];
  const nextCursor = more > 0 && last ? makeCursor(key, { after: sortKey(last, sortBy) }) : undefined;
  const total = listing.entries.length;
  if (total === 0) lines.push('(empty directory)');
  if (withSizes) {
    lines.push('', `Total: ${listing.files} files, ${listing.directories} directories`);
    lines.push(`Combined size: ${formatSize(listing.totalSize ?? 0)}`);
  }
  if (listing.skippedLinks > 0) {
    lines.push(
      `(${listing.skippedLinks} symlink(s) not shown: they point outside the allowed directories or nowhere)`,
    );
  }
  if (nextCursor) {
    const shown = total - remaining.length;
    lines.push(
      truncationMarker(
        `entries ${shown + 1}–${shown + page.length} of ${total} shown, ${more} more`,
        `call ${tool} again with the same path and cursor "${nextCursor}"`,
      ),
    );
  }
  return structuredResult(
    {
      path: displayPath(dir.absolute),
      entries: page.map((e) => (hasRawBytes(e.name) ? { ...e, name: displayPath(e.name) } : e)),
      total,
      files: listing.files,
      directories: listing.directories,
      others: listing.others,
      ...(withSizes ? { totalSize: listing.totalSize ?? 0 } : {}),
      skippedLinks: listing.skippedLinks,
      ...(nextCursor ? { nextCursor } : {}),
    },
    lines.join('\n'),
  );
}

type TreeNodeShape = z.ZodType<TreeNode>;
const treeNode: TreeNodeShape = z.lazy(() =>
  z.object({
    name: z.string(),
    type: entryKind,
    target: targetKind.optional(),
    children: z.array(treeNode).optional(),
    maxDepthReached: z.literal(true).optional(),
    continued: z.literal(true).optional(),
  }),
);

const treeOutput = z.object({
  path: z.string(),
  tree: z.array(treeNode).describe('Entries of this page as a tree; directories carry children.'),
  entries: z.number().describe('Entries on this page.'),
  maxDepth: z.number(),
  depthLimited: z.number().describe('Directories at maxDepth whose contents are not shown.'),
  skippedLinks: z.number(),
  unreadable: z.number().describe('Directories that could not be read.'),
  truncated: z
    .object({
      reason: z.enum(['entries', 'bytes', 'time', 'cancelled']),
      moreEstimate: z
        .number()
        .describe(
          'Entries left in the directories already opened, before exclusions: an estimate of what remains.',
        ),
    })
    .optional(),
  timedOut: z.boolean().optional(),
  nextCursor: z.string().optional(),
});

function treeMarker(reason: string, pending: number, config: Config, nextCursor?: string): string {
  const why =
    reason === 'entries'
      ? `entry budget (${config.maxEntries}) reached`
      : reason === 'bytes'
        ? `byte budget (${config.maxResultBytes}) reached`
        : reason === 'time'
          ? `time budget (${config.walkTimeoutMs} ms) ran out; partial result`
          : 'cancelled';
  // Without a cursor (stopped before any entry could be resumed from), the same call starts over.
  const again = nextCursor
    ? `call directory_tree again with the same arguments and cursor "${nextCursor}"`
    : 'call directory_tree again';
  return truncationMarker(
    `${why}; about ${pending} more entries not shown`,
    `narrow path, add excludePatterns, lower maxDepth, or ${again}`,
  );
}

export function listTools(config: Config): ToolDefinition[] {
  const listDirectory = defineTool({
    name: 'list_directory',
    title: 'List Directory',
    description:
      'List one directory, sorted by name: a "[FILE] name", "[DIR] name" or "[LINK] name" line each. ' +
      `At most ${config.maxEntries} entries a call; when there are more, pass the returned nextCursor as cursor.`,
    inputSchema: z.strictObject({
      path: pathArg('Directory to list'),
      cursor: cursorString().optional(),
    }),
    outputSchema: listingOutput,
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args) => listingPage(config, args, false, 'name'),
  });

  const listWithSizes = defineTool({
    name: 'list_directory_with_sizes',
    title: 'List Directory with Sizes',
    description: "Like list_directory, with each file's size and the directory's totals; paged the same way.",
    inputSchema: z.strictObject({
      path: pathArg('Directory to list'),
      sortBy: z.enum(['name', 'size']).default('name').describe('size: largest first'),
      cursor: cursorString().optional(),
    }),
    outputSchema: listingOutput,
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args) => listingPage(config, args, true, args.sortBy),
  });

  const directoryTree = defineTool({
    name: 'directory_tree',
    title: 'Directory Tree',
    description:
      'Recursive tree of a directory as JSON. At most ' +
      `${config.maxEntries} entries, ${config.maxResultBytes} bytes and ${config.walkTimeoutMs} ms a call; when cut, ` +
      'call again with the same arguments and the returned nextCursor as cursor. Symlinks are not followed.',
    inputSchema: z.strictObject({
      path: pathArg('Directory'),
      excludePatterns: excludePatternsSchema,
      maxDepth: z
        .number()
        .int()
        .min(1)
        .max(MAX_TREE_DEPTH)
        .default(DEFAULT_TREE_DEPTH)
        .describe('Levels to descend'),
      cursor: cursorString().optional(),
    }),
    outputSchema: treeOutput,
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal, progress }) => {
      const dir = await resolveDirectory(config, args.path);
      const key = queryKey('directory_tree', { real: dir.real, ex: args.excludePatterns, d: args.maxDepth });
      const position = readCursor<{ after: string }>(args.cursor, key);
      const page = await buildTreePage(dir.real, {
        contains: (r) => config.workspace.roots.containsReal(r),
        maxDepth: args.maxDepth,
        deadline: performance.now() + config.walkTimeoutMs,
        signal,
        ...(position ? { after: position.after } : {}),
        ...(progress
          ? { onProgress: (n: number) => progress.report(n, undefined, `${n} entries walked`) }
          : {}),
        exclude: excluder(args.excludePatterns),
        maxEntries: config.maxEntries,
        maxBytes: config.maxResultBytes - RESERVE_BYTES,
      });
      const resumable = page.stoppedBy && page.stoppedBy !== 'cancelled';
      const after = page.last ?? position?.after;
      const nextCursor = resumable && after ? makeCursor(key, { after }) : undefined;
      const content: ToolResult['content'] = [
        {
          type: 'text',
          text: JSON.stringify(
            page.tree,
            (_k, v: unknown) => (typeof v === 'string' ? displayPath(v) : v),
            2,
          ),
        },
      ];
      const notes: string[] = [];
      if (page.stoppedBy) notes.push(treeMarker(page.stoppedBy, page.pending, config, nextCursor));
      if (page.depthLimited > 0) {
        notes.push(
          `${page.depthLimited} director${page.depthLimited === 1 ? 'y' : 'ies'} at maxDepth ${args.maxDepth} not expanded ` +
            '("maxDepthReached"): raise maxDepth or call directory_tree on them.',
        );
      }
      if (page.skippedLinks > 0)
        notes.push(
          `${page.skippedLinks} symlink(s) pointing outside the allowed directories or nowhere were left out.`,
        );
      if (page.unreadable > 0)
        notes.push(`${page.unreadable} director${page.unreadable === 1 ? 'y' : 'ies'} could not be read.`);
      if (notes.length > 0) content.push({ type: 'text', text: notes.join('\n') });
      return {
        content,
        structuredContent: {
          path: dir.absolute,
          tree: page.tree,
          entries: page.entries,
          maxDepth: args.maxDepth,
          depthLimited: page.depthLimited,
          skippedLinks: page.skippedLinks,
          unreadable: page.unreadable,
          ...(page.stoppedBy ? { truncated: { reason: page.stoppedBy, moreEstimate: page.pending } } : {}),
          ...(page.stoppedBy === 'time' ? { timedOut: true } : {}),
          ...(nextCursor ? { nextCursor } : {}),
        },
      };
    },
  });

  return [listDirectory, listWithSizes, directoryTree];
}
