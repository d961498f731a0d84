// Fake GitHub routes: the contents API (read a file or directory, create/update, delete), with
// GitHub's rules for sha checks, empty repositories and files over 1 MB.
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitHub } from './fake-github.js';
import { ghError, invalid, jsonBody, Reply, repoFor, wantsMedia } from './http.js';
import { contentFile, contentItem, fileCommit } from './objects-git.js';
import type { GitHubState, RepoRecord } from './state.js';

/** Files larger than this come back without content unless the raw media type is asked for. */
export const CONTENTS_INLINE_LIMIT = 1024 * 1024;

/**
 * The commit a contents `ref` names: a branch, a tag, a sha or a 7+ character prefix of one, or a
 * pull request's `refs/pull/N/head` (its head; `…/merge` is answered with the head too); 404 else.
 */
function refSha(state: GitHubState, repo: RepoRecord, ref: string): string {
  const pull = /^(?:refs\/)?pull\/(\d+)\/(?:head|merge)$/.exec(ref)?.[1];
  const issue = pull ? repo.issues.find((i) => i.number === Number(pull) && i.pull) : undefined;
  if (issue) return state.headSha(repo, issue);
  const name = ref.replace(/^refs\/(heads|tags)\//, '');
  let sha = repo.branches.get(name) ?? repo.tags.get(name) ?? (repo.store.commits.has(ref) ? ref : undefined);
  if (!sha && /^[0-9a-f]{7,40}$/.test(ref))
    sha = [...repo.store.commits.keys()].find((candidate) => candidate.startsWith(ref));
  if (!sha) throw new Reply(ghError(404, `No commit found for the ref ${ref}`));
  return sha;
}

function read(gh: FakeGitHub, req: FakeRequest, who: string | undefined) {
  const { state, urls } = gh;
  const repo = repoFor(state, req, who);
  if (state.isEmpty(repo)) throw new Reply(ghError(404, 'This repository is empty.'));
  const ref = req.query.get('ref') ?? repo.defaultBranch;
  const files = repo.store.filesOf(refSha(state, repo, ref));
  const path = (req.params.path ?? '').replace(/\/+$/, '');
  const blobSha = files.get(path);
  if (blobSha !== undefined) {
    const blob = repo.store.blobs.get(blobSha) ?? Buffer.alloc(0);
    if (wantsMedia(req, 'raw'))
      return { raw: new Uint8Array(blob), headers: { 'content-type': 'application/vnd.github.raw' } };
    return { body: contentFile(repo, path, blobSha, ref, urls, blob.length > CONTENTS_INLINE_LIMIT) };
  }
  const prefix = path ? `${path}/` : '';
  const entries = new Map<string, { type: 'file' | 'dir'; sha: string }>();
  for (const [p, sha] of files) {
    if (!p.startsWith(prefix)) continue;
    const [name, ...rest] = p.slice(prefix.length).split('/');
    if (!name) continue;
    const child = `${prefix}${name}`;
    entries.set(
      child,
      rest.length ? { type: 'dir', sha: treeShaOf(repo, files, child) } : { type: 'file', sha },
    );
  }
  if (entries.size === 0) throw new Reply(ghError(404, 'Not Found'));
  const items = [...entries]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([p, e]) => contentItem(repo, p, e.sha, e.type, ref, urls));
  return { body: items };
}

function treeShaOf(repo: RepoRecord, files: Map<string, string>, dir: string): string {
  const sub = new Map<string, string>();
  for (const [p, sha] of files) if (p.startsWith(`${dir}/`)) sub.set(p.slice(dir.length + 1), sha);
  return repo.store.writeTree(sub);
}

export function registerContentsRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;

  gh.route('GET', '/repos/:owner/:repo/contents/*path', (req, who) => read(gh, req, who));

  gh.route('PUT', '/repos/:owner/:repo/contents/*path', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const body = jsonBody<{ message?: string; content?: string; sha?: string; branch?: string }>(req);
    const path = req.params.path ?? '';
    if (!path) throw invalid('Content', 'path');
    if (!body.message) throw invalid('Content', 'message');
    if (typeof body.content !== 'string') throw invalid('Content', 'content');
    if (!/^[A-Za-z0-9+/=\s]*$/.test(body.content))
      throw invalid('Content', 'content', 'invalid', 'content is not valid Base64');
    const branch = body.branch ?? repo.defaultBranch;
    let existing: string | undefined;
    if (!state.isEmpty(repo)) {
      const head = repo.branches.get(branch);
      if (!head) throw new Reply(ghError(404, `Branch ${branch} not found`));
      existing = repo.store.filesOf(head).get(path);
    }
    if (existing && !body.sha) throw new Reply(ghError(422, 'Invalid request.\n\n"sha" wasn\'t supplied.'));
    if (existing && body.sha !== existing)
      throw new Reply(ghError(409, `${path} does not match ${body.sha}`));
    const commit = state.commit(
      repo,
      branch,
      { [path]: Buffer.from(body.content, 'base64') },
      body.message,
      who ?? repo.owner,
    );
    const blob = repo.store.filesOf(commit.sha).get(path) ?? null;
    return { status: existing ? 200 : 201, body: fileCommit(repo, path, blob, commit, urls) };
  });

  gh.route('DELETE', '/repos/:owner/:repo/contents/*path', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const body = jsonBody<{ message?: string; sha?: string; branch?: string }>(req);
    const path = req.params.path ?? '';
    if (!body.message) throw invalid('Content', 'message');
    if (!body.sha) throw invalid('Content', 'sha');
    const branch = body.branch ?? repo.defaultBranch;
    const head = repo.branches.get(branch);
    if (!head) throw new Reply(ghError(404, `Branch ${branch} not found`));
    const existing = repo.store.filesOf(head).get(path);
    if (!existing) throw new Reply(ghError(404, 'Not Found'));
    if (existing !== body.sha) throw new Reply(ghError(409, `${path} does not match ${body.sha}`));
    const commit = state.commit(repo, branch, { [path]: null }, body.message, who ?? repo.owner);
    return { body: fileCommit(repo, null, null, commit, urls) };
  });
}
