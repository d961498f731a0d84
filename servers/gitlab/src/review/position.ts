/**
 * Where a diff comment goes, and whether its suggestion applies (GitLab merge requests).
 *
 * A diff note's `position` (docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff)
 * needs the MR's `diff_refs` (base, start and head sha), the old and new path, and the line: a
 * `new_line` for an added line, an `old_line` for a removed one, and both for an unchanged
 * (context) line — GitLab refuses a context line given by one number. The model gives the path and
 * one line number; the rest comes from the MR and its diff at the head. A multi-line comment adds
 * `start_line` (and `start_side`, as GitHub's review comments take a range): GitLab's
 * `position[line_range]` (docs.gitlab.com/api/discussions, "Parameters for multiline comments").
 *
 * A suggestion (```suggestion:-N+M) replaces lines N above to M below the commented line of the new
 * file at the head commit (docs.gitlab.com/user/project/merge_requests/reviews/suggestions/, which
 * limits N and M to 100). It applies when the comment is on the new side of a file the MR changes
 * and does not delete, on a line the diff shows at the current head, and the range stays inside the
 * file. Checked before anything is posted; the error says why not.
 */
import { createHash } from 'node:crypto';
import { hasSuggestion, SUGGESTION_OPENING, ToolError } from '@refmcp/shared';
import type { Config } from '../config.js';
import { obj, str } from '../format/common.js';
import { filePathSegment } from '../names.js';

/** The line (or the last line of the range) a comment is on, as the tools take it. */
export interface LineTarget {
  path: string;
  /** A line of the new file (added or unchanged). */
  new_line?: number | undefined;
  /** A line of the old file (removed or unchanged). */
  old_line?: number | undefined;
  /** First line of a multi-line comment; its side is `start_side`, default the end's. */
  start_line?: number | undefined;
  start_side?: 'new' | 'old' | undefined;
  /** The head sha the caller expects; refused when the MR has moved on. */
  head_sha?: string | undefined;
}

/** GitLab's `position` for a text diff note. */
export type Position = Record<string, unknown>;

/** Where a diff comment goes: its position, and the body to post (a range suggestion gets its `-N+0`). */
export interface Placement {
  position: Position;
  body: string;
  /** "path:line" or "path:first-last" (new-file numbers where the line has one). */
  where: string;
}

/** Most diff pages read to find a file (100 files a page). */
const MAX_DIFF_PAGES = 30;
/** GitLab's limit on lines above/below a multi-line suggestion. */
const MAX_SUGGESTION_SPAN = 100;
/** A suggestion fence's opening (also inside a block quote or list item) and its `-N+M` span. */
const SUGGESTION_FENCE = new RegExp(`^(${SUGGESTION_OPENING.source})(?::-(\\d+)\\+(\\d+))?`, 'gm');

interface FileDiff {
  old_path?: string;
  new_path?: string;
  diff?: string;
  deleted_file?: boolean;
  too_large?: boolean;
  collapsed?: boolean;
}

/**
 * One line of a diff with the positions GitLab's diff parser gives it (lib/gitlab/diff/parser.rb:
 * both counters start at the hunk header's numbers; an added line keeps the old counter, a removed
 * line the new one), which is what its `line_code` is made of.
 */
export interface DiffRow {
  kind: '+' | '-' | ' ';
  old: number;
  new: number;
  hunk: number;
}

/** The rows of a unified diff, in order. */
export function diffRows(patch: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let old = 0;
  let next = 0;
  let hunk = -1;
  for (const l of patch.split('\n')) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      old = Number(h[1]);
      next = Number(h[2]);
      hunk++;
      continue;
    }
    if (hunk < 0) continue;
    const kind = l[0];
    if (kind === '+') rows.push({ kind, old, new: next++, hunk });
    else if (kind === '-') rows.push({ kind, old: old++, new: next, hunk });
    else if (kind === ' ') rows.push({ kind, old: old++, new: next++, hunk });
  }
  return rows;
}

/**
 * GitLab's line code of `row` in the file at `filePath` (its new path): the SHA-1 of the path, the
 * old and the new position (lib/gitlab/git.rb, diff_line_code; docs.gitlab.com/api/discussions,
 * "Parameters for multiline comments").
 */
