// JSON shapes of commits, contents, git objects, branches, tags, releases, statuses and Actions
// runs/jobs (GitHub REST, checked against the OpenAPI description by openapi.test.ts).
import type { FileChange, GitCommit } from './git.js';
import { encodedPath, minimalRepo, nodeId, simpleUser, type Urls, userRef } from './objects.js';
import type { GitHubState, JobRecord, ReleaseRecord, RepoRecord, RunRecord, StatusRecord } from './state.js';

const repoApi = (repo: RepoRecord, u: Urls) => `${u.api}/repos/${repo.owner}/${repo.name}`;
const repoWeb = (repo: RepoRecord, u: Urls) => `${u.web}/${repo.owner}/${repo.name}`;

const VERIFICATION = {
  verified: false,
  reason: 'unsigned',
  signature: null,
  payload: null,
  verified_at: null,
};

/** `commit` (list item), or with `files`/`stats` when `changes` is given (single commit). */
export function commitObject(
  state: GitHubState,
  repo: RepoRecord,
  c: GitCommit,
  u: Urls,
  changes?: FileChange[],
) {
  const api = `${repoApi(repo, u)}/commits/${c.sha}`;
  const user = c.login ? userRef(state, c.login, u) : null;
  const base = {
    sha: c.sha,
    node_id: nodeId('C', Number.parseInt(c.sha.slice(0, 8), 16)),
    commit: {
      author: c.author,
      committer: c.committer,
      message: c.message,
      tree: { sha: c.tree, url: `${repoApi(repo, u)}/git/trees/${c.tree}` },
      url: `${repoApi(repo, u)}/git/commits/${c.sha}`,
      comment_count: 0,
      verification: VERIFICATION,
    },
    url: api,
    html_url: `${repoWeb(repo, u)}/commit/${c.sha}`,
    comments_url: `${api}/comments`,
    author: user,
    committer: user,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${repoApi(repo, u)}/commits/${p}`,
      html_url: `${repoWeb(repo, u)}/commit/${p}`,
    })),
  };
  if (!changes) return base;
  const additions = changes.reduce((n, f) => n + f.additions, 0);
  const deletions = changes.reduce((n, f) => n + f.deletions, 0);
  return {
    ...base,
    stats: { total: additions + deletions, additions, deletions },
    files: changes.map((f) => diffEntry(repo, f, c.sha, u)),
  };
}

export function diffEntry(repo: RepoRecord, f: FileChange, ref: string, u: Urls) {
  const path = encodedPath(f.filename);
  return {
    sha: f.sha,
    filename: f.filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    blob_url: `${repoWeb(repo, u)}/blob/${ref}/${path}`,
    raw_url: `${repoWeb(repo, u)}/raw/${ref}/${path}`,
    contents_url: `${repoApi(repo, u)}/contents/${path}?ref=${ref}`,
    patch: f.patch,
  };
}

function contentLinks(
  repo: RepoRecord,
  path: string,
  sha: string,
  ref: string,
  type: 'file' | 'dir',
  u: Urls,
) {
  const enc = encodedPath(path);
  const self = `${repoApi(repo, u)}/contents/${enc}?ref=${encodeURIComponent(ref)}`;
  const git = `${repoApi(repo, u)}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`;
  const html = `${repoWeb(repo, u)}/${type === 'file' ? 'blob' : 'tree'}/${encodeURIComponent(ref)}/${enc}`;
  return { url: self, git_url: git, html_url: html, _links: { self, git, html } };
}

/** content-file; `content` is base64 unless the file is too large (then "" with encoding "none"). */
export function contentFile(
  repo: RepoRecord,
  path: string,
  sha: string,
  ref: string,
  u: Urls,
  omitContent: boolean,
) {
  const blob = repo.store.blobs.get(sha) ?? Buffer.alloc(0);
  return {
    type: 'file' as const,
    encoding: omitContent ? 'none' : 'base64',
    size: blob.length,
    name: path.split('/').pop() ?? path,
    path,
    content: omitContent ? '' : blob.toString('base64').replace(/(.{60})/g, '$1\n'),
    sha,
    ...contentLinks(repo, path, sha, ref, 'file', u),
    download_url: `${repoWeb(repo, u)}/raw/${encodeURIComponent(ref)}/${encodedPath(path)}`,
  };
}

/** One content-directory item (files and sub-directories of `dir`). */
export function contentItem(
  repo: RepoRecord,
  path: string,
  sha: string,
  type: 'file' | 'dir',
  ref: string,
  u: Urls,
) {
  const size = type === 'file' ? (repo.store.blobs.get(sha)?.length ?? 0) : 0;
  return {
    type,
    size,
    name: path.split('/').pop() ?? path,
    path,
    sha,
    ...contentLinks(repo, path, sha, ref, type, u),
    download_url:
      type === 'file' ? `${repoWeb(repo, u)}/raw/${encodeURIComponent(ref)}/${encodedPath(path)}` : null,
  };
}

export function gitCommitObject(repo: RepoRecord, c: GitCommit, u: Urls) {
  return {
    sha: c.sha,
    node_id: nodeId('GC', Number.parseInt(c.sha.slice(0, 8), 16)),
    url: `${repoApi(repo, u)}/git/commits/${c.sha}`,
    html_url: `${repoWeb(repo, u)}/commit/${c.sha}`,
    author: c.author,
    committer: c.committer,
    tree: { sha: c.tree, url: `${repoApi(repo, u)}/git/trees/${c.tree}` },
    message: c.message,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${repoApi(repo, u)}/git/commits/${p}`,
      html_url: `${repoWeb(repo, u)}/commit/${p}`,
    })),
    verification: VERIFICATION,
  };
}

