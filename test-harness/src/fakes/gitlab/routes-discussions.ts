// Fake GitLab routes: merge request threads — start one (general, or a diff note whose position
// GitLab checks against the MR's diff refs and diff: a line the diff does not show, or an
// unchanged line given by one number, is refused with GitLab's 400 about `line_code`), reply in
// one, resolve or unresolve one (Developer access or the MR's author; docs.gitlab.com/api/discussions).
import { createHash } from 'node:crypto';
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  body,
  forbidden,
  type GitLabCaller,
  glError,
  glInvalid,
  intParam,
  notFound,
  Reply,
  readableProject,
  requireCaller,
  required,
} from './http.js';
import { discussion, mrShas, note } from './objects-issues.js';
import { diffSnapshots } from './repo.js';
import { DEVELOPER, type MergeRequestRecord, type ProjectRecord } from './state.js';

/** New-file line → old-file line (undefined when added) and removed old lines, per hunk text. */
function diffLines(patch: string) {
  const shown = new Map<number, number | undefined>();
  const removed = new Set<number>();
  let next = 0;
  let old = 0;
  for (const l of patch.split('\n')) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      old = Number(h[1]);
      next = Number(h[2]);
    } else if (l.startsWith('+')) shown.set(next++, undefined);
    else if (l.startsWith('-')) removed.add(old++);
    else if (l.startsWith(' ')) shown.set(next++, old++);
  }
  return { shown, removed };
}

/** Diff rows with the positions GitLab's diff parser gives them (lib/gitlab/diff/parser.rb). */
function parserRows(patch: string) {
  const rows: { kind: string; old: number; new: number }[] = [];
  let old = 0;
  let next = 0;
  let started = false;
  for (const l of patch.split('\n')) {
    const h = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) {
      old = Number(h[1]);
      next = Number(h[2]);
      started = true;
    } else if (!started) continue;
    else if (l.startsWith('+')) rows.push({ kind: '+', old, new: next++ });
    else if (l.startsWith('-')) rows.push({ kind: '-', old: old++, new: next });
    else if (l.startsWith(' ')) rows.push({ kind: ' ', old: old++, new: next++ });
  }
  return rows;
}

/**
 * Checks `position[line_range]` of a multi-line comment: each end's `line_code` (SHA-1 of the new
 * path, old and new parser position: lib/gitlab/git.rb diff_line_code) names a row of the file's
 * diff, its `type` is `new` for an added line and `old` otherwise, line numbers (when given) are
 * that row's, the start is not after the end, and the end is the position's own line
 * (docs.gitlab.com/api/discussions, "Parameters for multiline comments"). GitLab keeps the range
 * as given; the fake is stricter so that a wrong line code fails a test.
 */
function checkLineRange(
  path: string,
  patch: string,
  range: unknown,
  line: { new?: number | undefined; old?: number | undefined },
): void {
  if (range === null || typeof range !== 'object')
    throw new Reply(glInvalid('position[line_range] is invalid'));
  const rows = parserRows(patch);
  const sha = createHash('sha1').update(path).digest('hex');
  const at = (end: unknown, name: string) => {
    const e = (end ?? {}) as Record<string, unknown>;
    const i = rows.findIndex((r) => `${sha}_${r.old}_${r.new}` === e.line_code);
    const row = rows[i];
    if (!row) throw new Reply(glInvalid(`position[line_range][${name}][line_code] is invalid`));
    if (e.type !== (row.kind === '+' ? 'new' : 'old'))
      throw new Reply(glInvalid(`position[line_range][${name}][type] does not match the line`));
    if (
      (e.new_line !== undefined && (row.kind === '-' || e.new_line !== row.new)) ||
      (e.old_line !== undefined && (row.kind === '+' || e.old_line !== row.old))
    )
      throw new Reply(glInvalid(`position[line_range][${name}] line numbers do not match its line_code`));
    return { i, row };
  };
  const r = range as Record<string, unknown>;
  const start = at(r.start, 'start');
  const end = at(r.end, 'end');
  if (start.i > end.i) throw new Reply(glInvalid('position[line_range] starts after it ends'));
  const own =
    end.row.kind === '-' ? end.row.old === line.old && line.new === undefined : end.row.new === line.new;
  if (!own) throw new Reply(glInvalid("position[line_range][end] is not the position's line"));
}

const lineCodeError = () =>
  new Reply(glError(400, { line_code: ["can't be blank", 'must be a valid line code'] }));

/**
 * GitLab's checks of a text diff position on `mr` (docs.gitlab.com/api/discussions, "Create a new
 * thread in the merge request diff"): the MR's current diff refs, a file of its diff, and a line
 * the diff shows — an unchanged line by both numbers. Throws GitLab's 400 otherwise.
 */
