// Fake GitHub routes: issues (list, create, get, update) and issue comments. Pull requests are
// issues too, as on GitHub: they appear in the issue list with a `pull_request` field.
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitHub } from './fake-github.js';
import { ghError, invalid, jsonBody, paged, Reply, repoFor } from './http.js';
import { issueCommentObject, issueObject } from './objects-issues.js';
import type { GitHubState, IssueRecord, RepoRecord } from './state.js';

export function issueFor(repo: RepoRecord, req: FakeRequest, param = 'issue_number'): IssueRecord {
  const n = Number(req.params[param]);
  const issue = repo.issues.find((i) => i.number === n);
  if (!issue) throw new Reply(ghError(404, 'Not Found'));
  return issue;
}

/** Sorts and filters issues by GitHub's list parameters (state, labels, since, sort, direction). */
export function filterIssues(issues: IssueRecord[], q: URLSearchParams): IssueRecord[] {
  const state = q.get('state') ?? 'open';
  const labels = (q.get('labels') ?? '').split(',').filter(Boolean);
  const since = q.get('since');
  const sort = q.get('sort') ?? 'created';
  const dir = q.get('direction') ?? 'desc';
  const key = (i: IssueRecord) =>
    sort === 'updated'
      ? i.updatedAt
      : sort === 'comments'
        ? String(i.comments.length).padStart(9, '0')
        : i.createdAt;
  return issues
    .filter((i) => state === 'all' || i.state === state)
    .filter((i) => labels.every((l) => i.labels.includes(l)))
    .filter((i) => !since || i.updatedAt >= since)
    .sort(
      (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.number - b.number) * (dir === 'asc' ? 1 : -1),
    );
}

function applyUpdate(state: GitHubState, issue: IssueRecord, body: Record<string, unknown>): void {
  if (typeof body.title === 'string') issue.title = body.title;
  if (typeof body.body === 'string' || body.body === null) issue.body = body.body as string | null;
  if (Array.isArray(body.labels))
    issue.labels = body.labels.map((l) =>
      typeof l === 'string' ? l : String((l as { name?: string }).name),
    );
  if (Array.isArray(body.assignees)) issue.assignees = body.assignees.map(String);
  if (body.state === 'open' || body.state === 'closed') {
    if (body.state !== issue.state) issue.closedAt = body.state === 'closed' ? state.now() : null;
    issue.state = body.state;
  } else if (body.state !== undefined) throw invalid('Issue', 'state', 'invalid');
  issue.updatedAt = state.now();
}

export function registerIssueRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const origin = new URL(gh.url).origin;

  gh.route('GET', '/repos/:owner/:repo/issues', (req, who) => {
    const repo = repoFor(state, req, who);
    const page = paged(
      req,
      origin,
      filterIssues(repo.issues, req.query).map((i) => issueObject(state, repo, i, urls)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('POST', '/repos/:owner/:repo/issues', (req, who) => {
    const repo = repoFor(state, req, who);
    if (!who) throw new Reply(ghError(401, 'Requires authentication'));
    const body = jsonBody<{ title?: string; body?: string; labels?: string[]; assignees?: string[] }>(req);
    if (!body.title) throw invalid('Issue', 'title');
    const issue = state.addIssue(repo, {
      title: body.title,
      body: body.body ?? null,
      user: who,
      labels: state.canPush(repo, who) ? (body.labels ?? []) : [],
    });
    if (state.canPush(repo, who)) issue.assignees = body.assignees ?? [];
    return { status: 201, body: issueObject(state, repo, issue, urls) };
  });

  gh.route('GET', '/repos/:owner/:repo/issues/:issue_number', (req, who) => {
    const repo = repoFor(state, req, who);
    return { body: issueObject(state, repo, issueFor(repo, req), urls) };
  });

  gh.route('PATCH', '/repos/:owner/:repo/issues/:issue_number', (req, who) => {
    const repo = repoFor(state, req, who);
    const issue = issueFor(repo, req);
    if (!state.canPush(repo, who) && issue.user !== who)
      throw new Reply(ghError(403, 'Must have admin rights to Repository.'));
    applyUpdate(state, issue, jsonBody(req));
    return { body: issueObject(state, repo, issue, urls) };
  });

  gh.route('GET', '/repos/:owner/:repo/issues/:issue_number/comments', (req, who) => {
    const repo = repoFor(state, req, who);
    const issue = issueFor(repo, req);
    const since = req.query.get('since');
    const comments = issue.comments.filter((c) => !since || c.updatedAt >= since);
    const page = paged(
      req,
      origin,
      comments.map((c) => issueCommentObject(state, repo, issue, c, urls)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('POST', '/repos/:owner/:repo/issues/:issue_number/comments', (req, who) => {
    const repo = repoFor(state, req, who);
    if (!who) throw new Reply(ghError(401, 'Requires authentication'));
    const issue = issueFor(repo, req);
    const body = jsonBody<{ body?: string }>(req);
    if (!body.body) throw invalid('IssueComment', 'body');
    const comment = state.addComment(issue, who, body.body);
    return { status: 201, body: issueCommentObject(state, repo, issue, comment, urls) };
  });
}

export { applyUpdate };