/** file-commit: the result of a contents PUT/DELETE. */
export function fileCommit(
  repo: RepoRecord,
  path: string | null,
  blobSha: string | null,
  c: GitCommit,
  u: Urls,
) {
  const content =
    path && blobSha
      ? (({ encoding: _e, content: _c, ...rest }) => rest)(contentFile(repo, path, blobSha, c.sha, u, true))
      : null;
  return { content, commit: gitCommitObject(repo, c, u) };
}

export function gitRefObject(repo: RepoRecord, ref: string, sha: string, u: Urls) {
  return {
    ref,
    node_id: nodeId('REF', ref.length),
    url: `${repoApi(repo, u)}/git/${ref.split('/').map(encodeURIComponent).join('/')}`,
    object: { type: 'commit', sha, url: `${repoApi(repo, u)}/git/commits/${sha}` },
  };
}

export function gitTreeObject(
  repo: RepoRecord,
  sha: string,
  entries: { path: string; mode: string; type: 'blob' | 'tree'; sha: string; size?: number }[],
  u: Urls,
  truncated: boolean,
) {
  return {
    sha,
    url: `${repoApi(repo, u)}/git/trees/${sha}`,
    truncated,
    tree: entries.map((e) => ({
      path: e.path,
      mode: e.mode,
      type: e.type,
      sha: e.sha,
      ...(e.type === 'blob' ? { size: e.size ?? 0 } : {}),
      url: `${repoApi(repo, u)}/git/${e.type === 'blob' ? 'blobs' : 'trees'}/${e.sha}`,
    })),
  };
}

export function shortBranch(repo: RepoRecord, name: string, sha: string, u: Urls) {
  return {
    name,
    commit: { sha, url: `${repoApi(repo, u)}/commits/${sha}` },
    protected: name === repo.defaultBranch,
  };
}

export function tagObject(repo: RepoRecord, name: string, sha: string, u: Urls) {
  return {
    name,
    commit: { sha, url: `${repoApi(repo, u)}/commits/${sha}` },
    zipball_url: `${repoApi(repo, u)}/zipball/refs/tags/${encodeURIComponent(name)}`,
    tarball_url: `${repoApi(repo, u)}/tarball/refs/tags/${encodeURIComponent(name)}`,
    node_id: nodeId('T', name.length),
  };
}

