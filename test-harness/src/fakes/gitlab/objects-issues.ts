// GitLab REST entities of the fake's issues and merge requests: issues, merge requests (basic and
// full), notes, discussions and approvals (docs.gitlab.com/api/issues, /merge_requests, /notes,
// /discussions, /merge_request_approvals).
import type { Web } from './objects.js';
import { userBasic } from './objects.js';
import { pipelineBasic, pipeline as pipelineFull } from './objects-repo.js';
import type { GitLabState, IssueRecord, MergeRequestRecord, NoteRecord, ProjectRecord } from './state.js';
import { fullPath } from './state.js';

function users(state: GitLabState, ids: number[], w: Web) {
  return ids.flatMap((id) => {
    const u = state.user(id);
    return u ? [userBasic(u, w)] : [];
  });
}

function one(state: GitLabState, id: number | null, w: Web) {
  const u = id === null ? undefined : state.user(id);
  return u ? userBasic(u, w) : null;
}

const time = {
  time_estimate: 0,
  total_time_spent: 0,
  human_time_estimate: null,
  human_total_time_spent: null,
};

function common(
  state: GitLabState,
  p: ProjectRecord,
  x: IssueRecord | MergeRequestRecord,
  w: Web,
  sigil: string,
) {
  const assignees = users(state, x.assigneeIds, w);
  return {
    id: x.id,
    iid: x.iid,
    project_id: p.id,
    title: x.title,
    description: x.description,
    state: x.state,
    created_at: x.createdAt,
    updated_at: x.updatedAt,
    closed_at: x.closedAt,
    closed_by: one(state, x.closedById, w),
    labels: x.labels,
    milestone: null,
    assignees,
    assignee: assignees[0] ?? null,
    author: one(state, x.authorId, w),
    user_notes_count: x.notes.filter((n) => !n.system).length,
    upvotes: 0,
    downvotes: 0,
    discussion_locked: x.discussionLocked,
    references: {
      short: `${sigil}${x.iid}`,
      relative: `${sigil}${x.iid}`,
      full: `${fullPath(p)}${sigil}${x.iid}`,
    },
    time_stats: time,
    task_completion_status: { count: 0, completed_count: 0 },
    imported: false,
    imported_from: 'none',
  };
}

/** Issue. */
export function issue(state: GitLabState, p: ProjectRecord, x: IssueRecord, w: Web) {
  const self = `${w.api}/projects/${p.id}/issues/${x.iid}`;
  return {
    ...common(state, p, x, w, '#'),
    type: 'ISSUE',
    issue_type: 'issue',
    confidential: x.confidential,
    due_date: x.dueDate,
    merge_requests_count: 0,
    has_tasks: false,
    moved_to_id: null,
    service_desk_reply_to: null,
    severity: 'UNKNOWN',
    blocking_issues_count: 0,
    web_url: `${w.web}/${fullPath(p)}/-/issues/${x.iid}`,
    _links: {
      self,
      notes: `${self}/notes`,
      award_emoji: `${self}/award_emoji`,
      project: `${w.api}/projects/${p.id}`,
      closed_as_duplicate_of: null,
    },
    subscribed: false,
  };
}

/** The head, base and start shas of an MR (frozen once merged). */
export function mrShas(p: ProjectRecord, mr: MergeRequestRecord) {
  const source = p.repo.resolve(mr.sourceBranch);
  const target = p.repo.resolve(mr.targetBranch);
  const head = mr.headSha ?? source?.id ?? null;
  const base = mr.baseSha ?? (source && target ? (p.repo.mergeBase(source, target)?.id ?? null) : null);
  return { head, base, start: mr.baseSha ?? target?.id ?? null };
}

/** MergeRequestBasic (lists). */
export function mergeRequestBasic(state: GitLabState, p: ProjectRecord, mr: MergeRequestRecord, w: Web) {
  const { head } = mrShas(p, mr);
  return {
    ...common(state, p, mr, w, '!'),
    merged_by: one(state, mr.mergedById, w),
    merge_user: one(state, mr.mergedById, w),
    merged_at: mr.mergedAt,
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    reviewers: users(state, mr.reviewerIds, w),
    source_project_id: p.id,
    target_project_id: p.id,
    draft: mr.draft,
    work_in_progress: mr.draft,
    merge_when_pipeline_succeeds: false,
    merge_status: 'can_be_merged',
    detailed_merge_status: mr.state === 'opened' ? 'mergeable' : 'not_open',
    merge_after: null,
    sha: head,
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: null,
    should_remove_source_branch: mr.shouldRemoveSourceBranch,
    force_remove_source_branch: false,
    prepared_at: mr.createdAt,
    reference: `!${mr.iid}`,
    web_url: `${w.web}/${fullPath(p)}/-/merge_requests/${mr.iid}`,
    squash: mr.squash,
    squash_on_merge: mr.squash,
    has_conflicts: false,
    blocking_discussions_resolved: true,
    approvals_before_merge: null,
  };
}

