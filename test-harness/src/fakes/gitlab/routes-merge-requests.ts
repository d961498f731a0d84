// Fake GitLab routes: merge requests (list, get, create, update), their diffs, discussions and
// notes, approve and merge — with GitLab's answers for duplicate MRs, repeated approvals
// (401), merging a closed MR (405), a stale `sha` (409) and conflicts (406).
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  body,
  forbidden,
  type GitLabCaller,
  glError,
  intParam,
  notFound,
  offsetPage,
  projectFor,
  Reply,
  readableProject,
  requireCaller,
  required,
  unauthorized,
} from './http.js';
import { approvals, discussions, mergeRequest, mergeRequestBasic, mrShas, note } from './objects-issues.js';
import { diff } from './objects-repo.js';
import { applyChanges, diffSnapshots, tick } from './repo.js';
import { filterIssuables, idList, labelList, sortedNotes } from './routes-issues.js';
import { DEVELOPER, MAINTAINER, type MergeRequestRecord, type ProjectRecord } from './state.js';

export function registerMergeRequestRoutes(gl: FakeGitLab): void {
  const { state } = gl;
  const w = () => ({ web: gl.web, api: gl.url });
  const reader = (req: FakeRequest, who: GitLabCaller | undefined) => readableProject(state, req, who);
  const mrOf = (p: ProjectRecord, req: FakeRequest, param: string) => {
    const iid = intParam(req.params[param], param);
    const found = p.mergeRequests.find((m) => m.iid === iid);
    if (!found) throw notFound('Merge Request');
    return found;
  };
  const changes = (p: ProjectRecord, mr: MergeRequestRecord) => {
    const { head, base } = mrShas(p, mr);
    const h = head ? p.repo.commits.get(head) : undefined;
    const b = base ? p.repo.commits.get(base) : undefined;
    return h && b ? diffSnapshots(b.files, h.files) : [];
  };
  const canMerge = (p: ProjectRecord, mr: MergeRequestRecord, who: GitLabCaller | undefined) =>
    state.accessLevel(p, who?.user.id) >=
    (p.repo.protectedBranches.has(mr.targetBranch) ? MAINTAINER : DEVELOPER);
  const full = (p: ProjectRecord, mr: MergeRequestRecord, who: GitLabCaller | undefined) =>
    mergeRequest(state, p, mr, w(), changes(p, mr).length, canMerge(p, mr, who));

  gl.route('GET', '/projects/:id/merge_requests', (req, who) => {
    const p = reader(req, who);
    const q = req.query;
    const list = filterIssuables(state, req, p.mergeRequests).filter(
      (m) =>
        (!q.get('source_branch') || m.sourceBranch === q.get('source_branch')) &&
        (!q.get('target_branch') || m.targetBranch === q.get('target_branch')),
    );
    const page = offsetPage(req, list, gl.paging);
    return { ...page, body: page.body.map((m) => mergeRequestBasic(state, p, m, w())) };
  });

  gl.route('GET', '/projects/:id/merge_requests/:merge_request_iid', (req, who) => {
    const p = reader(req, who);
    return { body: full(p, mrOf(p, req, 'merge_request_iid'), who) };
  });

  gl.route('POST', '/projects/:id/merge_requests', (req, who) => {
    const p = projectFor(state, req, who);
    const caller = requireCaller(who, true);
    if (state.accessLevel(p, caller.user.id) < DEVELOPER) throw forbidden();
    const b = body<Record<string, unknown>>(req);
    const source = required(b.source_branch, 'source_branch');
    const target = required(b.target_branch, 'target_branch');
    const title = required(b.title, 'title');
    if (source === target)
      throw new Reply(glError(422, ["You can't use same project/branch for source and target"]));
    for (const [name, what] of [
      [source, 'Source'],
      [target, 'Target'],
    ] as const)
      if (!p.repo.branches.has(name))
        throw new Reply(glError(422, [`${what} branch "${name}" does not exist`]));
    const open = p.mergeRequests.find(
      (m) => m.state === 'opened' && m.sourceBranch === source && m.targetBranch === target,
    );
    if (open)
      throw new Reply(
        glError(409, [`Another open merge request already exists for this source branch: !${open.iid}`]),
      );
    const mr = state.addMergeRequest(p, {
      title,
      description: b.description === undefined ? null : String(b.description),
      author: caller.user.username,
      source,
      target,
      labels: labelList(b.labels),
    });
    mr.assigneeIds = idList(b.assignee_ids ?? b.assignee_id);
    mr.reviewerIds = idList(b.reviewer_ids);
    mr.squash = b.squash === true || b.squash === 'true';
    if (b.remove_source_branch !== undefined)
      mr.shouldRemoveSourceBranch = String(b.remove_source_branch) === 'true';
    return { status: 201, body: full(p, mr, who) };
  });

  gl.route('PUT', '/projects/:id/merge_requests/:merge_request_iid', (req, who) => {
    const p = projectFor(state, req, who);
    const caller = requireCaller(who, true);
    const mr = mrOf(p, req, 'merge_request_iid');
    if (mr.authorId !== caller.user.id && state.accessLevel(p, caller.user.id) < DEVELOPER) throw forbidden();
    const b = body<Record<string, unknown>>(req);
    if (b.title !== undefined) {
      mr.title = String(b.title);
      mr.draft = /^(draft:|\[draft\])/i.test(mr.title);
    }
    if (b.description !== undefined) mr.description = b.description === null ? null : String(b.description);
    if (b.target_branch !== undefined) {
      if (!p.repo.branches.has(String(b.target_branch)))
        throw new Reply(glError(422, [`Target branch "${b.target_branch}" does not exist`]));
      mr.targetBranch = String(b.target_branch);
    }
    if (b.labels !== undefined) mr.labels = labelList(b.labels);
    if (b.add_labels !== undefined) mr.labels = [...new Set([...mr.labels, ...labelList(b.add_labels)])];
    if (b.remove_labels !== undefined) {
      const gone = labelList(b.remove_labels);
      mr.labels = mr.labels.filter((l) => !gone.includes(l));
    }
    if (b.assignee_ids !== undefined) mr.assigneeIds = idList(b.assignee_ids);
    if (b.reviewer_ids !== undefined) mr.reviewerIds = idList(b.reviewer_ids);
    if (b.discussion_locked !== undefined) mr.discussionLocked = String(b.discussion_locked) === 'true';
    if (b.state_event === 'close' && mr.state === 'opened') {
      mr.state = 'closed';
      mr.closedAt = tick();
      mr.closedById = caller.user.id;
    } else if (b.state_event === 'reopen' && mr.state === 'closed') {
      mr.state = 'opened';
      mr.closedAt = null;
      mr.closedById = null;
    }
    mr.updatedAt = tick();
    return { body: full(p, mr, who) };
  });

  gl.route('GET', '/projects/:id/merge_requests/:merge_request_iid/diffs', (req, who) => {
    const p = reader(req, who);
    return offsetPage(req, changes(p, mrOf(p, req, 'merge_request_iid')).map(diff), gl.paging);
  });

  gl.route('GET', '/projects/:id/merge_requests/:noteable_id/discussions', (req, who) => {
    const p = reader(req, who);
    const mr = mrOf(p, req, 'noteable_id');
    return offsetPage(req, discussions(state, p, mr, 'MergeRequest', w()), gl.paging);
  });

  gl.route('GET', '/projects/:id/merge_requests/:noteable_id/notes', (req, who) => {
    const p = reader(req, who);
    const mr = mrOf(p, req, 'noteable_id');
    const page = offsetPage(req, sortedNotes(req, mr), gl.paging);
    return { ...page, body: page.body.map((n) => note(state, p, mr, n, 'MergeRequest', w())) };
  });

  gl.route('POST', '/projects/:id/merge_requests/:noteable_id/notes', (req, who) => {
    const p = reader(req, who);
    const caller = requireCaller(who, true);
    const mr = mrOf(p, req, 'noteable_id');
    const text = required(body<Record<string, unknown>>(req).body, 'body');
    const n = state.addNote(mr, caller.user.id, text);
    return { status: 201, body: note(state, p, mr, n, 'MergeRequest', w()) };
  });

  gl.route('POST', '/projects/:id/merge_requests/:merge_request_iid/approve', (req, who) => {
    const p = reader(req, who);
    const caller = requireCaller(who, true);
    const mr = mrOf(p, req, 'merge_request_iid');
    const b = body<Record<string, unknown>>(req);
    if (b.sha && b.sha !== mrShas(p, mr).head)
      throw new Reply(glError(409, 'SHA does not match HEAD of source branch'));
    // GitLab answers a repeated approval, or one the caller may not give, with 401.
    if (
      state.accessLevel(p, caller.user.id) < DEVELOPER ||
      mr.approvals.some((a) => a.userId === caller.user.id)
    )
      throw unauthorized();
    mr.approvals.push({ userId: caller.user.id, at: tick() });
    return { status: 201, body: approvals(state, mr, w(), caller.user.id) };
  });

  gl.route('PUT', '/projects/:id/merge_requests/:merge_request_iid/merge', (req, who) => {
    const p = reader(req, who);
    const caller = requireCaller(who, true);
    const mr = mrOf(p, req, 'merge_request_iid');
    if (mr.state !== 'opened' || mr.draft) throw new Reply(glError(405, '405 Method Not Allowed'));
    if (!canMerge(p, mr, caller)) throw unauthorized();
    const b = body<Record<string, unknown>>(req);
    const { head } = mrShas(p, mr);
    if (b.sha && b.sha !== head)
      throw new Reply(glError(409, `SHA does not match HEAD of source branch: ${head}`));
    const source = p.repo.resolve(mr.sourceBranch);
    const target = p.repo.resolve(mr.targetBranch);
    const base = source && target ? p.repo.mergeBase(source, target) : undefined;
    if (!source || !target || !base) throw new Reply(glError(406, 'Branch cannot be merged'));
    const { changes: apply, conflicts } = applyChanges(base.files, source.files, target.files);
    if (conflicts.length) throw new Reply(glError(406, 'Branch cannot be merged'));
    const message =
      (b.merge_commit_message as string | undefined) ??
      `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request ${p.namespace.fullPath}/${p.path}!${mr.iid}`;
    const merged = p.repo.commit(mr.targetBranch, apply, message, state.signature(caller.user.id), target, [
      source.id,
    ]);
    Object.assign(mr, {
      state: 'merged',
      mergedAt: tick(),
      mergedById: caller.user.id,
      mergeCommitSha: merged.id,
      headSha: source.id,
      baseSha: base.id,
      updatedAt: tick(),
    });
    if (
      b.should_remove_source_branch === true ||
      String(b.should_remove_source_branch) === 'true' ||
      mr.shouldRemoveSourceBranch
    )
      p.repo.branches.delete(mr.sourceBranch);
    return { body: full(p, mr, who) };
  });
}