export function releaseObject(state: GitHubState, repo: RepoRecord, r: ReleaseRecord, u: Urls) {
  const api = `${repoApi(repo, u)}/releases/${r.id}`;
  return {
    url: api,
    html_url: `${repoWeb(repo, u)}/releases/tag/${encodeURIComponent(r.tag)}`,
    assets_url: `${api}/assets`,
    upload_url: `${u.web}/uploads/repos/${repo.owner}/${repo.name}/releases/${r.id}/assets{?name,label}`,
    tarball_url: `${repoApi(repo, u)}/tarball/${encodeURIComponent(r.tag)}`,
    zipball_url: `${repoApi(repo, u)}/zipball/${encodeURIComponent(r.tag)}`,
    id: r.id,
    node_id: nodeId('RE', r.id),
    tag_name: r.tag,
    target_commitish: r.targetCommitish,
    name: r.name,
    body: r.body,
    draft: r.draft,
    prerelease: r.prerelease,
    immutable: false,
    created_at: r.createdAt,
    published_at: r.publishedAt,
    author: userRef(state, r.author, u),
    assets: [],
  };
}

export function combinedStatus(state: GitHubState, repo: RepoRecord, sha: string, u: Urls) {
  const statuses = repo.statuses.get(sha) ?? [];
  const order = ['error', 'failure', 'pending', 'success'] as const;
  const overall =
    statuses.length === 0 ? 'pending' : (order.find((s) => statuses.some((x) => x.state === s)) ?? 'success');
  return {
    state: overall,
    statuses: statuses.map((s) => statusObject(state, repo, s, u)),
    sha,
    total_count: statuses.length,
    repository: minimalRepo(state, repo, u),
    commit_url: `${repoApi(repo, u)}/commits/${sha}`,
    url: `${repoApi(repo, u)}/commits/${sha}/status`,
  };
}

function statusObject(state: GitHubState, repo: RepoRecord, s: StatusRecord, u: Urls) {
  return {
    url: `${repoApi(repo, u)}/statuses/${s.id}`,
    avatar_url: null,
    id: s.id,
    node_id: nodeId('S', s.id),
    state: s.state,
    description: s.description,
    target_url: s.targetUrl,
    context: s.context,
    created_at: s.createdAt,
    updated_at: s.createdAt,
    creator: simpleUser(state.addUser(s.creator), u),
  };
}

export function runObject(state: GitHubState, repo: RepoRecord, run: RunRecord, u: Urls) {
  const api = `${repoApi(repo, u)}/actions/runs/${run.id}`;
  const head = repo.store.commits.get(run.headSha);
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId('WR', run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: head?.message.split('\n')[0] ?? run.name,
    run_number: run.runNumber,
    run_attempt: 1,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    url: api,
    html_url: `${repoWeb(repo, u)}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    run_started_at: run.createdAt,
    actor: userRef(state, run.actor, u),
    triggering_actor: userRef(state, run.actor, u),
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    check_suite_url: `${repoApi(repo, u)}/check-suites/${run.id}`,
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    workflow_url: `${repoApi(repo, u)}/actions/workflows/${run.workflowId}`,
    head_commit: head
      ? {
          id: head.sha,
          tree_id: head.tree,
          message: head.message,
          timestamp: head.committer.date,
          author: { name: head.author.name, email: head.author.email },
          committer: { name: head.committer.name, email: head.committer.email },
        }
      : null,
    repository: minimalRepo(state, repo, u),
    head_repository: minimalRepo(state, repo, u),
  };
}

export function jobObject(repo: RepoRecord, run: RunRecord, job: JobRecord, u: Urls) {
  const api = `${repoApi(repo, u)}/actions/jobs/${job.id}`;
  return {
    id: job.id,
    run_id: run.id,
    run_url: `${repoApi(repo, u)}/actions/runs/${run.id}`,
    run_attempt: 1,
    node_id: nodeId('J', job.id),
    head_sha: run.headSha,
    url: api,
    html_url: `${repoWeb(repo, u)}/actions/runs/${run.id}/job/${job.id}`,
    status: job.status,
    conclusion: job.conclusion,
    created_at: job.startedAt,
    started_at: job.startedAt,
    completed_at: job.completedAt,
    name: job.name,
    steps: job.steps.map((s) => ({ ...s, started_at: job.startedAt, completed_at: job.completedAt })),
    check_run_url: `${repoApi(repo, u)}/check-runs/${job.id}`,
    labels: ['ubuntu-latest'],
    runner_id: 1,
    runner_name: 'fake-runner',
    runner_group_id: 1,
    runner_group_name: 'Default',
    workflow_name: run.name,
    head_branch: run.headBranch,
  };
}
