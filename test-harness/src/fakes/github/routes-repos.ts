// Fake GitHub routes: the authenticated user, repositories (get, create, fork), branches, tags,
// releases, collaborator permission, commits and combined status.
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitHub } from './fake-github.js';
import { diffSnapshots } from './git.js';
import { ghError, invalid, jsonBody, paged, Reply, repoFor } from './http.js';
import { fullRepo, privateUser, simpleUser } from './objects.js';
import { combinedStatus, commitObject, releaseObject, shortBranch, tagObject } from './objects-git.js';
import type { GitHubState, RepoRecord } from './state.js';

/** The commit sha a ref names: a branch, a tag, or a (7+ character) sha prefix; 422 when none. */
export function resolveRef(state: GitHubState, repo: RepoRecord, ref: string): string {
  void state;
  const name = ref.replace(/^refs\/(heads|tags)\//, '');
  const sha = repo.branches.get(name) ?? repo.tags.get(name);
  if (sha) return sha;
  if (/^[0-9a-f]{7,40}$/.test(ref)) {
    for (const candidate of repo.store.commits.keys()) if (candidate.startsWith(ref)) return candidate;
  }
  throw new Reply(ghError(422, `No commit found for SHA: ${ref}`));
}

const origin = (gh: FakeGitHub) => new URL(gh.url).origin;

export function registerRepoRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const me = (who: string | undefined) => {
    if (!who) throw new Reply(ghError(401, 'Requires authentication'));
    return who;
  };

  gh.route('GET', '/user', (_req, who) => {
    const user = state.user(me(who));
    if (!user) throw new Reply(ghError(404, 'Not Found'));
    return { body: privateUser(state, user, urls) };
  });

  gh.route('POST', '/user/repos', (req, who) => {
    const login = me(who);
    const body = jsonBody<{ name?: string; description?: string; private?: boolean; auto_init?: boolean }>(
      req,
    );
    if (!body.name) throw invalid('Repository', 'name');
    if (state.repo(login, body.name))
      throw new Reply(
        ghError(422, 'Repository creation failed.', {
          errors: [
            {
              resource: 'Repository',
              code: 'custom',
              field: 'name',
              message: 'name already exists on this account',
            },
          ],
        }),
      );
    const repo = state.addRepo(login, body.name, {
      private: body.private ?? false,
      ...(body.description ? { description: body.description } : {}),
      ...(body.auto_init ? { files: { 'README.md': `# ${body.name}\n` } } : {}),
    });
    return { status: 201, body: fullRepo(state, repo, urls, login) };
  });

  gh.route('GET', '/repos/:owner/:repo', (req, who) => ({
    body: fullRepo(state, repoFor(state, req, who), urls, who),
  }));

  gh.route('POST', '/repos/:owner/:repo/forks', (req, who) => {
    const login = me(who);
    const source = repoFor(state, req, who);
    const body = jsonBody<{ organization?: string; name?: string }>(req);
    const owner = body.organization ?? login;
    const name = body.name ?? source.name;
    let fork = state.repo(owner, name);
    if (!fork) {
      fork = state.addRepo(owner, name, { description: source.description ?? '' });
      for (const [k, v] of source.store.blobs) fork.store.blobs.set(k, v);
      for (const [k, v] of source.store.trees) fork.store.trees.set(k, v);
      for (const [k, v] of source.store.commits) fork.store.commits.set(k, v);
      for (const [k, v] of source.branches) fork.branches.set(k, v);
      fork.defaultBranch = source.defaultBranch;
      fork.parent = source;
      if (body.organization) fork.collaborators.set(login, 'admin');
    }
    return { status: 202, body: fullRepo(state, fork, urls, login) };
  });

  gh.route('GET', '/repos/:owner/:repo/branches', (req, who) => {
    const repo = repoFor(state, req, who);
    const all = [...repo.branches]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, sha]) => shortBranch(repo, name, sha, urls));
    const page = paged(req, origin(gh), all);
    return { body: page.items, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/tags', (req, who) => {
    const repo = repoFor(state, req, who);
    const all = [...repo.tags].reverse().map(([name, sha]) => tagObject(repo, name, sha, urls));
    const page = paged(req, origin(gh), all);
    return { body: page.items, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/releases', (req, who) => {
    const repo = repoFor(state, req, who);
    const page = paged(
      req,
      origin(gh),
      repo.releases.map((r) => releaseObject(state, repo, r, urls)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/releases/latest', (req, who) => {
    const repo = repoFor(state, req, who);
    const latest = repo.releases.find((r) => !r.draft && !r.prerelease);
    if (!latest) throw new Reply(ghError(404, 'Not Found'));
    return { body: releaseObject(state, repo, latest, urls) };
  });

  gh.route('GET', '/repos/:owner/:repo/collaborators/:username/permission', (req, who) => {
    const repo = repoFor(state, req, who);
    const user = state.user(req.params.username ?? '');
    if (!user) throw new Reply(ghError(404, 'Not Found'));
    const perm = state.permission(repo, user.login);
    const permission =
      perm === 'admin' ? 'admin' : perm === 'maintain' || perm === 'write' ? 'write' : perm ? 'read' : 'none';
    return {
      body: {
        permission,
        role_name: perm ?? 'none',
        user: {
          ...simpleUser(user, urls),
          role_name: perm ?? 'none',
          permissions: {
            admin: perm === 'admin',
            maintain: perm === 'maintain' || perm === 'admin',
            push: permission === 'admin' || permission === 'write',
            triage: permission !== 'none',
            pull: permission !== 'none',
          },
        },
      },
    };
  });

  gh.route('GET', '/repos/:owner/:repo/commits', (req, who) => {
    const repo = repoFor(state, req, who);
    if (state.isEmpty(repo)) throw new Reply(ghError(409, 'Git Repository is empty.'));
    const from = resolveRef(state, repo, req.query.get('sha') ?? repo.defaultBranch);
    const path = req.query.get('path');
    let history = repo.store.history(from);
    if (path)
      history = history.filter(
        (c) =>
          repo.store.filesOf(c.sha).get(path) !==
          (c.parents[0] ? repo.store.filesOf(c.parents[0]).get(path) : undefined),
      );
    const page = paged(
      req,
      origin(gh),
      history.map((c) => commitObject(state, repo, c, urls)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/commits/:ref', (req, who) => {
    const repo = repoFor(state, req, who);
    const commit = repo.store.commits.get(resolveRef(state, repo, req.params.ref ?? ''));
    if (!commit) throw new Reply(ghError(404, 'Not Found'));
    const before = commit.parents[0] ? repo.store.filesOf(commit.parents[0]) : new Map<string, string>();
    const changes = diffSnapshots(repo.store, before, repo.store.filesOf(commit.sha));
    return { body: commitObject(state, repo, commit, urls, changes) };
  });

  gh.route('GET', '/repos/:owner/:repo/commits/:ref/status', (req: FakeRequest, who) => {
    const repo = repoFor(state, req, who);
    const sha = resolveRef(state, repo, req.params.ref ?? '');
    return { body: combinedStatus(state, repo, sha, urls) };
  });
}
