/**
 * Content search in one file's text: binary detection, line splitting, and turning line hits into
 * matches with context lines, each line cut to a readable width around the match.
 */
import { type LineHit, MAX_REGEX_LINE } from './line-matcher.js';

/** Bytes inspected for NUL to call a file binary (git's heuristic uses the first 8000). */
export const BINARY_SNIFF_BYTES = 8000;

/** Characters of a matched or context line returned to the model. */
export const MAX_LINE_OUTPUT = 400;

export interface GrepMatch {
  /** 1-based line number. */
  line: number;
  /** 1-based column of the match (UTF-16 code units). */
  column: number;
  /** The line, cut to MAX_LINE_OUTPUT characters around the match ("…" marks cuts). */
  text: string;
  before: string[];
  after: string[];
  /**
   * The regex saw only the first {@link MAX_REGEX_LINE} characters of this `lineLength`-character line: `$` and
   * lookaheads matched against the cut, so the match may not hold on the whole line.
   */
  lineTruncated?: true;
  lineLength?: number;
}

/** True when the bytes look binary: a NUL in the first BINARY_SNIFF_BYTES. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Splits text into lines (LF or CRLF); a final newline does not start an extra empty line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Cuts `line` to at most `width` characters, keeping `[column, column+length)` in view. */
export function clipLine(line: string, column = 0, length = 0, width = MAX_LINE_OUTPUT): string {
  if (line.length <= width) return line;
  const lead = Math.min(column, Math.max(40, Math.floor((width - Math.min(length, width)) / 2)));
  const start = Math.max(0, column - lead);
  const end = Math.min(line.length, start + width);
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

/**
 * Matches with `contextLines` lines before and after each hit. Context is per match (two close
 * matches may repeat lines between them, so each match stands alone in structured output).
 */
export function buildMatches(
  lines: readonly string[],
  hits: readonly LineHit[],
  contextLines: number,
): GrepMatch[] {
  return hits.map((hit) => {
    const from = Math.max(0, hit.index - contextLines);
    const to = Math.min(lines.length, hit.index + 1 + contextLines);
    return {
      line: hit.index + 1,
      column: hit.column + 1,
      text: clipLine(lines[hit.index] as string, hit.column, hit.length),
      before: lines.slice(from, hit.index).map((l) => clipLine(l)),
      after: lines.slice(hit.index + 1, to).map((l) => clipLine(l)),
      ...(hit.lineCut
        ? { lineTruncated: true as const, lineLength: (lines[hit.index] as string).length }
        : {}),
    };
  });
}

/** The marker after a match found on a line the regex saw only the start of. */
export function cutNote(lineLength = 0): string {
  return (
    ` [line cut: the regex saw only its first ${MAX_REGEX_LINE} of ${lineLength} characters, so $ and lookaheads ` +
    'matched at the cut; the match may not hold on the whole line]'
  );
}

/**
 * Renders one file's matches like `grep -n` with context: `12:text` for matching lines, `11-text`
 * for context, `--` between non-adjacent groups. Overlapping context is printed once.
 */
export function renderFileMatches(matches: readonly GrepMatch[]): string[] {
  const out: string[] = [];
  let lastPrinted = 0;
  for (const m of matches) {
    const first = m.line - m.before.length;
    if (lastPrinted > 0 && first > lastPrinted + 1) out.push('--');
    m.before.forEach((text, i) => {
      const n = first + i;
      if (n > lastPrinted) out.push(`${n}-${text}`);
    });
    if (m.line > lastPrinted) out.push(`${m.line}:${m.text}${m.lineTruncated ? cutNote(m.lineLength) : ''}`);
    m.after.forEach((text, i) => {
      const n = m.line + 1 + i;
      if (n > lastPrinted) out.push(`${n}-${text}`);
    });
    lastPrinted = Math.max(lastPrinted, m.line + m.after.length);
  }
  return out;
}
