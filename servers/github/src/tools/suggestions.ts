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
import { hasSuggestion, rightLines, ToolError } from '@refmcp/shared';
import type { Config } from '../config.js';
import { listPage } from './common.js';

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
  const patches = new Map<string, { status: string; patch?: string }>();
  for (let page = 1; page <= 30; page++) {
    const list = await listPage<{ filename: string; status: string; patch?: string }>(
      config,
      { path: `${base}/pulls/${pull_number}/files`, signal },
      page,
      100,
    );
    for (const f of list.items) patches.set(f.filename, f);
    if (!list.info.hasMore) break;
  }
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
