// GitLab REST entities of the fake's repositories and CI: commits, branches, tree entries, file
// objects, diffs, pipelines and jobs (docs.gitlab.com/api/commits, /branches, /repositories,
// /repository_files, /pipelines, /jobs).
import { createHash } from 'node:crypto';
import type { Web } from './objects.js';
import { userBasic } from './objects.js';
import { blobId, type CommitRecord, type FileDiff, type Repository } from './repo.js';
import type { GitLabState, JobRecord, PipelineRecord, ProjectRecord } from './state.js';
import { fullPath } from './state.js';

const webOf = (p: ProjectRecord, w: Web) => `${w.web}/${fullPath(p)}`;

/** Commit (list entries, branch heads). */
export function commit(p: ProjectRecord, c: CommitRecord, w: Web) {
  const title = c.message.split('\n')[0] ?? '';
  return {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.date,
    parent_ids: c.parentIds,
    title,
    message: c.message,
    author_name: c.author.name,
    author_email: c.author.email,
    authored_date: c.date,
    committer_name: c.author.name,
    committer_email: c.author.email,
    committed_date: c.date,
    trailers: {},
    extended_trailers: {},
    web_url: `${webOf(p, w)}/-/commit/${c.id}`,
  };
}

/** CommitDetail (`GET commits/:sha`, the commits POST): with stats, status and last pipeline. */
export function commitDetail(
  state: GitLabState,
  p: ProjectRecord,
  c: CommitRecord,
  w: Web,
  diffs: FileDiff[],
) {
  void state;
  const additions = diffs.reduce((n, d) => n + d.additions, 0);
  const deletions = diffs.reduce((n, d) => n + d.deletions, 0);
  const pipeline = p.pipelines.filter((x) => x.sha === c.id).at(-1);
  return {
    ...commit(p, c, w),
    stats: { additions, deletions, total: additions + deletions },
    status: pipeline?.status ?? null,
    project_id: p.id,
    last_pipeline: pipeline ? pipelineBasic(p, pipeline, w) : null,
  };
}

/** Branch. `canPush` is the caller's right to push to it. */
export function branch(p: ProjectRecord, name: string, w: Web, canPush: boolean) {
  const repo = p.repo;
  const head = repo.resolve(name) as CommitRecord;
  const def = repo.resolve(repo.defaultBranch);
  const isProtected = repo.protectedBranches.has(name);
  return {
    name,
    commit: commit(p, head, w),
    merged: name !== repo.defaultBranch && def ? repo.history(def).some((c) => c.id === head.id) : false,
    protected: isProtected,
    developers_can_push: !isProtected,
    developers_can_merge: !isProtected,
    can_push: canPush,
    default: name === repo.defaultBranch,
    web_url: `${webOf(p, w)}/-/tree/${name}`,
  };
}

/** A tree id for directory `dir` of `files` (stable: hash of the entries under it). */
function treeId(files: Map<string, Buffer>, dir: string): string {
  const hash = createHash('sha1');
  for (const [path, content] of files)
    if (path.startsWith(`${dir}/`)) hash.update(`${path}:${blobId(content)}\n`);
  return hash.digest('hex');
}

/**
 * The entries of directory `path` ("" = root) at `c`, trees first then blobs (as GitLab sorts
 * them), every level when `recursive`; undefined when `path` is no directory.
 */
export function treeEntries(c: CommitRecord, path: string, recursive: boolean) {
  const dir = path.replace(/^\/+|\/+$/g, '');
  const prefix = dir ? `${dir}/` : '';
  const entries = new Map<string, { type: 'tree' | 'blob'; id: string; mode: string }>();
  for (const [file, content] of c.files) {
    if (!file.startsWith(prefix)) continue;
    const parts = file.slice(prefix.length).split('/');
    const depth = recursive ? parts.length : 1;
    for (let i = 1; i <= depth; i++) {
      const child = `${prefix}${parts.slice(0, i).join('/')}`;
      const isBlob = i === parts.length;
      if (!entries.has(child))
        entries.set(
          child,
          isBlob
            ? { type: 'blob', id: blobId(content), mode: '100644' }
            : { type: 'tree', id: treeId(c.files, child), mode: '040000' },
        );
    }
  }
  if (dir && entries.size === 0) return undefined;
  return [...entries]
    .sort(([a, x], [b, y]) => (x.type === y.type ? a.localeCompare(b) : x.type === 'tree' ? -1 : 1))
    .map(([p, e]) => ({ id: e.id, name: p.split('/').pop() ?? p, type: e.type, path: p, mode: e.mode }));
}

