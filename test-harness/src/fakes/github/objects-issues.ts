// JSON shapes of issues, pull requests, comments and reviews (GitHub REST, checked against the
// OpenAPI description by openapi.test.ts).
import { diffSnapshots } from './git.js';
import { nodeId, repositoryObject, type Urls, userRef } from './objects.js';
import type {
  CommentRecord,
  GitHubState,
  IssueRecord,
  RepoRecord,
  ReviewCommentRecord,
  ReviewRecord,
} from './state.js';

/** author_association of `login` on `repo`. */
export function association(state: GitHubState, repo: RepoRecord, login: string): string {
  if (login.toLowerCase() === repo.owner.toLowerCase()) return 'OWNER';
  const perm = state.permission(repo, login);
  if (perm === 'admin' || perm === 'maintain' || perm === 'write') return 'COLLABORATOR';
  return 'NONE';
}

/** A `label` object: the repository's definition of `name` when it has one, else grey and undescribed. */
export function label(repo: RepoRecord, name: string, u: Urls, id: number) {
  const known = repo.labels?.find((l) => l.name.toLowerCase() === name.toLowerCase());
  return {
    id,
    node_id: nodeId('L', id),
    url: `${u.api}/repos/${repo.owner}/${repo.name}/labels/${encodeURIComponent(name)}`,
    name,
    description: known?.description ?? null,
    color: known?.color ?? 'ededed',
    default: false,
  };
}

export function issueObject(state: GitHubState, repo: RepoRecord, issue: IssueRecord, u: Urls) {
  const repoApi = `${u.api}/repos/${repo.owner}/${repo.name}`;
  const api = `${repoApi}/issues/${issue.number}`;
  const html = `${u.web}/${repo.owner}/${repo.name}/${issue.pull ? 'pull' : 'issues'}/${issue.number}`;
  return {
    id: issue.id,
    node_id: nodeId('I', issue.id),
    url: api,
    repository_url: repoApi,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: html,
    number: issue.number,
    state: issue.state,
    state_reason: issue.state === 'closed' ? 'completed' : null,
    title: issue.title,
    body: issue.body,
    user: userRef(state, issue.user, u),
    labels: issue.labels.map((name, i) => label(repo, name, u, issue.id * 100 + i)),
    assignee: issue.assignees[0] ? userRef(state, issue.assignees[0], u) : null,
    assignees: issue.assignees.map((a) => userRef(state, a, u)),
    milestone: null,
    locked: issue.locked,
    active_lock_reason: null,
    comments: issue.comments.length,
    ...(issue.pull
      ? {
          pull_request: {
            url: `${repoApi}/pulls/${issue.number}`,
            html_url: html,
            diff_url: `${html}.diff`,
            patch_url: `${html}.patch`,
            merged_at: issue.pull.mergedAt,
          },
        }
      : {}),
    closed_at: issue.closedAt,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_by: null,
    author_association: association(state, repo, issue.user),
  };
}

export function issueCommentObject(
  state: GitHubState,
  repo: RepoRecord,
  issue: IssueRecord,
  c: CommentRecord,
  u: Urls,
) {
  const repoApi = `${u.api}/repos/${repo.owner}/${repo.name}`;
  return {
    id: c.id,
    node_id: nodeId('IC', c.id),
    url: `${repoApi}/issues/comments/${c.id}`,
    html_url: `${u.web}/${repo.owner}/${repo.name}/issues/${issue.number}#issuecomment-${c.id}`,
    body: c.body,
    user: userRef(state, c.user, u),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    issue_url: `${repoApi}/issues/${issue.number}`,
    author_association: association(state, repo, c.user),
  };
}

function link(href: string) {
  return { href };
}

