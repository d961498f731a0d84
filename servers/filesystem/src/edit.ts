/**
 * Search-and-replace edits of a text file's content, and their unified diff. Pure: strings in, strings out.
 *
 * Replacement is literal (slice and concatenate — never String.replace, whose replacement string would
 * read `$&`, `$'`, `$1`, `$$` as patterns: case FS-07). Each oldText must match exactly once. When it does
 * not match exactly, two forgiving matches are tried, in order, and applied only when unique:
 *   1. line endings: the file uses CRLF and oldText LF (or the reverse);
 *   2. trailing whitespace: whole lines equal once trailing spaces/tabs (and CR) are ignored.
 * A match that needs leading whitespace (indentation) ignored is never applied — in Python or YAML that
 * changes meaning — but the error quotes the file's actual lines so the next attempt can copy them.
 * newText takes the file's line-ending style (CRLF stays CRLF).
 */
import { createTwoFilesPatch } from 'diff';

export interface TextEdit {
  oldText: string;
  newText: string;
}

/** How an edit's oldText was found. */
export type MatchKind = 'exact' | 'line-endings' | 'trailing-whitespace';

export interface AppliedEdit {
  /** 0-based position in the edits list. */
  index: number;
  /** 1-based line where the replaced text started (in the content as it was when this edit ran). */
  line: number;
  match: MatchKind;
}

export type LineEndings = 'lf' | 'crlf' | 'mixed' | 'none';

export interface EditOutcome {
  content: string;
  applied: AppliedEdit[];
  lineEndings: LineEndings;
}

/** An edit could not be applied; `message` says why and what to send instead. */
export class EditError extends Error {
  override name = 'EditError';
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/** Occurrences counted before giving up ("matches 1000+ times"). */
const MAX_COUNTED = 1000;
/** Line numbers listed in an ambiguity message. */
const MAX_LISTED = 8;
/** Characters of the file's actual text quoted in an error. */
const MAX_QUOTED = 2000;

export function lineEndingsOf(text: string): LineEndings {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
    if (crlf && lf) return 'mixed';
  }
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}

const toLf = (s: string) => s.replaceAll('\r\n', '\n');
const toCrlf = (s: string) => toLf(s).replaceAll('\n', '\r\n');

/** newText in the file's line-ending style (as given for mixed files and files without line breaks). */
function adaptNewText(newText: string, style: LineEndings): string {
  if (style === 'crlf') return toCrlf(newText);
  if (style === 'lf') return toLf(newText);
  return newText;
}

/** Start offsets of `needle` in `hay` (overlapping), at most `cap` of them. */
function findAll(hay: string, needle: string, cap = MAX_COUNTED): number[] {
  const found: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1 && found.length < cap; i = hay.indexOf(needle, i + 1))
    found.push(i);
  return found;
}

/** 1-based line number of offset `at`. */
function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Offset in `text` of offset `lfAt` in toLf(text). */
function fromLfOffset(text: string, lfAt: number): number {
  let skipped = 0;
  for (let i = text.indexOf('\r\n'); i !== -1 && i - skipped < lfAt; i = text.indexOf('\r\n', i + 2))
    skipped++;
  return lfAt + skipped;
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function ambiguous(index: number, text: string, starts: number[], how: string): EditError {
  const lines = starts.slice(0, MAX_LISTED).map((s) => lineAt(text, s));
  const count = starts.length >= MAX_COUNTED ? `${MAX_COUNTED}+` : String(starts.length);
  const more = starts.length > MAX_LISTED ? ', …' : '';
  return new EditError(
    index,
    `edits[${index}].oldText matches ${count} times${how} (at lines ${lines.join(', ')}${more}); it must match ` +
      'exactly once. Add surrounding lines to oldText so that it identifies one place, or split the change into ' +
      'one edit per occurrence.',
  );
}

/** Line start offsets and lines (without "\n") of `text`. */
function splitLines(text: string): { starts: number[]; lines: string[] } {
  const starts = [0];
  const lines: string[] = [];
  let from = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    lines.push(text.slice(from, i));
    from = i + 1;
    starts.push(from);
  }
  lines.push(text.slice(from));
  return { starts, lines };
}

/** Indexes i where `want` equals lines[i…] under `same`. */
function lineWindows(lines: string[], want: string[], same: (a: string, b: string) => boolean): number[] {
  const hits: number[] = [];
  for (let i = 0; i + want.length <= lines.length && hits.length < MAX_COUNTED; i++) {
    let ok = true;
    for (let j = 0; j < want.length && ok; j++) ok = same(lines[i + j] ?? '', want[j] ?? '');
    if (ok) hits.push(i);
  }
  return hits;
}

