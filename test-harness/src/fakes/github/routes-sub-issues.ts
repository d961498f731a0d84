// Fake GitHub routes: sub-issues (list, add, remove), as GitHub's REST "Sub-issues" operations
// describe them: the sub-issue is named by its id and must belong to the parent's owner; an issue
// has at most one parent (422 unless replace_parent).
import type { FakeGitHub } from './fake-github.js';
import { ghError, invalid, jsonBody, paged, Reply, repoFor } from './http.js';
import { issueObject } from './objects-issues.js';
import { issueFor } from './routes-issues.js';
import type { GitHubState, IssueRecord, RepoRecord } from './state.js';

function byId(state: GitHubState, id: number): { repo: RepoRecord; issue: IssueRecord } | undefined {
  for (const repo of state.repos) {
    const issue = repo.issues.find((i) => i.id === id);
    if (issue) return { repo, issue };
  }
  return undefined;
}

function subIssueId(body: Record<string, unknown>): number {
  const id = body.sub_issue_id;
  if (typeof id !== 'number' || !Number.isInteger(id)) throw invalid('SubIssue', 'sub_issue_id');
  return id;
}

export function registerSubIssueRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const origin = new URL(gh.url).origin;

  gh.route('GET', '/repos/:owner/:repo/issues/:issue_number/sub_issues', (req, who) => {
    const repo = repoFor(state, req, who);
    const issue = issueFor(repo, req);
    const subs = (issue.subIssues ?? []).flatMap((id) => {
      const found = byId(state, id);
      return found && state.canRead(found.repo, who)
        ? [issueObject(state, found.repo, found.issue, urls)]
        : [];
    });
    const page = paged(req, origin, subs);
    return { body: page.items, headers: page.headers };
  });

  gh.route('POST', '/repos/:owner/:repo/issues/:issue_number/sub_issues', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const parent = issueFor(repo, req);
    const body = jsonBody(req);
    const found = byId(state, subIssueId(body));
    if (!found || !state.canRead(found.repo, who)) throw new Reply(ghError(404, 'Not Found'));
    const { repo: subRepo, issue: sub } = found;
    if (subRepo.owner.toLowerCase() !== repo.owner.toLowerCase())
      throw invalid(
        'SubIssue',
        'sub_issue_id',
        'invalid',
        'The sub-issue must belong to the same repository owner',
      );
    if (sub.id === parent.id || sub.pull) throw invalid('SubIssue', 'sub_issue_id', 'invalid');
    if (sub.parentId !== undefined) {
      if (body.replace_parent !== true)
        throw invalid(
          'SubIssue',
          'sub_issue_id',
          'invalid',
          'Issue may not contain duplicate sub-issues and Sub issue may only have one parent',
        );
      const old = byId(state, sub.parentId)?.issue;
      if (old) old.subIssues = (old.subIssues ?? []).filter((id) => id !== sub.id);
    }
    parent.subIssues = [...(parent.subIssues ?? []), sub.id];
    sub.parentId = parent.id;
    parent.updatedAt = state.now();
    return { status: 201, body: issueObject(state, repo, parent, urls) };
  });

  gh.route('DELETE', '/repos/:owner/:repo/issues/:issue_number/sub_issue', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const parent = issueFor(repo, req);
    const id = subIssueId(jsonBody(req));
    if (!(parent.subIssues ?? []).includes(id)) throw new Reply(ghError(404, 'Not Found'));
    parent.subIssues = (parent.subIssues ?? []).filter((s) => s !== id);
    const sub = byId(state, id)?.issue;
    if (sub) delete sub.parentId;
    parent.updatedAt = state.now();
    return { body: issueObject(state, repo, parent, urls) };
  });
}