export function lineCode(filePath: string, row: DiffRow): string {
  return `${createHash('sha1').update(filePath).digest('hex')}_${row.old}_${row.new}`;
}

/** The index of the row showing line `n` of the `side` file, or -1. */
function rowOf(rows: DiffRow[], side: 'new' | 'old', n: number): number {
  return rows.findIndex((r) =>
    side === 'new' ? r.kind !== '-' && r.new === n : r.kind !== '+' && r.old === n,
  );
}

/**
 * Where a comment on `target` of merge request `mrPath` goes, after checking the line (or each end
 * of the range `start_line`…end) is in the diff at the head and, when `body` has a suggestion,
 * that it applies. A range gets GitLab's `line_range` (start and end `line_code` and `type`; with
 * `old_line`/`new_line` too when `lineNumbers`, as the Discussions API documents — the Draft Notes
 * API refuses those, gitlab-org/gitlab#571619). A suggestion on a range replaces the range: a bare
 * ```suggestion gets `:-N+0`, any other span is refused. Requests: the MR, its diffs (until the
 * file is found), and for a spanning suggestion the file's raw text at the head. Errors: ToolError
 * naming what is wrong. Nothing is posted by this function.
 */
export async function diffPosition(
  config: Config,
  base: string,
  mrPath: string,
  target: LineTarget,
  body: string,
  signal: AbortSignal,
  lineNumbers = true,
): Promise<Placement> {
  const { path, new_line, old_line, head_sha, start_line } = target;
  const suggestion = hasSuggestion(body);
  const refuse = (why: string): never => {
    throw new ToolError(
      suggestion
        ? `${path}: the suggestion would not apply: ${why}. Nothing was posted.`
        : `${path}: ${why}. Nothing was posted.`,
    );
  };
  if (new_line === undefined && old_line === undefined)
    refuse('give new_line (a line of the new file) or old_line (a removed line)');
  const endSide = new_line !== undefined ? 'new' : 'old';
  const startSide = target.start_side ?? endSide;
  if (suggestion && (new_line === undefined || (start_line !== undefined && startSide !== 'new')))
    refuse('suggestions replace lines of the new file: give new_line (and start_side new), not old_line');
  const mr = obj(await config.gitlab.get(mrPath, undefined, signal));
  const refs = obj(mr.diff_refs);
  const head = str(refs.head_sha);
  const baseSha = str(refs.base_sha);
  const start = str(refs.start_sha) ?? baseSha;
  if (!head || !baseSha || !start) return refuse('GitLab gives no diff refs for this merge request yet');
  const at = head.slice(0, 12);
  if (head_sha && head_sha !== head)
    refuse(`head_sha ${head_sha} is not the merge request's head ${head}; read the diff again`);
  const file = await findFile(config, mrPath, path, signal);
  if (!file) return refuse(`the merge request does not change this file (at ${at})`);
  if (suggestion && file.deleted_file) refuse('the merge request deletes this file');
  if (!file.diff) refuse('GitLab shows no diff for this file (binary or too large)');
  const rows = diffRows(file.diff ?? '');
  const endAt = rowOf(rows, endSide, new_line ?? old_line ?? 0);
  if (endAt < 0)
    refuse(
      endSide === 'new'
        ? `line ${new_line} of the new file is not in the diff at ${at}`
        : `line ${old_line} of the old file is not in the diff at ${at}`,
    );
  const end = rows[endAt] as DiffRow;
  if (new_line !== undefined && old_line !== undefined && (end.kind !== ' ' || end.old !== old_line))
    refuse(`new_line ${new_line} and old_line ${old_line} are not the same unchanged line`);
  let first: DiffRow | undefined;
  if (start_line !== undefined) {
    const startAt = rowOf(rows, startSide, start_line);
    if (startAt < 0) refuse(`start line ${start_line} of the ${startSide} file is not in the diff at ${at}`);
    first = rows[startAt] as DiffRow;
    if (startAt >= endAt) refuse(`the range must start before its last line (${startSide} ${start_line})`);
    if (first.hunk !== end.hunk) refuse('a range must stay inside one hunk of the diff');
  }
  const filePath = file.new_path ?? path;
  let posted = body;
  if (suggestion && first) posted = rangeSuggestion(body, end.new - first.new, refuse);
  if (suggestion) await checkSpan(config, base, filePath, head, end.new, posted, refuse, signal);
  const position: Position = {
    position_type: 'text',
    base_sha: baseSha,
    start_sha: start,
    head_sha: head,
    old_path: file.old_path ?? path,
    new_path: filePath,
  };
  if (end.kind !== '-') position.new_line = end.new;
  if (end.kind !== '+') position.old_line = end.old;
  if (first)
    position.line_range = {
      start: rangeEnd(filePath, first, lineNumbers),
      end: rangeEnd(filePath, end, lineNumbers),
    };
  const number = (r: DiffRow) => (r.kind === '-' ? `old ${r.old}` : String(r.new));
  const where = `${filePath}:${first ? `${number(first)}-` : ''}${number(end)}`;
  return { position, body: posted, where };
}

