// Fake GitLab routes: the repository — tree, files (object, raw, create, update), commits (list,
// one, its diff, the multi-action commit), compare and branches — with GitLab's errors for
// missing refs and paths, existing or missing files, protected branches and stale edits.
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  body,
  forbidden,
  type GitLabCaller,
  glError,
  notFound,
  offsetPage,
  projectFor,
  Reply,
  readableProject,
  requireCaller,
  required,
} from './http.js';
import { branch, commit, commitDetail, diff, fileObject, treeEntries } from './objects-repo.js';
import { type CommitRecord, diffSnapshots, isBinary } from './repo.js';
import { DEVELOPER, type GitLabState, MAINTAINER, type ProjectRecord } from './state.js';

/** The commit `ref` names, or a 404 with GitLab's message (`404 Commit Not Found` unless told). */
export function commitAt(p: ProjectRecord, ref: string, what = 'Commit'): CommitRecord {
  const c = p.repo.resolve(ref);
  if (!c) throw notFound(what);
  return c;
}

/** The caller, allowed to push to `branchName` (Developer; Maintainer on a protected branch). */
export function pusher(
  state: GitLabState,
  p: ProjectRecord,
  branchName: string,
  who: GitLabCaller | undefined,
) {
  const caller = requireCaller(who, true);
  const level = state.accessLevel(p, caller.user.id);
  if (level < DEVELOPER) throw forbidden();
  if (p.repo.protectedBranches.has(branchName) && level < MAINTAINER)
    throw forbidden('You are not allowed to push into this branch');
  return caller;
}

/** A file action's content: `encoding` "base64" decodes, otherwise text. */
const decode = (content: unknown, encoding: unknown) =>
  Buffer.from(String(content ?? ''), encoding === 'base64' ? 'base64' : 'utf8');

/** The branch a write lands on and the commit it starts from (`start_branch` creates `branch`). */
function writeStart(p: ProjectRecord, b: Record<string, unknown>): CommitRecord | undefined {
  const target = required(b.branch, 'branch');
  const existing = p.repo.resolve(target);
  if (b.start_sha) return commitAt(p, String(b.start_sha));
  if (b.start_branch && !existing) return commitAt(p, String(b.start_branch), 'Branch');
  if (!existing && !p.repo.empty)
    throw new Reply(glError(400, 'You can only create or edit files when you are on a branch'));
  return existing;
}

/**
 * A keyset page of tree entries (`pagination=keyset`): the entries after the one whose id is
 * `page_token`, `per_page` (default 20, max 100) of them; `Link rel="next"` carries the last
 * entry's id as the next `page_token`, while more follow. No totals.
 */
function treeKeysetPage<T extends { id: string }>(req: FakeRequest, entries: T[], origin: string) {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get('per_page') ?? 20) || 20));
  const token = req.query.get('page_token');
  const start = token ? entries.findIndex((e) => e.id === token) + 1 : 0;
  const window = token && start === 0 ? [] : entries.slice(start);
  const page = window.slice(0, perPage);
  const headers: Record<string, string> = {};
  const last = page.at(-1);
  if (last && window.length > perPage) {
    const q = new URLSearchParams(req.rawQuery);
    q.set('page_token', last.id);
    headers.link = `<${origin}${req.rawPath}?${q.toString()}>; rel="next"`;
  }
  return { body: page, headers };
}