/** pull-request (full: `detail` true) or pull-request-simple (list items). */
export function pullObject(
  state: GitHubState,
  repo: RepoRecord,
  issue: IssueRecord,
  u: Urls,
  detail: boolean,
) {
  const pull = issue.pull;
  if (!pull) throw new Error(`#${issue.number} is not a pull request`);
  const repoApi = `${u.api}/repos/${repo.owner}/${repo.name}`;
  const api = `${repoApi}/pulls/${issue.number}`;
  const html = `${u.web}/${repo.owner}/${repo.name}/pull/${issue.number}`;
  const headSha = state.headSha(repo, issue);
  const baseSha = repo.branches.get(pull.base) ?? headSha;
  const side = (ref: string, sha: string) => ({
    label: `${repo.owner}:${ref}`,
    ref,
    sha,
    user: userRef(state, repo.owner, u),
    repo: repositoryObject(state, repo, u),
  });
  const base = {
    url: api,
    id: issue.id,
    node_id: nodeId('PR', issue.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${repoApi}/issues/${issue.number}`,
    commits_url: `${api}/commits`,
    review_comments_url: `${api}/comments`,
    review_comment_url: `${repoApi}/pulls/comments{/number}`,
    comments_url: `${repoApi}/issues/${issue.number}/comments`,
    statuses_url: `${repoApi}/statuses/${headSha}`,
    number: issue.number,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    user: userRef(state, issue.user, u),
    body: issue.body,
    labels: issue.labels.map((name, i) => ({
      id: issue.id * 100 + i,
      node_id: nodeId('L', issue.id * 100 + i),
      url: `${repoApi}/labels/${encodeURIComponent(name)}`,
      name,
      description: null,
      color: 'ededed',
      default: false,
    })),
    milestone: null,
    active_lock_reason: null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: side(pull.head, headSha),
    base: side(pull.base, baseSha),
    _links: {
      self: link(api),
      html: link(html),
      issue: link(`${repoApi}/issues/${issue.number}`),
      comments: link(`${repoApi}/issues/${issue.number}/comments`),
      review_comments: link(`${api}/comments`),
      review_comment: link(`${repoApi}/pulls/comments{/number}`),
      commits: link(`${api}/commits`),
      statuses: link(`${repoApi}/statuses/${headSha}`),
    },
    author_association: association(state, repo, issue.user),
    auto_merge: null,
    draft: pull.draft,
  };
  if (!detail) return base;
  const changes = pullChanges(state, repo, issue);
  return {
    ...base,
    merged: pull.merged,
    mergeable: issue.state === 'open' ? true : null,
    rebaseable: issue.state === 'open' ? true : null,
    mergeable_state: issue.state === 'open' ? 'clean' : 'unknown',
    merged_by: pull.mergedBy ? userRef(state, pull.mergedBy, u) : null,
    comments: issue.comments.length,
    review_comments: pull.reviewComments.length,
    maintainer_can_modify: pull.maintainerCanModify,
    commits: Math.max(1, repo.store.history(headSha).length - repo.store.history(baseSha).length),
    additions: changes.reduce((n, c) => n + c.additions, 0),
    deletions: changes.reduce((n, c) => n + c.deletions, 0),
    changed_files: changes.length,
  };
}

/** The files a pull request changes: base branch head vs PR head. */
export function pullChanges(state: GitHubState, repo: RepoRecord, issue: IssueRecord) {
  const pull = issue.pull;
  if (!pull) return [];
  const head = state.headSha(repo, issue);
  const base = repo.branches.get(pull.base);
  const before = base && !pull.merged ? repo.store.filesOf(base) : new Map<string, string>();
  const after = repo.store.filesOf(head);
  if (pull.merged) {
    const parent = repo.store.commits.get(head)?.parents[0];
    return diffSnapshots(repo.store, parent ? repo.store.filesOf(parent) : new Map(), after);
  }
  return diffSnapshots(repo.store, before, after);
}

export function reviewObject(
  state: GitHubState,
  repo: RepoRecord,
  issue: IssueRecord,
  r: ReviewRecord,
  u: Urls,
) {
  const html = `${u.web}/${repo.owner}/${repo.name}/pull/${issue.number}`;
  const pullApi = `${u.api}/repos/${repo.owner}/${repo.name}/pulls/${issue.number}`;
  return {
    id: r.id,
    node_id: nodeId('PRR', r.id),
    user: userRef(state, r.user, u),
    body: r.body,
    state: r.state,
    html_url: `${html}#pullrequestreview-${r.id}`,
    pull_request_url: pullApi,
    _links: { html: link(`${html}#pullrequestreview-${r.id}`), pull_request: link(pullApi) },
    ...(r.state === 'PENDING' ? {} : { submitted_at: r.submittedAt }),
    commit_id: r.commitId,
    author_association: association(state, repo, r.user),
  };
}

export function reviewCommentObject(
  state: GitHubState,
  repo: RepoRecord,
  issue: IssueRecord,
  c: ReviewCommentRecord,
  u: Urls,
) {
  const repoApi = `${u.api}/repos/${repo.owner}/${repo.name}`;
  const html = `${u.web}/${repo.owner}/${repo.name}/pull/${issue.number}#discussion_r${c.id}`;
  const pullApi = `${repoApi}/pulls/${issue.number}`;
  return {
    url: `${repoApi}/pulls/comments/${c.id}`,
    pull_request_review_id: c.reviewId,
    id: c.id,
    node_id: nodeId('PRRC', c.id),
    diff_hunk: `@@ -1,1 +1,${c.line} @@`,
    path: c.path,
    commit_id: c.commitId,
    original_commit_id: c.commitId,
    user: userRef(state, c.user, u),
    body: c.body,
    created_at: c.createdAt,
    updated_at: c.createdAt,
    html_url: html,
    pull_request_url: pullApi,
    author_association: association(state, repo, c.user),
    _links: {
      self: link(`${repoApi}/pulls/comments/${c.id}`),
      html: link(html),
      pull_request: link(pullApi),
    },
    line: c.line,
    original_line: c.line,
    side: c.side ?? 'RIGHT',
    start_line: c.startLine ?? null,
    original_start_line: c.startLine ?? null,
    start_side: c.startLine ? (c.startSide ?? 'RIGHT') : null,
    ...(c.inReplyTo ? { in_reply_to_id: c.inReplyTo } : {}),
  };
}