/** One end of a `line_range`. */
function rangeEnd(filePath: string, row: DiffRow, lineNumbers: boolean): Record<string, unknown> {
  const type = row.kind === '+' ? 'new' : 'old';
  const out: Record<string, unknown> = { line_code: lineCode(filePath, row), type };
  if (lineNumbers) {
    if (row.kind !== '+') out.old_line = row.old;
    if (row.kind !== '-') out.new_line = row.new;
  }
  return out;
}

/**
 * `body` with its suggestions replacing the `above` lines before the comment's last line and that
 * line (`-above+0`), as GitLab's editor writes them on a multi-line comment. A fence with another
 * span is refused: it would replace lines other than the range commented on.
 */
function rangeSuggestion(body: string, above: number, refuse: (why: string) => never): string {
  return body.replace(SUGGESTION_FENCE, (_m, fence: string, a?: string, b?: string) => {
    if (a !== undefined && (Number(a) !== above || Number(b) !== 0))
      refuse(
        `suggestion:-${a}+${b} does not replace the ${above + 1} lines commented on; write \`\`\`suggestion (the span is then set) or suggestion:-${above}+0`,
      );
    return `${fence}:-${above}+0`;
  });
}

/** The MR's diff of `path` (as new or old path), reading up to MAX_DIFF_PAGES pages. */
async function findFile(
  config: Config,
  mrPath: string,
  path: string,
  signal: AbortSignal,
): Promise<FileDiff | undefined> {
  for (let page = 1; page <= MAX_DIFF_PAGES; page++) {
    const res = await config.gitlab.list<FileDiff>(`${mrPath}/diffs`, {}, page, 100, signal);
    const found = res.items.find((d) => d.new_path === path || d.old_path === path);
    if (found) return found;
    if (!res.info.hasMore) return undefined;
  }
  return undefined;
}

/** Refuses a suggestion whose `-N+M` span leaves the file at `head` or exceeds GitLab's 100 lines. */
async function checkSpan(
  config: Config,
  base: string,
  path: string,
  head: string,
  line: number,
  body: string,
  refuse: (why: string) => never,
  signal: AbortSignal,
): Promise<void> {
  const ranges = [...body.matchAll(SUGGESTION_FENCE)];
  const above = Math.max(0, ...ranges.map((m) => Number(m[2] ?? 0)));
  const below = Math.max(0, ...ranges.map((m) => Number(m[3] ?? 0)));
  if (above > MAX_SUGGESTION_SPAN || below > MAX_SUGGESTION_SPAN)
    refuse(
      `GitLab allows at most ${MAX_SUGGESTION_SPAN} lines above and below (suggestion:-${above}+${below})`,
    );
  if (above === 0 && below === 0) return;
  const res = await config.gitlab.request<string>({
    path: `${base}/repository/files/${filePathSegment(path)}/raw`,
    query: { ref: head },
    responseType: 'text',
    signal,
  });
  const lines = res.data.endsWith('\n') ? res.data.split('\n').length - 1 : res.data.split('\n').length;
  if (line - above < 1) refuse(`suggestion:-${above}+${below} on line ${line} starts before line 1`);
  if (line + below > lines)
    refuse(
      `suggestion:-${above}+${below} on line ${line} ends after the last line (${lines}) at ${head.slice(0, 12)}`,
    );
}
