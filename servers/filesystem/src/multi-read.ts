/**
 * read_multiple_files: whole-file text reads of several paths sharing one result budget, in the order given.
 * A file that fails is reported inline and does not fail the batch.
 */
import type { AllowedRoots } from '@refmcp/shared/paths';
import { describeError, truncateUtf8, truncationMarker } from '@refmcp/shared/server';
import { quote } from './format.js';
import { readTextFile, type TextReadLimits } from './text-read.js';

export interface FileOutcome {
  path: string;
  status: 'ok' | 'error' | 'skipped';
  content?: string;
  error?: string;
  truncated?: boolean;
  nextOffset?: number;
  /** Not valid UTF-8: invalid bytes are shown as U+FFFD. */
  invalidUtf8?: true;
}

/** Below this many bytes of budget left, further files are skipped rather than cut to a sliver. */
const MIN_FILE_BUDGET = 512;
const SEPARATOR = '\n---\n';

/**
 * Reads each path whole (same rules as read_text_file without options) into the text format of the
 * official server — "<path>:\n<content>\n" per file, "<path>: Error - <reason>" on failure, joined by
 * "\n---\n" — keeping the total within `limits.maxResultBytes`. Never throws for one file's failure.
 */
export async function readMultipleFiles(
  roots: AllowedRoots,
  paths: readonly string[],
  limits: TextReadLimits,
  signal?: AbortSignal,
): Promise<{ text: string; files: FileOutcome[] }> {
  const blocks: string[] = [];
  const files: FileOutcome[] = [];
  // Room kept for the closing "not read" marker, so the whole text stays within the budget.
  const reserve = Math.min(600, Math.floor(limits.maxResultBytes / 4));
  let left = limits.maxResultBytes - reserve;
  const skipped: string[] = [];
  for (const path of paths) {
    signal?.throwIfAborted();
    const overhead = Buffer.byteLength(`${path}:\n\n${SEPARATOR}`);
    if (left - overhead < MIN_FILE_BUDGET) {
      skipped.push(path);
      files.push({ path, status: 'skipped' });
      continue;
    }
    let block: string;
    try {
      const read = await readTextFile(
        roots,
        { path },
        { maxFileBytes: limits.maxFileBytes, maxResultBytes: left - overhead },
        { signal },
      );
      block = `${path}:\n${read.text}\n`;
      files.push({
        path,
        status: 'ok',
        content: read.data.content,
        ...(read.data.truncated ? { truncated: true } : {}),
        ...(read.data.truncated && read.data.nextOffset ? { nextOffset: read.data.nextOffset } : {}),
        ...(read.data.invalidUtf8 ? { invalidUtf8: true } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const message = describeError(error);
      block = truncateUtf8(`${path}: Error - ${message}`, Math.max(0, left - SEPARATOR.length)).text;
      files.push({ path, status: 'error', error: message });
    }
    blocks.push(block);
    left -= Buffer.byteLength(block) + Buffer.byteLength(SEPARATOR);
  }
  if (skipped.length > 0) {
    const how = 'read them with read_text_file or in another read_multiple_files call';
    const names = `${skipped.slice(0, 10).map(quote).join(', ')}${skipped.length > 10 ? ', …' : ''}`;
    const what = `${skipped.length} file(s) not read, the ${limits.maxResultBytes}-byte result budget is used up`;
    const full = truncationMarker(`${what}: ${names}`, how);
    const fits = Buffer.byteLength(full) + SEPARATOR.length <= reserve;
    blocks.push(fits ? full : truncationMarker(what, `see the files list; ${how}`));
  }
  return { text: blocks.join(SEPARATOR), files };
}
