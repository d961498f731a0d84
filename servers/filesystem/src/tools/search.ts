/**
 * Search tools: search_files (official name and arguments: find entries by name) and
 * search_file_contents (grep, which the official server lacks). Both walk with the shared bounded
 * walker and return bounded, cursor-paginated pages with structured matches.
 */

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pathFs as fs, hasRawBytes } from '@refmcp/shared/paths';
import { cursorString, pathString, safeString } from '@refmcp/shared/schema';
import {
  counted,
  defineTool,
  LOCAL_HINTS,
  makeCursor,
  queryKey,
  readCursor,
  structuredResult,
  type ToolDefinition,
  ToolError,
  truncationMarker,
  withResourceLinks,
} from '@refmcp/shared/server';
import * as z from 'zod'; // zod itself: through shared/schema's re-exported namespace every zod export stays in the bundle (+100 KB)
import type { Config } from '../config.js';
import { type ContentSearchPage, type ResumePoint, searchContents } from '../content-search.js';
import { documentSearchText } from '../document-search.js';
import { excluder, includer, namePattern } from '../globs.js';
import { renderFileMatches } from '../grep.js';
import { GitignoreRules } from '../ignore-rules.js';
import { compilePattern, literalMatcher, workerMatcher } from '../line-matcher.js';
import { MAX_SEARCH_DEPTH, searchNames } from '../name-search.js';
import { excludePatternsSchema, resolveDirectory } from './list.js';

const depthLimitedField = z
  .number()
  .optional()
  .describe(`Directories ${MAX_SEARCH_DEPTH} levels deep whose contents were not searched.`);

const RESERVE_BYTES = 2048;

/** Matches per page of search_file_contents unless maxResults says otherwise. */
export const DEFAULT_GREP_RESULTS = 100;
export const DEFAULT_PER_FILE = 20;
export const MAX_CONTEXT_LINES = 10;
/** Largest file search_file_contents reads, in bytes. */
export const MAX_GREP_FILE_BYTES = 16 * 1024 * 1024;

const entryKind = z.enum(['file', 'directory', 'symlink', 'other']);

const searchFilesOutput = z.object({
  path: z.string(),
  pattern: z.string(),
  matches: z.array(
    z.object({
      path: z.string().describe('Full path of the match.'),
      type: entryKind,
      target: z.enum(['file', 'directory', 'other']).optional(),
    }),
  ),
  scanned: z.number().describe('Entries examined for this page.'),
  skippedLinks: z.number(),
  depthLimited: depthLimitedField,
  timedOut: z.boolean().optional(),
  nextCursor: z
    .string()
    .optional()
    .describe('Pass as cursor to continue the search; absent when it is complete.'),
});

const grepMatch = z.object({
  path: z.string(),
  line: z.number().describe('1-based line number.'),
  column: z.number().describe('1-based column of the match.'),
  text: z.string().describe('The matching line (long lines cut around the match, "…" marks cuts).'),
  before: z.array(z.string()).describe('Context lines before (contextLines).'),
  after: z.array(z.string()).describe('Context lines after.'),
  lineTruncated: z
    .literal(true)
    .optional()
    .describe(
      'The regex saw only the first 16384 characters of this line ($ and lookaheads matched at the cut): the match may not hold on the whole line.',
    ),
  lineLength: z.number().optional().describe('Length of a cut line, in characters.'),
});

const grepOutput = z.object({
  path: z.string(),
  matches: z.array(grepMatch),
  filesSearched: z.number(),
  filesWithMatches: z.number(),
  cappedFiles: z
    .array(z.string())
    .describe('Files with more matches than maxPerFile (only the first are returned).'),
  skipped: z.object({
    binary: z.number(),
    tooLarge: z.number(),
    unreadable: z.number(),
    links: z.number().describe('Symlinks pointing outside the allowed directories or nowhere.'),
  }),
  regexTimedOut: z.array(z.string()).describe('Files skipped because the regex ran out of time on them.'),
  depthLimited: depthLimitedField,
  timedOut: z.boolean().optional(),
  nextCursor: z.string().optional(),
});

/** The line saying that directories below the depth limit were not searched. */
function depthNote(n: number): string {
  return (
    `(${n} director${n === 1 ? 'y' : 'ies'} ${MAX_SEARCH_DEPTH} levels deep not searched further: ` +
    'search again from a deeper path to reach what is below)'
  );
}

/** "1 file", "3 files". */
function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function stopReason(stoppedBy: string, config: Config): string {
  switch (stoppedBy) {
    case 'time':
      return `time budget (${config.walkTimeoutMs} ms) ran out; partial result`;
    case 'bytes':
      return `byte budget (${config.maxResultBytes}) reached`;
    case 'cancelled':
      return 'cancelled';
    default:
      return 'page full';
  }
}

function renderGrep(page: ContentSearchPage): string[] {
  const out: string[] = [];
  for (const f of page.files) {
    if (out.length > 0) out.push('');
    out.push(f.path);
    out.push(...renderFileMatches(f.matches));
    if (f.capped)
      out.push('(more matches in this file not shown: raise maxPerFile or search this file alone)');
  }
  return out;
}