function quoteLines(lines: string[]): string {
  const text = lines.join('\n');
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/** Applies one edit to `text`; returns the new text and how it matched, or throws EditError. */
function applyOne(
  text: string,
  edit: TextEdit,
  index: number,
  style: LineEndings,
): { text: string; applied: AppliedEdit } {
  const { oldText } = edit;
  if (oldText === '') {
    throw new EditError(
      index,
      `edits[${index}].oldText is empty; give the exact text to replace (to replace the whole file use write_file).`,
    );
  }
  const newText = adaptNewText(edit.newText, style);

  // 1. Exact.
  const exact = findAll(text, oldText);
  if (exact.length > 1) throw ambiguous(index, text, exact, '');
  const [at] = exact;
  if (at !== undefined) {
    return {
      text: splice(text, at, at + oldText.length, newText),
      applied: { index, line: lineAt(text, at), match: 'exact' },
    };
  }

  // 2. Line endings: compare with CRLF folded to LF on both sides.
  const lfText = toLf(text);
  const lfOld = toLf(oldText);
  if (lfText !== text || lfOld !== oldText) {
    const hits = findAll(lfText, lfOld);
    if (hits.length > 1) throw ambiguous(index, lfText, hits, ' once line endings are ignored');
    const [lfAt] = hits;
    if (lfAt !== undefined) {
      const start = fromLfOffset(text, lfAt);
      const end = fromLfOffset(text, lfAt + lfOld.length);
      return {
        text: splice(text, start, end, newText),
        applied: { index, line: lineAt(text, start), match: 'line-endings' },
      };
    }
  }

  // 3. Whole lines, trailing whitespace ignored (this also absorbs CR).
  const { starts, lines } = splitLines(text);
  const endsWithNewline = lfOld.endsWith('\n');
  const want = (endsWithNewline ? lfOld.slice(0, -1) : lfOld).split('\n');
  const trailing = lineWindows(lines, want, (a, b) => a.trimEnd() === b.trimEnd());
  if (trailing.length > 1) {
    throw ambiguous(
      index,
      text,
      trailing.map((i) => starts[i] ?? 0),
      ' once trailing whitespace is ignored',
    );
  }
  const [first] = trailing;
  if (first !== undefined) {
    const last = first + want.length - 1;
    const start = starts[first] ?? 0;
    // With a final "\n" in oldText the last line's terminator is replaced too.
    const end = endsWithNewline
      ? (starts[last + 1] ?? text.length)
      : (starts[last] ?? 0) + (lines[last] ?? '').length;
    const lineEnd = !endsWithNewline && lines[last]?.endsWith('\r') ? end - 1 : end;
    return {
      text: splice(text, start, lineEnd, newText),
      applied: { index, line: first + 1, match: 'trailing-whitespace' },
    };
  }

  // 4. Diagnose: indentation differs, or the text is not there at all.
  const indent = lineWindows(lines, want, (a, b) => a.trim() === b.trim());
  if (indent.length > 0) {
    const i = indent[0] ?? 0;
    const where =
      indent.length > 1 ? `at ${indent.length} places (first at line ${i + 1})` : `at line ${i + 1}`;
    throw new EditError(
      index,
      `edits[${index}].oldText was not found exactly, but matches ${where} if indentation is ignored — the ` +
        `leading whitespace differs, so it was not applied. The file has:\n${quoteLines(lines.slice(i, i + want.length).map((l) => l.replace(/\r$/, '')))}\n` +
        'Copy this text (with its indentation) into oldText.',
    );
  }
  const probe = want.map((l) => l.trim()).find((l) => l.length > 0);
  const seen = probe ? lines.flatMap((l, i) => (l.includes(probe) ? [i + 1] : [])).slice(0, MAX_LISTED) : [];
  let hint = ' None of its lines was found either.';
  if (seen.length > 0 && want.length === 1) {
    hint = ` Its text (trimmed) occurs in line ${seen.join(', ')}, but not with the whitespace given.`;
  } else if (seen.length > 0) {
    hint = ` Its first non-blank line appears in line ${seen.join(', ')}, but the lines after it differ.`;
  }
  throw new EditError(
    index,
    `edits[${index}].oldText was not found in the file.${hint} Re-read the file (read_text_file with offset/limit) ` +
      'and copy the exact current text, including whitespace, into oldText.',
  );
}

/**
 * Applies `edits` in order, each to the result of the ones before. Throws EditError (naming the edit's
 * index) at the first edit that cannot be applied; nothing is partially applied by the caller then.
 */
export function applyEdits(original: string, edits: readonly TextEdit[]): EditOutcome {
  const lineEndings = lineEndingsOf(original);
  let text = original;
  const applied: AppliedEdit[] = [];
  edits.forEach((edit, index) => {
    const step = applyOne(text, edit, index, lineEndings);
    text = step.text;
    applied.push(step.applied);
  });
  return { content: text, applied, lineEndings };
}

/**
 * A unified diff (`diff -u` format, via the diff package) of `before` → `after`, labelled with `label`,
 * shown with LF line endings (CR would be invisible noise to the reader), inside a ```diff fence long enough
 * not to be closed by backticks in the content.
 */
export function unifiedDiff(label: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(label, label, toLf(before), toLf(after), 'original', 'modified');
  let fence = '```';
  while (patch.includes(fence)) fence += '`';
  return `${fence}diff\n${patch}${fence}`;
}
