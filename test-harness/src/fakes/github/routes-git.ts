// Fake GitHub routes: the Git Data API (refs, trees, commits), with GitHub's 409 for an empty
// repository and 422 for a non-fast-forward update.

import type { FakeGitHub } from './fake-github.js';
import { ghError, invalid, jsonBody, Reply, repoFor } from './http.js';
import { gitCommitObject, gitRefObject, gitTreeObject } from './objects-git.js';
import type { RepoRecord } from './state.js';

const emptyRepo = () => new Reply(ghError(409, 'Git Repository is empty.'));

function branchOf(ref: string): string | undefined {
  return /^(?:refs\/)?heads\/(.+)$/.exec(ref)?.[1];
}

function isAncestor(repo: RepoRecord, ancestor: string, of: string): boolean {
  const seen = new Set<string>();
  const stack = [of];
  while (stack.length) {
    const sha = stack.pop() as string;
    if (sha === ancestor) return true;
    if (seen.has(sha)) continue;
    seen.add(sha);
    stack.push(...(repo.store.commits.get(sha)?.parents ?? []));
  }
  return false;
}

export function registerGitRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;

  gh.route('GET', '/repos/:owner/:repo/git/ref/*ref', (req, who) => {
    const repo = repoFor(state, req, who);
    if (state.isEmpty(repo)) throw emptyRepo();
    const ref = req.params.ref ?? '';
    const branch = branchOf(ref);
    const tag = /^tags\/(.+)$/.exec(ref)?.[1];
    const sha = branch ? repo.branches.get(branch) : tag ? repo.tags.get(tag) : undefined;
    if (!sha) throw new Reply(ghError(404, 'Not Found'));
    return { body: gitRefObject(repo, `refs/${ref}`, sha, urls) };
  });

  gh.route('POST', '/repos/:owner/:repo/git/refs', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    if (state.isEmpty(repo)) throw emptyRepo();
    const body = jsonBody<{ ref?: string; sha?: string }>(req);
    if (!body.ref) throw invalid('Reference', 'ref');
    if (!body.sha) throw invalid('Reference', 'sha');
    if (!/^refs\/[^/]+\/.+/.test(body.ref))
      throw new Reply(ghError(422, 'Reference name must start with refs/ and have at least two slashes.'));
    if (!repo.store.commits.has(body.sha)) throw new Reply(ghError(422, 'Object does not exist'));
    const branch = branchOf(body.ref);
    if (!branch) throw new Reply(ghError(422, 'Only branch references are supported by this fake'));
    if (repo.branches.has(branch)) throw new Reply(ghError(422, 'Reference already exists'));
    repo.branches.set(branch, body.sha);
    return { status: 201, body: gitRefObject(repo, body.ref, body.sha, urls) };
  });

  gh.route('PATCH', '/repos/:owner/:repo/git/refs/*ref', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    if (state.isEmpty(repo)) throw emptyRepo();
    const body = jsonBody<{ sha?: string; force?: boolean }>(req);
    const branch = branchOf(req.params.ref ?? '');
    const current = branch ? repo.branches.get(branch) : undefined;
    if (!branch || !current) throw new Reply(ghError(422, 'Reference does not exist'));
    if (!body.sha) throw invalid('Reference', 'sha');
    if (!repo.store.commits.has(body.sha)) throw new Reply(ghError(422, 'Object does not exist'));
    if (!body.force && !isAncestor(repo, current, body.sha))
      throw new Reply(ghError(422, 'Update is not a fast forward'));
    repo.branches.set(branch, body.sha);
    repo.pushedAt = state.now();
    return { body: gitRefObject(repo, `refs/heads/${branch}`, body.sha, urls) };
  });

  gh.route('POST', '/repos/:owner/:repo/git/trees', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    if (state.isEmpty(repo)) throw emptyRepo();
    const body = jsonBody<{
      base_tree?: string;
      tree?: { path?: string; mode?: string; type?: string; sha?: string | null; content?: string }[];
    }>(req);
    if (!Array.isArray(body.tree)) throw invalid('Tree', 'tree');
    let files = new Map<string, string>();
    if (body.base_tree) {
      if (!repo.store.trees.has(body.base_tree))
        throw new Reply(ghError(422, 'base_tree is not a valid tree'));
      files = repo.store.readTree(body.base_tree);
    }
    for (const entry of body.tree) {
      if (!entry.path) throw invalid('Tree', 'path');
      if (entry.sha === null) files.delete(entry.path);
      else if (typeof entry.content === 'string') files.set(entry.path, repo.store.writeBlob(entry.content));
      else if (entry.sha && repo.store.blobs.has(entry.sha)) files.set(entry.path, entry.sha);
      else throw new Reply(ghError(422, `tree.sha ${entry.sha} is not a valid blob`));
    }
    const sha = repo.store.writeTree(files);
    const top = repo.store.trees.get(sha) ?? [];
    const entries = top.map((e) => ({
      path: e.name,
      mode: e.mode,
      type: e.type,
      sha: e.sha,
      size: repo.store.blobs.get(e.sha)?.length ?? 0,
    }));
    return { status: 201, body: gitTreeObject(repo, sha, entries, urls, false) };
  });

  gh.route('GET', '/repos/:owner/:repo/git/trees/:tree_sha', (req, who) => {
    const repo = repoFor(state, req, who);
    if (state.isEmpty(repo)) throw emptyRepo();
    const given = req.params.tree_sha ?? '';
    const commitSha =
      repo.branches.get(given) ?? repo.tags.get(given) ?? (repo.store.commits.has(given) ? given : undefined);
    const sha = commitSha ? (repo.store.commits.get(commitSha)?.tree ?? '') : given;
    if (!repo.store.trees.has(sha)) throw new Reply(ghError(404, 'Not Found'));
    const recursive = req.query.has('recursive');
    const entries: { path: string; mode: string; type: 'blob' | 'tree'; sha: string; size?: number }[] = [];
    const walk = (treeSha: string, prefix: string) => {
      for (const e of repo.store.trees.get(treeSha) ?? []) {
        const path = `${prefix}${e.name}`;
        entries.push({
          path,
          mode: e.mode,
          type: e.type,
          sha: e.sha,
          size: repo.store.blobs.get(e.sha)?.length ?? 0,
        });
        if (recursive && e.type === 'tree') walk(e.sha, `${path}/`);
      }
    };
    walk(sha, '');
    return { body: gitTreeObject(repo, sha, entries, urls, false) };
  });

  gh.route('GET', '/repos/:owner/:repo/git/commits/:commit_sha', (req, who) => {
    const repo = repoFor(state, req, who);
    const commit = repo.store.commits.get(req.params.commit_sha ?? '');
    if (!commit) throw new Reply(ghError(404, 'Not Found'));
    return { body: gitCommitObject(repo, commit, urls) };
  });

  gh.route('POST', '/repos/:owner/:repo/git/commits', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    if (state.isEmpty(repo)) throw emptyRepo();
    const body = jsonBody<{ message?: string; tree?: string; parents?: string[] }>(req);
    if (!body.message) throw invalid('Commit', 'message');
    if (!body.tree || !repo.store.trees.has(body.tree))
      throw new Reply(ghError(422, 'Tree SHA does not exist'));
    for (const p of body.parents ?? [])
      if (!repo.store.commits.has(p))
        throw new Reply(ghError(422, 'Parent SHA does not exist or is not a commit object'));
    const user = state.addUser(who ?? repo.owner);
    const date = state.now();
    const signature = {
      name: user.name ?? user.login,
      email: user.email ?? `${user.login}@example.com`,
      date,
    };
    const commit = repo.store.writeCommit({
      tree: body.tree,
      parents: body.parents ?? [],
      message: body.message,
      author: signature,
      committer: signature,
      login: user.login,
    });
    return { status: 201, body: gitCommitObject(repo, commit, urls) };
  });
}
