// Fake GitLab routes: issues (list with filters, get, create, update) and their notes.
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  body,
  forbidden,
  type GitLabCaller,
  intParam,
  notFound,
  offsetPage,
  projectFor,
  Reply,
  requireCaller,
  required,
} from './http.js';
import { issue, note } from './objects-issues.js';
import { tick } from './repo.js';
import {
  type GitLabState,
  type IssueRecord,
  type MergeRequestRecord,
  type ProjectRecord,
  REPORTER,
} from './state.js';

/** Filters and orders issues or MRs by GitLab's common list parameters. */
export function filterIssuables<T extends IssueRecord | MergeRequestRecord>(
  state: GitLabState,
  req: FakeRequest,
  items: T[],
): T[] {
  const q = req.query;
  const wanted = q.get('state') ?? 'all';
  const labels = (q.get('labels') ?? '').split(',').filter(Boolean);
  const search = q.get('search')?.toLowerCase();
  const user = (name: string | null) => (name ? state.userId(name) : undefined);
  let author: number | undefined;
  let assignee: number | undefined;
  try {
    author = user(q.get('author_username'));
    assignee = user(q.get('assignee_username'));
  } catch {
    return [];
  }
  const iids = q.getAll('iids[]').map(Number);
  const list = items.filter(
    (x) =>
      (wanted === 'all' || x.state === wanted) &&
      labels.every((l) => x.labels.includes(l)) &&
      (!search ||
        x.title.toLowerCase().includes(search) ||
        (x.description ?? '').toLowerCase().includes(search)) &&
      (author === undefined || x.authorId === author) &&
      (assignee === undefined || x.assigneeIds.includes(assignee)) &&
      (iids.length === 0 || iids.includes(x.iid)),
  );
  const key = q.get('order_by') === 'updated_at' ? 'updatedAt' : 'createdAt';
  const dir = q.get('sort') === 'asc' ? 1 : -1;
  return list.sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id) * dir);
}

/** Notes of an issuable, as the notes list orders them (`sort` asc|desc, default desc; `order_by` created_at|updated_at). */
export function sortedNotes(req: FakeRequest, on: IssueRecord | MergeRequestRecord) {
  const key = req.query.get('order_by') === 'updated_at' ? 'updatedAt' : 'createdAt';
  const dir = req.query.get('sort') === 'asc' ? 1 : -1;
  return [...on.notes].sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id - b.id) * dir);
}

/** Labels from a comma-separated string or a list. */
export const labelList = (v: unknown): string[] =>
  (Array.isArray(v) ? v.map(String) : String(v ?? '').split(',')).map((s) => s.trim()).filter(Boolean);

/** User ids from a list or a comma-separated string. */
export const idList = (v: unknown): number[] =>
  (Array.isArray(v) ? v : String(v ?? '').split(',')).map(Number).filter((n) => Number.isInteger(n) && n > 0);

export function registerIssueRoutes(gl: FakeGitLab): void {
  const { state } = gl;
  const w = () => ({ web: gl.web, api: gl.url });
  const issueOf = (p: ProjectRecord, req: FakeRequest, param: string) => {
    const iid = intParam(req.params[param], param);
    const found = p.issues.find((i) => i.iid === iid);
    if (!found) throw notFound('Issue');
    return found;
  };
  const visible = (p: ProjectRecord, i: IssueRecord, who: GitLabCaller | undefined) =>
    !i.confidential || state.accessLevel(p, who?.user.id) >= REPORTER || i.authorId === who?.user.id;

  gl.route('GET', '/projects/:id/issues', (req, who) => {
    const p = projectFor(state, req, who);
    const list = filterIssuables(state, req, p.issues).filter((i) => visible(p, i, who));
    const page = offsetPage(req, list, gl.paging);
    return { ...page, body: page.body.map((i) => issue(state, p, i, w())) };
  });

  gl.route('GET', '/projects/:id/issues/:issue_iid', (req, who) => {
    const p = projectFor(state, req, who);
    const i = issueOf(p, req, 'issue_iid');
    if (!visible(p, i, who)) throw notFound('Issue');
    return { body: issue(state, p, i, w()) };
  });

  gl.route('POST', '/projects/:id/issues', (req, who) => {
    const p = projectFor(state, req, who);
    const caller = requireCaller(who, true);
    const b = body<Record<string, unknown>>(req);
    const title = required(b.title, 'title');
    const created = state.addIssue(p, {
      title,
      description: b.description === undefined ? null : String(b.description),
      author: caller.user.username,
      labels: labelList(b.labels),
      confidential: b.confidential === true || b.confidential === 'true',
    });
    created.assigneeIds = idList(b.assignee_ids ?? b.assignee_id);
    return { status: 201, body: issue(state, p, created, w()) };
  });

  gl.route('PUT', '/projects/:id/issues/:issue_iid', (req, who) => {
    const p = projectFor(state, req, who);
    const caller = requireCaller(who, true);
    const i = issueOf(p, req, 'issue_iid');
    if (i.authorId !== caller.user.id && state.accessLevel(p, caller.user.id) < REPORTER) throw forbidden();
    const b = body<Record<string, unknown>>(req);
    if (b.title !== undefined) i.title = String(b.title);
    if (b.description !== undefined) i.description = b.description === null ? null : String(b.description);
    if (b.labels !== undefined) i.labels = labelList(b.labels);
    if (b.add_labels !== undefined) i.labels = [...new Set([...i.labels, ...labelList(b.add_labels)])];
    if (b.remove_labels !== undefined) {
      const gone = labelList(b.remove_labels);
      i.labels = i.labels.filter((l) => !gone.includes(l));
    }
    if (b.assignee_ids !== undefined) i.assigneeIds = idList(b.assignee_ids);
    if (b.discussion_locked !== undefined) i.discussionLocked = String(b.discussion_locked) === 'true';
    if (b.state_event === 'close' && i.state !== 'closed') {
      i.state = 'closed';
      i.closedAt = tick();
      i.closedById = caller.user.id;
    } else if (b.state_event === 'reopen') {
      i.state = 'opened';
      i.closedAt = null;
      i.closedById = null;
    } else if (b.state_event !== undefined && b.state_event !== 'close')
      throw new Reply({ status: 400, body: { error: 'state_event does not have a valid value' } });
    i.updatedAt = tick();
    return { body: issue(state, p, i, w()) };
  });

  gl.route('GET', '/projects/:id/issues/:noteable_id/notes', (req, who) => {
    const p = projectFor(state, req, who);
    const i = issueOf(p, req, 'noteable_id');
    if (!visible(p, i, who)) throw notFound('Issue');
    const page = offsetPage(req, sortedNotes(req, i), gl.paging);
    return { ...page, body: page.body.map((n) => note(state, p, i, n, 'Issue', w())) };
  });

  gl.route('POST', '/projects/:id/issues/:noteable_id/notes', (req, who) => {
    const p = projectFor(state, req, who);
    const caller = requireCaller(who, true);
    const i = issueOf(p, req, 'noteable_id');
    if (!visible(p, i, who)) throw notFound('Issue');
    if (i.discussionLocked && state.accessLevel(p, caller.user.id) < REPORTER) throw forbidden();
    const text = required(body<Record<string, unknown>>(req).body, 'body');
    const n = state.addNote(i, caller.user.id, text);
    return { status: 201, body: note(state, p, i, n, 'Issue', w()) };
  });
}
