/**
 * Checks that a review comment's ```suggestion block applies to the pull request's current head
 * before it is posted. GitHub applies a suggestion by replacing the commented lines of the new
 * file (the RIGHT side) at the head commit (docs.github.com, "Incorporating feedback in your pull
 * request"; "Commenting on a pull request": suggestions on multi-line comments replace the range),
 * and a comment can only be placed on lines of the diff. So a suggestion applies when it is on the
 * RIGHT side, by `line` (not a diff `position`), against the head (no other `commit_id`), on a file
 * the pull request changes and does not delete, and every line of `start_line`…`line` is an added
 * or context line of that file's patch.
 */
import { hasSuggestion, newFileLines, removedLines, rightLines, ToolError } from '@refmcp/shared';
import type { Config } from '../config.js';
import { listPage } from './common.js';

/** A file a pull request changes: its status and patch (absent for binary or too large). */
export interface PullFile {
  status: string;
  patch?: string;
}

/** The files `pull_number` changes by name, up to 3,000 (GitHub's limit for this list). */
export async function pullFiles(
  config: Config,
  base: string,
  pull_number: number,
  signal: AbortSignal,
): Promise<Map<string, PullFile>> {
  const files = new Map<string, PullFile>();
  for (let page = 1; page <= 30; page++) {
    const list = await listPage<{ filename: string } & PullFile>(
      config,
      { path: `${base}/pulls/${pull_number}/files`, signal },
      page,
      100,
    );
    for (const f of list.items) files.set(f.filename, f);
    if (!list.info.hasMore) break;
  }
  return files;
}

/**
 * Refuses (ToolError) a pending-review comment GitHub would not place: on a file `pull_number`
 * does not change, or (LINE comments) on a line its patch does not show on that side — RIGHT:
 * added and context lines of the new file; LEFT: removed and context lines of the old file.
 * GitHub's REST API refuses such a line ("line must be part of the diff"); its GraphQL mutation
 * answers "Path could not be resolved" for a path, and drops an outside line without saying so.
 * A file without a patch (binary, too large) has its lines unchecked.
 */
export function checkPlacement(
  files: Map<string, PullFile>,
  where: string,
  c: {
    path: string;
    line?: number | undefined;
    side?: 'LEFT' | 'RIGHT' | undefined;
    start_line?: number | undefined;
    start_side?: 'LEFT' | 'RIGHT' | undefined;
  },
): void {
  const file = files.get(c.path);
  if (!file)
    throw new ToolError(
      `${c.path} is not among the files ${where} changes: review comments go on changed files (get_pull_request_files lists them). Nothing was posted.`,
    );
  if (c.line === undefined || !file.patch) return;
  const patch = file.patch;
  const sideLines = (side: 'LEFT' | 'RIGHT') =>
    side === 'RIGHT'
      ? rightLines(patch)
      : new Set([
          ...removedLines(patch),
          ...[...newFileLines(patch).values()].filter((n) => n !== undefined),
        ]);
  const ends: [number, 'LEFT' | 'RIGHT'][] = [[c.line, c.side ?? 'RIGHT']];
  if (c.start_line !== undefined) ends.push([c.start_line, c.start_side ?? c.side ?? 'RIGHT']);
  for (const [n, side] of ends)
    if (!sideLines(side).has(n))
      throw new ToolError(
        `line ${n} (${side}) of ${c.path} is not in the diff of ${where}: comment on a line the patch shows (get_pull_request_diff), or use subject_type FILE. Nothing was posted.`,
      );
}

/** A review comment as create_pull_request_review takes it. */
export interface LineComment {
  path: string;
  body: string;
  line?: number | undefined;
  position?: number | undefined;
  side?: 'LEFT' | 'RIGHT' | undefined;
  start_line?: number | undefined;
  start_side?: 'LEFT' | 'RIGHT' | undefined;
}

/**
 * Refuses (ToolError naming the comment and why) when a comment's suggestion would not apply to
 * the head of `pull_number`; requests only when some comment has a suggestion: the pull request
 * (head sha) and its files (patches), up to 3,000 files.
 */
export async function checkSuggestions(
  config: Config,
  base: string,
  pull_number: number,
  comments: LineComment[],
  commit_id: string | undefined,
  signal: AbortSignal,
  /** How refusals name the i-th comment; default `comments[i]`. */
  label: (i: number) => string = (i) => `comments[${i}]`,
): Promise<void> {
  const suggested = comments.map((c, i) => [c, i] as const).filter(([c]) => hasSuggestion(c.body));
  if (!suggested.length) return;
  const refuse = (i: number, c: LineComment, why: string) => {
    throw new ToolError(
      `${label(i)} (${c.path}): its suggestion would not apply: ${why}. Nothing was posted.`,
    );
  };
  for (const [c, i] of suggested) {
    if (c.line === undefined)
      refuse(i, c, 'give line (and start_line for a range), not position, so it can be checked');
    if (c.side === 'LEFT' || c.start_side === 'LEFT')
      refuse(i, c, 'it is on the LEFT (old) side; suggestions replace lines of the new file (side RIGHT)');
  }
  const pr = await config.github.request<{ head: { sha: string } }>({
    path: `${base}/pulls/${pull_number}`,
    signal,
  });
  const head = pr.data.head.sha;
  if (commit_id && commit_id !== head)
    for (const [c, i] of suggested)
      refuse(
        i,
        c,
        `commit_id ${commit_id} is not the head ${head}; suggestions are checked against the head`,
      );
  const patches = await pullFiles(config, base, pull_number, signal);
  for (const [c, i] of suggested) {
    const file = patches.get(c.path);
    if (!file) refuse(i, c, 'the pull request does not change this file');
    if (file?.status === 'removed') refuse(i, c, 'the pull request deletes this file');
    if (!file?.patch) refuse(i, c, 'GitHub shows no patch for this file (binary or too large)');
    const shown = rightLines(file?.patch ?? '');
    const last = c.line ?? 0;
    const first = c.start_line ?? last;
    const outside: number[] = [];
    for (let n = first; n <= last; n++) if (!shown.has(n)) outside.push(n);
    if (outside.length)
      refuse(
        i,
        c,
        `line${outside.length > 1 ? 's' : ''} ${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', …' : ''} of ${c.path} at ${head.slice(0, 12)} ${outside.length > 1 ? 'are' : 'is'} not in the diff`,
      );
  }
}