/** MergeRequest (single MR, create, update, merge): with diff refs, pipeline and counts. */
export function mergeRequest(
  state: GitLabState,
  p: ProjectRecord,
  mr: MergeRequestRecord,
  w: Web,
  changesCount: number,
  canMerge: boolean,
) {
  const shas = mrShas(p, mr);
  const pipeline = p.pipelines.filter((x) => x.sha === shas.head).at(-1);
  return {
    ...mergeRequestBasic(state, p, mr, w),
    subscribed: false,
    changes_count: String(changesCount),
    latest_build_started_at: pipeline?.startedAt ?? null,
    latest_build_finished_at: pipeline?.finishedAt ?? null,
    first_deployed_to_production_at: null,
    pipeline: pipeline ? pipelineBasic(p, pipeline, w) : null,
    head_pipeline: pipeline ? pipelineFull(state, p, pipeline, w) : null,
    diff_refs:
      shas.base && shas.head && shas.start
        ? { base_sha: shas.base, head_sha: shas.head, start_sha: shas.start }
        : null,
    merge_error: null,
    first_contribution: false,
    user: { can_merge: canMerge },
  };
}

/** Note (issue and MR comments). */
export function note(
  state: GitLabState,
  p: ProjectRecord,
  on: IssueRecord | MergeRequestRecord,
  n: NoteRecord,
  type: 'Issue' | 'MergeRequest',
  w: Web,
) {
  return {
    id: n.id,
    type: n.position ? 'DiffNote' : n.individual ? null : 'DiscussionNote',
    body: n.body,
    author: one(state, n.authorId, w),
    created_at: n.createdAt,
    updated_at: n.updatedAt,
    system: n.system,
    noteable_id: on.id,
    noteable_type: type,
    project_id: p.id,
    noteable_iid: on.iid,
    commit_id: null,
    ...(n.position ? { position: n.position } : {}),
    resolvable: n.resolvable,
    ...(n.resolvable ? { resolved: n.resolved, resolved_by: null, resolved_at: null } : {}),
    confidential: false,
    internal: false,
    imported: false,
    imported_from: 'none',
  };
}

/** Discussions of an MR (or issue): notes grouped by discussion id, in order of their first note. */
export function discussions(
  state: GitLabState,
  p: ProjectRecord,
  on: IssueRecord | MergeRequestRecord,
  type: 'Issue' | 'MergeRequest',
  w: Web,
) {
  const byId = new Map<string, NoteRecord[]>();
  for (const n of on.notes) byId.set(n.discussionId, [...(byId.get(n.discussionId) ?? []), n]);
  return [...byId].map(([id, notes]) => discussion(state, p, on, type, w, id, notes));
}

/** One discussion: its id and notes. */
export function discussion(
  state: GitLabState,
  p: ProjectRecord,
  on: IssueRecord | MergeRequestRecord,
  type: 'Issue' | 'MergeRequest',
  w: Web,
  id: string,
  notes: NoteRecord[],
) {
  return {
    id,
    individual_note: notes.length === 1 && (notes[0]?.individual ?? false),
    notes: notes.map((n) => note(state, p, on, n, type, w)),
  };
}

/** Approvals state of an MR (`POST …/approve`). */
export function approvals(state: GitLabState, mr: MergeRequestRecord, w: Web, viewerId: number) {
  return {
    approved: mr.approvals.length > 0,
    user_has_approved: mr.approvals.some((a) => a.userId === viewerId),
    user_can_approve: !mr.approvals.some((a) => a.userId === viewerId),
    approved_by: mr.approvals.flatMap((a) => {
      const u = state.user(a.userId);
      return u ? [{ user: userBasic(u, w), approved_at: a.at }] : [];
    }),
  };
}