export function checkPosition(
  p: ProjectRecord,
  mr: MergeRequestRecord,
  position: Record<string, unknown>,
): void {
  if (position.position_type !== 'text')
    throw new Reply(glInvalid('position[position_type] does not have a valid value'));
  for (const k of ['base_sha', 'start_sha', 'head_sha'] as const)
    if (typeof position[k] !== 'string') throw new Reply(glInvalid(`position[${k}] is missing`));
  const shas = mrShas(p, mr);
  const h = shas.head ? p.repo.commits.get(shas.head) : undefined;
  const b = shas.base ? p.repo.commits.get(shas.base) : undefined;
  if (position.head_sha !== shas.head || position.base_sha !== shas.base || !h || !b) throw lineCodeError();
  const file = diffSnapshots(b.files, h.files).find(
    (d) => d.newPath === position.new_path && d.oldPath === position.old_path,
  );
  if (!file) throw lineCodeError();
  const { shown, removed } = diffLines(file.diff);
  const n = typeof position.new_line === 'number' ? position.new_line : undefined;
  const o = typeof position.old_line === 'number' ? position.old_line : undefined;
  if (n !== undefined) {
    if (!shown.has(n) || shown.get(n) !== o) throw lineCodeError();
  } else if (o === undefined || !removed.has(o)) throw lineCodeError();
  if (position.line_range !== undefined && position.line_range !== null)
    checkLineRange(file.newPath, file.diff, position.line_range, { new: n, old: o });
}

export function registerDiscussionRoutes(gl: FakeGitLab): void {
  const { state } = gl;
  const w = () => ({ web: gl.web, api: gl.url });
  const mrOf = (p: ProjectRecord, req: FakeRequest) => {
    const iid = intParam(req.params.noteable_id, 'noteable_id');
    const found = p.mergeRequests.find((m) => m.iid === iid);
    if (!found) throw notFound('Merge Request');
    return found;
  };
  const threadOf = (mr: MergeRequestRecord, req: FakeRequest) => {
    const notes = mr.notes.filter((n) => n.discussionId === req.params.discussion_id);
    if (!notes.length) throw notFound('Discussion');
    return notes;
  };
  const canResolve = (p: ProjectRecord, mr: MergeRequestRecord, who: GitLabCaller) =>
    mr.authorId === who.user.id || state.accessLevel(p, who.user.id) >= DEVELOPER;

  gl.route('POST', '/projects/:id/merge_requests/:noteable_id/discussions', (req, who) => {
    const p = readableProject(state, req, who);
    const caller = requireCaller(who, true);
    const mr = mrOf(p, req);
    const b = body<Record<string, unknown>>(req);
    const text = required(b.body, 'body');
    const position = b.position as Record<string, unknown> | undefined;
    if (position !== undefined) checkPosition(p, mr, position);
    const n = state.addNote(mr, caller.user.id, text, position ? { position } : {});
    // A general thread (no position) is resolvable too: it was started as a discussion.
    n.individual = false;
    n.resolvable = true;
    return { status: 201, body: discussion(state, p, mr, 'MergeRequest', w(), n.discussionId, [n]) };
  });

  gl.route(
    'POST',
    '/projects/:id/merge_requests/:noteable_id/discussions/:discussion_id/notes',
    (req, who) => {
      const p = readableProject(state, req, who);
      const caller = requireCaller(who, true);
      const mr = mrOf(p, req);
      const thread = threadOf(mr, req);
      const text = required(body<Record<string, unknown>>(req).body, 'body');
      const first = thread[0];
      if (!first) throw notFound('Discussion');
      const n = state.addNote(mr, caller.user.id, text, { reply: first });
      n.resolvable = first.resolvable;
      return { status: 201, body: note(state, p, mr, n, 'MergeRequest', w()) };
    },
  );

  gl.route('PUT', '/projects/:id/merge_requests/:noteable_id/discussions/:discussion_id', (req, who) => {
    const p = readableProject(state, req, who);
    const caller = requireCaller(who, true);
    const mr = mrOf(p, req);
    const thread = threadOf(mr, req);
    const resolved = body<Record<string, unknown>>(req).resolved;
    if (typeof resolved !== 'boolean') throw new Reply(glInvalid('resolved is missing'));
    if (!thread.some((n) => n.resolvable) || !canResolve(p, mr, caller)) throw forbidden();
    for (const n of thread) if (n.resolvable) n.resolved = resolved;
    return { body: discussion(state, p, mr, 'MergeRequest', w(), thread[0]?.discussionId ?? '', thread) };
  });
}
