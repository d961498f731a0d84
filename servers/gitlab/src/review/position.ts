/**
 * Where a diff comment goes, and whether its suggestion applies (GitLab merge requests).
 *
 * A diff note's `position` (docs.gitlab.com/api/discussions/#create-a-new-thread-in-the-merge-request-diff)
 * needs the MR's `diff_refs` (base, start and head sha), the old and new path, and the line: a
 * `new_line` for an added line, an `old_line` for a removed one, and both for an unchanged
 * (context) line — GitLab refuses a context line given by one number. The model gives the path and
 * one line number; the rest comes from the MR and its diff at the head.
 *
 * A suggestion (```suggestion:-N+M) replaces lines N above to M below the commented line of the new
 * file at the head commit (docs.gitlab.com/user/project/merge_requests/reviews/suggestions/, which
 * limits N and M to 100). It applies when the comment is on the new side of a file the MR changes
 * and does not delete, on a line the diff shows at the current head, and the range stays inside the
 * file. Checked before anything is posted; the error says why not.
 */
import { hasSuggestion, newFileLines, removedLines, ToolError } from '@refmcp/shared';
import type { Config } from '../config.js';
import { obj, str } from '../format/common.js';
import { filePathSegment } from '../names.js';

/** The line a comment is on, as the tools take it. */
export interface LineTarget {
  path: string;
  /** A line of the new file (added or unchanged). */
  new_line?: number | undefined;
  /** A line of the old file (removed or unchanged). */
  old_line?: number | undefined;
  /** The head sha the caller expects; refused when the MR has moved on. */
  head_sha?: string | undefined;
}

/** GitLab's `position` for a text diff note. */
export type Position = Record<string, string | number>;

/** Most diff pages read to find a file (100 files a page). */
const MAX_DIFF_PAGES = 30;
/** GitLab's limit on lines above/below a multi-line suggestion. */
const MAX_SUGGESTION_SPAN = 100;

interface FileDiff {
  old_path?: string;
  new_path?: string;
  diff?: string;
  deleted_file?: boolean;
  too_large?: boolean;
  collapsed?: boolean;
}

/**
 * The `position` for a comment on `target` of merge request `mrPath`, after checking the line is
 * in the diff at the head (and, when `body` has a suggestion, that it applies). Requests: the MR,
 * its diffs (until the file is found), and for a suggestion the file's raw text at the head.
 * Errors: ToolError naming what is wrong (no line, not in the diff, stale head, suggestion would
 * not apply). Nothing is posted by this function.
 */
export async function diffPosition(
  config: Config,
  base: string,
  mrPath: string,
  target: LineTarget,
  body: string,
  signal: AbortSignal,
): Promise<Position> {
  const { path, new_line, old_line, head_sha } = target;
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
  if (suggestion && new_line === undefined)
    refuse('suggestions replace lines of the new file: give new_line, not old_line');
  const mr = obj(await config.gitlab.get(mrPath, undefined, signal));
  const refs = obj(mr.diff_refs);
  const head = str(refs.head_sha);
  const baseSha = str(refs.base_sha);
  const start = str(refs.start_sha) ?? baseSha;
  if (!head || !baseSha || !start) return refuse('GitLab gives no diff refs for this merge request yet');
  if (head_sha && head_sha !== head)
    refuse(`head_sha ${head_sha} is not the merge request's head ${head}; read the diff again`);
  const file = await findFile(config, mrPath, path, signal);
  if (!file) return refuse(`the merge request does not change this file (at ${head.slice(0, 12)})`);
  if (suggestion && file.deleted_file) refuse('the merge request deletes this file');
  if (!file.diff) refuse('GitLab shows no diff for this file (binary or too large)');
  const shown = newFileLines(file.diff ?? '');
  let newLine = new_line;
  let oldLine = old_line;
  if (newLine !== undefined) {
    if (!shown.has(newLine))
      refuse(`line ${newLine} of the new file is not in the diff at ${head.slice(0, 12)}`);
    const context = shown.get(newLine);
    if (oldLine !== undefined && context !== oldLine)
      refuse(`new_line ${newLine} and old_line ${oldLine} are not the same unchanged line`);
    oldLine = context;
  } else if (oldLine !== undefined) {
    const context = [...shown].find(([, o]) => o === oldLine)?.[0];
    if (context !== undefined) newLine = context;
    else if (!removedLines(file.diff ?? '').has(oldLine))
      refuse(`line ${oldLine} of the old file is not in the diff at ${head.slice(0, 12)}`);
  }
  if (suggestion && newLine !== undefined)
    await checkRange(config, base, file.new_path ?? path, head, newLine, body, refuse, signal);
  const position: Position = {
    position_type: 'text',
    base_sha: baseSha,
    start_sha: start,
    head_sha: head,
    old_path: file.old_path ?? path,
    new_path: file.new_path ?? path,
  };
  if (newLine !== undefined) position.new_line = newLine;
  if (oldLine !== undefined) position.old_line = oldLine;
  return position;
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

/** Refuses a suggestion whose `-N+M` range leaves the file at `head` or exceeds GitLab's 100 lines. */
async function checkRange(
  config: Config,
  base: string,
  path: string,
  head: string,
  line: number,
  body: string,
  refuse: (why: string) => never,
  signal: AbortSignal,
): Promise<void> {
  const ranges = [...body.matchAll(/^[ \t]*(?:`{3,}|~{3,})suggestion(?::-(\d+)\+(\d+))?/gm)];
  const above = Math.max(0, ...ranges.map((m) => Number(m[1] ?? 0)));
  const below = Math.max(0, ...ranges.map((m) => Number(m[2] ?? 0)));
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