/** The file object of `GET repository/files/:file_path` (content base64). */
export function fileObject(repo: Repository, c: CommitRecord, path: string, ref: string) {
  const content = c.files.get(path) as Buffer;
  const last = repo.history(c).find((x) => {
    const parent = x.parentIds[0] ? repo.commits.get(x.parentIds[0]) : undefined;
    const before = parent?.files.get(path);
    const now = x.files.get(path);
    return now !== undefined && !before?.equals(now);
  });
  return {
    file_name: path.split('/').pop() ?? path,
    file_path: path,
    size: content.length,
    encoding: 'base64',
    content_sha256: createHash('sha256').update(content).digest('hex'),
    ref,
    blob_id: blobId(content),
    commit_id: c.id,
    last_commit_id: last?.id ?? c.id,
    execute_filemode: false,
    content: content.toString('base64'),
  };
}

/**
 * GitLab's default diff limits (docs.gitlab.com/administration/diff_limits): a file's patch over
 * the maximum patch size (200 KB) is `too_large`; one that reaches 10% of it is `collapsed`. Both
 * come with an empty `diff`.
 */
export const DIFF_MAX_PATCH_BYTES = 204_800;

/** Diff (commit diffs, MR diffs, compare). */
export function diff(d: FileDiff) {
  const bytes = Buffer.byteLength(d.diff);
  const tooLarge = bytes > DIFF_MAX_PATCH_BYTES;
  const collapsed = !tooLarge && bytes >= DIFF_MAX_PATCH_BYTES / 10;
  return {
    diff: tooLarge || collapsed ? '' : d.diff,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: d.newFile ? '0' : '100644',
    b_mode: d.deletedFile ? '0' : '100644',
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
    generated_file: false,
    collapsed,
    too_large: tooLarge,
  };
}

/** PipelineBasic (lists). */
export function pipelineBasic(p: ProjectRecord, x: PipelineRecord, w: Web) {
  return {
    id: x.id,
    iid: x.iid,
    project_id: p.id,
    sha: x.sha,
    ref: x.ref,
    status: x.status,
    source: x.source,
    created_at: x.createdAt,
    updated_at: x.updatedAt,
    web_url: `${webOf(p, w)}/-/pipelines/${x.id}`,
  };
}

const seconds = (from: string | null, to: string | null) =>
  from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : null;

/** Pipeline with metadata (`GET pipelines/:id`). */
export function pipeline(state: GitLabState, p: ProjectRecord, x: PipelineRecord, w: Web) {
  const user = state.user(x.userId);
  return {
    ...pipelineBasic(p, x, w),
    name: null,
    before_sha: x.beforeSha,
    tag: false,
    yaml_errors: null,
    user: user ? userBasic(user, w) : null,
    started_at: x.startedAt,
    finished_at: x.finishedAt,
    committed_at: null,
    duration: seconds(x.startedAt, x.finishedAt),
    queued_duration: 1,
    coverage: null,
    archived: false,
    detailed_status: {
      icon: `status_${x.status}`,
      text: x.status,
      label: x.status === 'success' ? 'passed' : x.status,
      group: x.status,
      tooltip: x.status,
      has_details: true,
      details_path: `/${fullPath(p)}/-/pipelines/${x.id}`,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_status_${x.status}.png`,
    },
  };
}

/** Job. */
export function job(state: GitLabState, p: ProjectRecord, x: PipelineRecord, j: JobRecord, w: Web) {
  const head = p.repo.commits.get(x.sha);
  const user = state.user(x.userId);
  return {
    id: j.id,
    status: j.status,
    stage: j.stage,
    name: j.name,
    ref: x.ref,
    tag: false,
    coverage: null,
    allow_failure: j.allowFailure,
    created_at: j.createdAt,
    started_at: j.startedAt,
    finished_at: j.finishedAt,
    erased_at: null,
    duration: seconds(j.startedAt, j.finishedAt),
    queued_duration: 0.5,
    user: user ? { ...userBasic(user, w), created_at: user.createdAt, bio: '', bot: false } : null,
    commit: head ? commit(p, head, w) : null,
    pipeline: pipelineBasic(p, x, w),
    web_url: `${webOf(p, w)}/-/jobs/${j.id}`,
    project: { ci_job_token_scope_enabled: false },
    artifacts: [{ file_type: 'trace', size: j.log.length, filename: 'job.log', file_format: null }],
    runner: null,
    runner_manager: null,
    artifacts_expire_at: null,
    archived: false,
    tag_list: [],
    ...(j.failureReason ? { failure_reason: j.failureReason } : {}),
  };
}