export function searchTools(config: Config): ToolDefinition[] {
  const roots = () => config.workspace.roots;
  const contains = (real: string) => roots().containsReal(real);

  const searchFiles = defineTool({
    name: 'search_files',
    title: 'Search Files',
    description:
      'Find files and directories below path by name; returns full paths, one per line. ' +
      `At most ${config.maxEntries} matches and ${config.walkTimeoutMs} ms a call; when cut, call again with the ` +
      'same arguments and the returned nextCursor as cursor.',
    inputSchema: z.strictObject({
      path: pathString().describe('Directory to search'),
      pattern: safeString({ min: 1, max: 1000 }).describe(
        'Glob relative to path ("**/*.ts"), or a name fragment',
      ),
      excludePatterns: excludePatternsSchema,
      cursor: cursorString().optional(),
    }),
    outputSchema: searchFilesOutput,
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal, progress }) => {
      const dir = await resolveDirectory(config, args.path);
      const key = queryKey('search_files', { real: dir.real, p: args.pattern, ex: args.excludePatterns });
      const position = readCursor<{ after: string }>(args.cursor, key);
      const page = await searchNames(dir.real, {
        contains,
        matches: namePattern(args.pattern),
        exclude: excluder(args.excludePatterns),
        maxResults: config.maxEntries,
        maxBytes: config.maxResultBytes - RESERVE_BYTES,
        prefixBytes: Buffer.byteLength(dir.absolute) + 1,
        deadline: performance.now() + config.walkTimeoutMs,
        signal,
        ...(position ? { after: position.after } : {}),
        ...(progress
          ? { onProgress: (n: number) => progress.report(n, undefined, `${n} entries walked`) }
          : {}),
      });
      const after = page.last ?? position?.after;
      const nextCursor =
        page.stoppedBy && page.stoppedBy !== 'cancelled' && after ? makeCursor(key, { after }) : undefined;
      const matches = page.matches.map((m) => ({
        path: path.join(dir.absolute, m.rel),
        type: m.type,
        ...(m.target ? { target: m.target } : {}),
      }));
      const lines = matches.length > 0 ? matches.map((m) => m.path) : ['No matches found'];
      if (page.stoppedBy && nextCursor) {
        lines.push(
          truncationMarker(
            `${stopReason(page.stoppedBy, config)}; ${counted(matches.length, 'matches')} on this page, the search is not finished`,
            `call search_files again with the same arguments and cursor "${nextCursor}"`,
          ),
        );
      }
      if (page.skippedLinks > 0)
        lines.push(`(${page.skippedLinks} symlink(s) outside the allowed directories skipped)`);
      if (page.depthLimited > 0) lines.push(depthNote(page.depthLimited));
      // Files found are resources too (file://{+path}): link the first few for the host to open or attach.
      const links = matches
        .filter((m) => m.type === 'file' && !hasRawBytes(m.path))
        .map((m) => ({ uri: pathToFileURL(m.path).href, name: path.basename(m.path) }));
      const result = structuredResult(
        {
          path: dir.absolute,
          pattern: args.pattern,
          matches,
          scanned: page.scanned,
          skippedLinks: page.skippedLinks,
          ...(page.depthLimited > 0 ? { depthLimited: page.depthLimited } : {}),
          ...(page.stoppedBy === 'time' ? { timedOut: true } : {}),
          ...(nextCursor ? { nextCursor } : {}),
        },
        lines.join('\n'),
      );
      return withResourceLinks(result, links);
    },
  });

  const searchFileContents = defineTool({
    name: 'search_file_contents',
    title: 'Search File Contents',
    description:
      'Search inside text files (grep) below path, a directory or one file: per file, "line:text" for matches and ' +
      `"line-text" for context. .gitignore is honoured; binary files and files over ${MAX_GREP_FILE_BYTES} bytes ` +
      `are skipped. At most ${config.maxResultBytes} bytes and ${config.walkTimeoutMs} ms a call; when cut, call ` +
      'again with the same arguments and the returned nextCursor as cursor.',
    inputSchema: z.strictObject({
      path: pathString().describe('Directory or file to search'),
      pattern: safeString({ min: 1, max: 1000 }).describe('Literal text (any case unless caseSensitive)'),
      regex: z.boolean().default(false).describe('pattern is a JavaScript regular expression'),
      caseSensitive: z.boolean().default(false),
      include: z
        .array(safeString({ min: 1, max: 1000 }))
        .max(100)
        .default([])
        .describe('Only files matching a glob ("*.ts" matches names)'),
      exclude: excludePatternsSchema,
      contextLines: z
        .number()
        .int()
        .min(0)
        .max(MAX_CONTEXT_LINES)
        .default(0)
        .describe('Lines around each match'),
      respectGitignore: z.boolean().default(true).describe('false: search ignored files and .git too'),
      documents: z.boolean().default(false).describe('Also search the text of PDF and Office files (slower)'),
      maxResults: z
        .number()
        .int()
        .min(1)
        .max(config.maxEntries)
        .default(Math.min(DEFAULT_GREP_RESULTS, config.maxEntries)),
      maxPerFile: z.number().int().min(1).max(1000).default(DEFAULT_PER_FILE),
      cursor: cursorString().optional(),
    }),
    outputSchema: grepOutput,
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal, progress }) => {
      let re: RegExp;
      try {
        re = compilePattern(args.pattern, { regex: args.regex, caseSensitive: args.caseSensitive });
      } catch (error) {
        throw new ToolError(`pattern: not a valid regular expression: ${(error as Error).message}`);
      }
      const start = await roots().resolve(args.path, { mustExist: true });
      const st = await fs.stat(start.real).catch(() => {
        throw new ToolError(`path: ${JSON.stringify(args.path)} changed while it was being used; retry.`);
      });
      if (!st.isDirectory() && !st.isFile()) throw new ToolError('path: not a directory or regular file');
      const { cursor: _cursor, ...query } = args;
      const key = queryKey('search_file_contents', { real: start.real, ...query });
      const resume = readCursor<{ r: ResumePoint }>(args.cursor, key)?.r;
      const matcher = args.regex ? workerMatcher(re) : literalMatcher(re);
      const deadline = performance.now() + config.walkTimeoutMs;
      try {
        const page = await searchContents({
          roots: roots(),
          start,
          startIsFile: st.isFile(),
          matcher,
          include: includer(args.include),
          exclude: excluder(args.exclude),
          ...(args.respectGitignore && st.isDirectory()
            ? { gitignore: await GitignoreRules.forWalk(start.real, start.root.real) }
            : {}),
          contextLines: args.contextLines,
          maxResults: args.maxResults,
          maxPerFile: args.maxPerFile,
          maxBytes: config.maxResultBytes - RESERVE_BYTES,
          maxFileBytes: MAX_GREP_FILE_BYTES,
          deadline,
          signal,
          ...(resume ? { resume } : {}),
          ...(progress
            ? { onProgress: (n: number) => progress.report(n, undefined, `${n} entries walked`) }
            : {}),
          ...(args.documents
            ? {
                documentText: (bytes: Buffer, name: string) =>
                  documentSearchText(bytes, name, deadline, signal),
              }
            : {}),
        });
        const nextCursor =
          page.next && page.stoppedBy !== 'cancelled' ? makeCursor(key, { r: page.next }) : undefined;
        const lines = page.matchCount > 0 ? renderGrep(page) : ['No matches found'];
        const skipped = [
          page.skippedBinary ? `${page.skippedBinary} binary` : '',
          page.skippedLarge ? `${page.skippedLarge} over ${MAX_GREP_FILE_BYTES} bytes` : '',
          page.skippedUnreadable ? `${page.skippedUnreadable} unreadable` : '',
          page.skippedLinks ? `${count(page.skippedLinks, 'symlink')} outside the allowed directories` : '',
        ].filter(Boolean);
        lines.push(
          '',
          `${count(page.matchCount, 'match', 'matches')} in ${count(page.files.length, 'file')}; ` +
            `${count(page.filesSearched, 'file')} searched` +
            (skipped.length ? `; skipped: ${skipped.join(', ')}` : ''),
        );
        if (page.depthLimited > 0) lines.push(depthNote(page.depthLimited));
        if (page.regexTimedOut.length > 0) {
          lines.push(
            `The regex ran out of time on ${page.regexTimedOut.join(', ')} (skipped): simplify the pattern ` +
              '(nested quantifiers such as (a+)+ and backreferences can backtrack catastrophically).',
          );
        }
        if (page.stoppedBy && nextCursor) {
          lines.push(
            truncationMarker(
              `${stopReason(page.stoppedBy, config)}; the search is not finished`,
              `call search_file_contents again with the same arguments and cursor "${nextCursor}"`,
            ),
          );
        }
        return structuredResult(
          {
            path: start.absolute,
            matches: page.files.flatMap((f) => f.matches.map((m) => ({ path: f.path, ...m }))),
            filesSearched: page.filesSearched,
            filesWithMatches: page.files.length,
            cappedFiles: page.files.filter((f) => f.capped).map((f) => f.path),
            skipped: {
              binary: page.skippedBinary,
              tooLarge: page.skippedLarge,
              unreadable: page.skippedUnreadable,
              links: page.skippedLinks,
            },
            regexTimedOut: page.regexTimedOut,
            ...(page.depthLimited > 0 ? { depthLimited: page.depthLimited } : {}),
            ...(page.stoppedBy === 'time' ? { timedOut: true } : {}),
            ...(nextCursor ? { nextCursor } : {}),
          },
          lines.join('\n'),
        );
      } finally {
        await matcher.close();
      }
    },
  });

  return [searchFiles, searchFileContents];
}
