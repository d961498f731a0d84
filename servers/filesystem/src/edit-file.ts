/**
 * edit_file as an operation: read the file through a verified handle, apply the edits in memory (edit.ts),
 * diff, and — unless it is a dry run — write the result atomically, keeping the file's mode (FS-13).
 */
import { type AllowedRoots, openInside, writeFileAtomic } from '@refmcp/shared/paths';
import { ToolError, truncateUtf8, truncationMarker } from '@refmcp/shared/server';
import { type AppliedEdit, applyEdits, type TextEdit, unifiedDiff } from './edit.js';
import { formatBytes, quote } from './format.js';
import { SNIFF_BYTES } from './lines.js';

export interface EditFileResult {
  path: string;
  dryRun: boolean;
  /** True when the file was written (false for a dry run, or when the edits change nothing). */
  written: boolean;
  edits: AppliedEdit[];
  diff: string;
}

const MATCH_NOTE: Record<string, string> = {
  'line-endings': 'matched once line endings were ignored (the file keeps its own)',
  'trailing-whitespace': 'matched once trailing whitespace was ignored',
};

/** Reads `input` as UTF-8 text of at most `maxBytes`; returns the text and the stat used to detect changes. */
async function readForEdit(roots: AllowedRoots, input: string, maxBytes: number) {
  const { handle, stat } = await openInside(roots, input);
  try {
    if (stat.size > maxBytes) {
      throw new ToolError(
        `${quote(input)} is ${formatBytes(stat.size)}, over the ${formatBytes(maxBytes)} limit for edit_file.`,
      );
    }
    const bytes = await handle.readFile();
    if (bytes.subarray(0, SNIFF_BYTES).includes(0)) {
      throw new ToolError(
        `${quote(input)} looks binary (it has NUL bytes); edit_file edits text files only.`,
      );
    }
    try {
      // ignoreBOM keeps a byte-order mark in the text, so it is written back unchanged.
      return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), stat };
    } catch {
      throw new ToolError(
        `${quote(input)} is not valid UTF-8, so it cannot be edited without changing bytes it does not mention; ` +
          'rewrite it with write_file if that is intended.',
      );
    }
  } finally {
    await handle.close().catch(() => {});
  }
}

/**
 * Applies `edits` to `input` (all or none), returning the diff. `maxDiffBytes` bounds the diff in the text.
 * Errors: ToolError (an edit that does not match exactly once, not text, too big, changed meanwhile), PathError.
 */
export async function editFile(
  roots: AllowedRoots,
  input: string,
  edits: readonly TextEdit[],
  opts: { dryRun: boolean; maxFileBytes: number; maxDiffBytes: number },
): Promise<{ result: EditFileResult; text: string }> {
  const before = await readForEdit(roots, input, opts.maxFileBytes);
  let outcome: ReturnType<typeof applyEdits>;
  try {
    outcome = applyEdits(before.text, edits);
  } catch (error) {
    if (error instanceof Error && error.name === 'EditError') {
      throw new ToolError(`${error.message} No edit was applied; the file is unchanged.`);
    }
    throw error;
  }
  const changed = outcome.content !== before.text;
  if (changed && !opts.dryRun) {
    // Refuse to overwrite a change made since the read (another editor, a second call in flight).
    const { handle, stat } = await openInside(roots, input);
    await handle.close().catch(() => {});
    if (
      stat.ino !== before.stat.ino ||
      stat.size !== before.stat.size ||
      stat.mtimeMs !== before.stat.mtimeMs
    ) {
      throw new ToolError(
        `${quote(input)} changed while it was being edited; nothing was written. Retry the edit.`,
      );
    }
    await writeFileAtomic(roots, input, outcome.content);
  }
  const diff = unifiedDiff(input, before.text, outcome.content);
  const notes = outcome.applied
    .filter((a) => a.match !== 'exact')
    .map((a) => `edits[${a.index}] (line ${a.line}) ${MATCH_NOTE[a.match]}.`);
  if (outcome.lineEndings === 'crlf' && changed) notes.push('CRLF line endings kept.');
  const head = !changed
    ? 'No changes: the edits leave the file as it is; nothing was written.'
    : opts.dryRun
      ? `Dry run: nothing was written. Applying these ${edits.length} edit(s) would change ${input} as follows:`
      : `Edited ${input} (${edits.length} edit(s)):`;
  const cut = truncateUtf8(diff, opts.maxDiffBytes);
  const shownDiff = cut.truncated
    ? `${cut.text}\n${truncationMarker(`diff cut, ${cut.omittedBytes} more bytes`, 'read the changed lines with read_text_file offset/limit')}`
    : diff;
  const text = [head, ...notes, ...(changed ? [shownDiff] : [])].join('\n');
  return {
    result: {
      path: input,
      dryRun: opts.dryRun,
      written: changed && !opts.dryRun,
      edits: outcome.applied,
      diff: cut.text,
    },
    text,
  };
}
