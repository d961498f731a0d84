// Fake GitLab routes: draft notes of a merge request (docs.gitlab.com/api/draft_notes) — each
// user sees and publishes only their own; a draft on a diff line has its position checked like a
// thread's; bulk_publish turns the caller's drafts into notes (new threads, or replies with
// `in_reply_to_discussion_id`, resolving it with `resolve_discussion`) and answers 204.
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  body,
  type GitLabCaller,
  intParam,
  notFound,
  readableProject,
  requireCaller,
  required,
} from './http.js';
import { checkPosition } from './routes-discussions.js';
import type { MergeRequestRecord, ProjectRecord } from './state.js';

interface DraftRecord {
  id: number;
  authorId: number;
  note: string;
  position: Record<string, unknown> | null;
  discussionId: string | null;
  resolveDiscussion: boolean;
}

export function registerDraftNoteRoutes(gl: FakeGitLab): void {
  const { state } = gl;
  const drafts = new WeakMap<MergeRequestRecord, DraftRecord[]>();
  let nextId = 1;
  const mrOf = (p: ProjectRecord, req: FakeRequest) => {
    const iid = intParam(req.params.merge_request_iid, 'merge_request_iid');
    const found = p.mergeRequests.find((m) => m.iid === iid);
    if (!found) throw notFound('Merge Request');
    return found;
  };
  const scope = (req: FakeRequest, who: GitLabCaller | undefined) => {
    const p = readableProject(state, req, who);
    const caller = requireCaller(who, req.method !== 'GET');
    const mr = mrOf(p, req);
    const all = drafts.get(mr) ?? [];
    drafts.set(mr, all);
    return { p, mr, caller, all, mine: all.filter((d) => d.authorId === caller.user.id) };
  };
  const entity = (mr: MergeRequestRecord, d: DraftRecord) => ({
    id: d.id,
    author_id: d.authorId,
    merge_request_id: mr.id,
    resolve_discussion: d.resolveDiscussion,
    discussion_id: d.discussionId,
    note: d.note,
    commit_id: null,
    line_code: null,
    position: d.position ?? {},
  });

  gl.route('GET', '/projects/:id/merge_requests/:merge_request_iid/draft_notes', (req, who) => {
    const { mr, mine } = scope(req, who);
    return { body: mine.map((d) => entity(mr, d)) };
  });

  gl.route('POST', '/projects/:id/merge_requests/:merge_request_iid/draft_notes', (req, who) => {
    const { p, mr, caller, all } = scope(req, who);
    const b = body<Record<string, unknown>>(req);
    const note = required(b.note, 'note');
    const position = (b.position as Record<string, unknown> | undefined) ?? null;
    if (position) checkPosition(p, mr, position);
    const discussionId = typeof b.in_reply_to_discussion_id === 'string' ? b.in_reply_to_discussion_id : null;
    if (discussionId && !mr.notes.some((n) => n.discussionId === discussionId)) throw notFound('Discussion');
    const d: DraftRecord = {
      id: nextId++,
      authorId: caller.user.id,
      note,
      position,
      discussionId,
      resolveDiscussion: b.resolve_discussion === true,
    };
    all.push(d);
    return { status: 201, body: entity(mr, d) };
  });

  gl.route(
    'DELETE',
    '/projects/:id/merge_requests/:merge_request_iid/draft_notes/:draft_note_id',
    (req, who) => {
      const { mr, all, mine } = scope(req, who);
      const id = intParam(req.params.draft_note_id, 'draft_note_id');
      const d = mine.find((x) => x.id === id);
      if (!d) throw notFound('Draft Note');
      all.splice(all.indexOf(d), 1);
      return { body: entity(mr, d) };
    },
  );

  gl.route('POST', '/projects/:id/merge_requests/:merge_request_iid/draft_notes/bulk_publish', (req, who) => {
    const { mr, caller, all, mine } = scope(req, who);
    const b = body<Record<string, unknown>>(req);
    for (const d of mine) {
      const reply = d.discussionId ? mr.notes.find((n) => n.discussionId === d.discussionId) : undefined;
      const n = state.addNote(mr, caller.user.id, d.note, {
        ...(reply ? { reply } : {}),
        ...(d.position ? { position: d.position } : {}),
      });
      if (!reply) {
        n.individual = false;
        n.resolvable = true;
      } else n.resolvable = reply.resolvable;
      if (reply && d.resolveDiscussion)
        for (const x of mr.notes)
          if (x.discussionId === reply.discussionId && x.resolvable) x.resolved = true;
      all.splice(all.indexOf(d), 1);
    }
    if (typeof b.note === 'string' && b.note) state.addNote(mr, caller.user.id, b.note);
    if (b.reviewer_state === 'requested_changes' || b.reviewer_state === 'reviewed')
      mr.reviewerIds = [...new Set([...mr.reviewerIds, caller.user.id])];
    return { status: 204 };
  });
}