export function registerRepositoryRoutes(gl: FakeGitLab): void {
  const { state } = gl;
  const w = () => ({ web: gl.web, api: gl.url });
  const reader = (req: FakeRequest, who: GitLabCaller | undefined) => readableProject(state, req, who);

  gl.route('GET', '/projects/:id/repository/tree', (req, who) => {
    const p = reader(req, who);
    const ref = req.query.get('ref') ?? p.repo.defaultBranch;
    const c = p.repo.resolve(ref);
    const entries = c
      ? treeEntries(c, req.query.get('path') ?? '', req.query.get('recursive') === 'true')
      : undefined;
    if (!entries) throw notFound('Tree');
    const pagination = req.query.get('pagination');
    if (pagination === 'none') return { body: entries };
    if (pagination === 'keyset') return treeKeysetPage(req, entries, gl.paging.origin);
    return offsetPage(req, entries, gl.paging);
  });

  const file = (req: FakeRequest, who: GitLabCaller | undefined, refDefault: boolean) => {
    const p = reader(req, who);
    const ref = refDefault
      ? (req.query.get('ref') ?? p.repo.defaultBranch)
      : required(req.query.get('ref'), 'ref');
    const c = commitAt(p, ref);
    const path = req.params.file_path ?? '';
    const content = c.files.get(path);
    if (!content) throw notFound('File');
    return { p, c, path, ref, content };
  };

  gl.route('GET', '/projects/:id/repository/files/:file_path', (req, who) => {
    const { p, c, path, ref } = file(req, who, false);
    const object = fileObject(p.repo, c, path, ref);
    return {
      body: object,
      headers: {
        'x-gitlab-file-name': object.file_name,
        'x-gitlab-file-path': object.file_path,
        'x-gitlab-size': String(object.size),
        'x-gitlab-encoding': 'base64',
        'x-gitlab-blob-id': object.blob_id,
        'x-gitlab-commit-id': object.commit_id,
        'x-gitlab-last-commit-id': object.last_commit_id,
        'x-gitlab-ref': ref,
      },
    };
  });

  gl.route('GET', '/projects/:id/repository/files/:file_path/raw', (req, who) => {
    const { path, content } = file(req, who, true);
    return {
      raw: new Uint8Array(content),
      headers: {
        'content-type': isBinary(content) ? 'application/octet-stream' : 'text/plain; charset=utf-8',
        'content-disposition': `inline; filename="${path.split('/').pop()}"`,
        'x-gitlab-size': String(content.length),
      },
    };
  });

  const writeFile = (req: FakeRequest, who: GitLabCaller | undefined, create: boolean) => {
    const p = projectFor(state, req, who);
    const b = body<Record<string, unknown>>(req);
    const branchName = required(b.branch, 'branch');
    required(b.commit_message, 'commit_message');
    if (b.content === undefined) throw new Reply({ status: 400, body: { error: 'content is missing' } });
    const caller = pusher(state, p, branchName, who);
    const start = writeStart(p, b);
    const path = req.params.file_path ?? '';
    const existing = start?.files.get(path);
    if (create && existing) throw new Reply(glError(400, 'A file with this name already exists'));
    if (!create && !existing) throw new Reply(glError(400, "A file with this name doesn't exist"));
    if (!create && b.last_commit_id) {
      const last = fileObject(p.repo, start as CommitRecord, path, branchName).last_commit_id;
      if (last !== b.last_commit_id)
        throw new Reply(
          glError(400, 'You are attempting to update a file that has changed since you started editing it.'),
        );
    }
    state.commit(
      p,
      branchName,
      { [path]: decode(b.content, b.encoding) },
      String(b.commit_message),
      caller.user.id,
      start?.id,
    );
    return { status: create ? 201 : 200, body: { file_path: path, branch: branchName } };
  };
  gl.route('POST', '/projects/:id/repository/files/:file_path', (req, who) => writeFile(req, who, true));
  gl.route('PUT', '/projects/:id/repository/files/:file_path', (req, who) => writeFile(req, who, false));

  gl.route('GET', '/projects/:id/repository/commits', (req, who) => {
    const p = reader(req, who);
    const ref = req.query.get('ref_name') ?? p.repo.defaultBranch;
    const head = p.repo.resolve(ref);
    if (!head) throw notFound('Commit');
    const path = req.query.get('path');
    const since = req.query.get('since');
    const until = req.query.get('until');
    const list = p.repo.history(head).filter((c) => {
      if (since && c.date < since) return false;
      if (until && c.date > until) return false;
      if (!path) return true;
      const parent = c.parentIds[0] ? p.repo.commits.get(c.parentIds[0]) : undefined;
      return diffSnapshots(parent?.files ?? new Map(), c.files).some((d) => d.newPath.startsWith(path));
    });
    const page = offsetPage(req, list, gl.paging);
    return { ...page, body: page.body.map((c) => commit(p, c, w())) };
  });

  const parentFiles = (p: ProjectRecord, c: CommitRecord) =>
    (c.parentIds[0] ? p.repo.commits.get(c.parentIds[0])?.files : undefined) ?? new Map();

  gl.route('GET', '/projects/:id/repository/commits/:sha', (req, who) => {
    const p = reader(req, who);
    const c = commitAt(p, req.params.sha ?? '');
    return { body: commitDetail(state, p, c, w(), diffSnapshots(parentFiles(p, c), c.files)) };
  });

  gl.route('GET', '/projects/:id/repository/commits/:sha/diff', (req, who) => {
    const p = reader(req, who);
    const c = commitAt(p, req.params.sha ?? '');
    return offsetPage(req, diffSnapshots(parentFiles(p, c), c.files).map(diff), gl.paging);
  });

  gl.route('POST', '/projects/:id/repository/commits', (req, who) => {
    const p = projectFor(state, req, who);
    const b = body<Record<string, unknown>>(req);
    const branchName = required(b.branch, 'branch');
    required(b.commit_message, 'commit_message');
    const actions = b.actions as Array<Record<string, unknown>> | undefined;
    if (!Array.isArray(actions) || actions.length === 0)
      throw new Reply({ status: 400, body: { error: 'actions is missing' } });
    const caller = pusher(state, p, branchName, who);
    const start = writeStart(p, b);
    const files = new Map(start?.files ?? []);
    const changes: Record<string, Buffer | null> = {};
    for (const [i, a] of actions.entries()) {
      const path = String(a.file_path ?? '');
      if (!path) throw new Reply({ status: 400, body: { error: `actions[${i}][file_path] is missing` } });
      const exists = files.has(path);
      const put = (target: string, content: Buffer | null) => {
        changes[target] = content;
        if (content === null) files.delete(target);
        else files.set(target, content);
      };
      switch (a.action) {
        case 'create':
          if (exists) throw new Reply(glError(400, 'A file with this name already exists'));
          put(path, decode(a.content, a.encoding));
          break;
        case 'update':
          if (!exists) throw new Reply(glError(400, "A file with this name doesn't exist"));
          put(path, decode(a.content, a.encoding));
          break;
        case 'delete':
          if (!exists) throw new Reply(glError(400, "A file with this name doesn't exist"));
          put(path, null);
          break;
        case 'move': {
          const from = String(a.previous_path ?? '');
          const old = files.get(from);
          if (!old) throw new Reply(glError(400, "A file with this name doesn't exist"));
          if (exists) throw new Reply(glError(400, 'A file with this name already exists'));
          put(from, null);
          put(path, a.content === undefined ? old : decode(a.content, a.encoding));
          break;
        }
        case 'chmod':
          if (!exists) throw new Reply(glError(400, "A file with this name doesn't exist"));
          break;
        default:
          throw new Reply({
            status: 400,
            body: { error: `actions[${i}][action] does not have a valid value` },
          });
      }
    }
    const c = state.commit(p, branchName, changes, String(b.commit_message), caller.user.id, start?.id);
    return {
      status: 201,
      body: commitDetail(state, p, c, w(), diffSnapshots(start?.files ?? new Map(), c.files)),
    };
  });

  gl.route('GET', '/projects/:id/repository/compare', (req, who) => {
    const p = reader(req, who);
    const from = commitAt(p, required(req.query.get('from'), 'from'), 'Ref');
    const to = commitAt(p, required(req.query.get('to'), 'to'), 'Ref');
    const straight = req.query.get('straight') === 'true';
    const base = straight ? from : (p.repo.mergeBase(from, to) ?? from);
    const seen = new Set(p.repo.history(base).map((c) => c.id));
    const commits = p.repo
      .history(to)
      .filter((c) => !seen.has(c.id))
      .reverse();
    return {
      body: {
        commit: commits.length ? commit(p, to, w()) : null,
        commits: commits.map((c) => commit(p, c, w())),
        diffs: diffSnapshots(base.files, to.files).map(diff),
        compare_timeout: false,
        compare_same_ref: from.id === to.id,
        web_url: `${gl.web}/${req.params.id}/-/compare/${from.id}...${to.id}`,
      },
    };
  });

  const canPush = (p: ProjectRecord, name: string, who: GitLabCaller | undefined) => {
    const level = state.accessLevel(p, who?.user.id);
    return level >= (p.repo.protectedBranches.has(name) ? MAINTAINER : DEVELOPER);
  };

  gl.route('GET', '/projects/:id/repository/branches', (req, who) => {
    const p = reader(req, who);
    const search = req.query.get('search');
    const names = [...p.repo.branches.keys()]
      .filter((n) => !search || n.includes(search))
      .sort((a, b) => a.localeCompare(b));
    const page = offsetPage(req, names, gl.paging);
    return { ...page, body: page.body.map((n) => branch(p, n, w(), canPush(p, n, who))) };
  });

  gl.route('GET', '/projects/:id/repository/branches/:branch', (req, who) => {
    const p = reader(req, who);
    const name = req.params.branch ?? '';
    if (!p.repo.branches.has(name)) throw notFound('Branch');
    return { body: branch(p, name, w(), canPush(p, name, who)) };
  });

  gl.route('POST', '/projects/:id/repository/branches', (req, who) => {
    const p = projectFor(state, req, who);
    const b = { ...Object.fromEntries(req.query), ...body<Record<string, unknown>>(req) };
    const name = required(b.branch, 'branch');
    const ref = required(b.ref, 'ref');
    pusher(state, p, name, who);
    if (p.repo.branches.has(name)) throw new Reply(glError(400, 'Branch already exists'));
    const start = p.repo.resolve(ref);
    if (!start) throw new Reply(glError(400, `Invalid reference name: ${ref}`));
    p.repo.branches.set(name, start.id);
    return { status: 201, body: branch(p, name, w(), true) };
  });
}
