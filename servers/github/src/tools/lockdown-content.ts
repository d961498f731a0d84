/**
 * --lockdown for content that has no single "body": a pull request's diff, patches and commits,
 * a commit's message and patches, and a file read at a ref. Everything in them was written by
 * whoever authored the change, so each is withheld (the same note bodies get) when that author
 * lacks push access to a public repository (github/github-mcp-server closed the same hole in
 * PR #3109):
 * - a pull request's diff and file patches: the pull request's author;
 * - a commit's message and patches (list_commits, get_commit): the commit's GitHub author;
 * - a file read, or commits listed, at an explicit ref: the author of the pull request for
 *   `refs/pull/N/…`; else the authors of the unmerged pull requests the commit the ref names
 *   belongs to (a fork's head sha, even when its tip commit is credited to a maintainer), then
 *   the commit's own author. Reads of the default branch (no ref) are not looked up.
 * An author GitHub cannot link to a login counts as one without push access (fail closed).
 */
import type { Config } from '../config.js';
import { withheldFor } from './common.js';
import { refSegment } from './refs.js';

/** `refs/pull/12/head`, `pull/12/merge`: GitHub's refs of a pull request's head and merge commit. */
const PULL_REF = /^(?:refs\/)?pull\/(\d+)\/(?:head|merge)$/;

/** The GitHub login of a commit object's author (else its committer), or null. */
export function commitAuthorOf(raw: unknown): string | null {
  const r = raw as { author?: { login?: string } | null; committer?: { login?: string } | null };
  return r.author?.login ?? r.committer?.login ?? null;
}

/** The note shown instead of pull request `pull`'s diff, patches and commits, or undefined. */
export async function withheldForPull(
  config: Config,
  owner: string,
  repo: string,
  pull: number,
  repoPath: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!(await config.lockdown.appliesTo(owner, repo, signal))) return undefined;
  const pr = await config.github.request<{ user?: { login?: string } | null }>({
    path: `${repoPath}/pulls/${pull}`,
    signal,
  });
  return withheldFor(config, owner, repo, pr.data.user?.login ?? null, signal);
}

/**
 * The note shown instead of content read at `ref` of owner/repo, or undefined (no ref, lockdown
 * off, a private repository, or an author with push access). One extra request per read with a
 * ref under --lockdown (the pull request, or the commit the ref names).
 */
export async function withheldAtRef(
  config: Config,
  owner: string,
  repo: string,
  ref: string | undefined,
  repoPath: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!ref || !(await config.lockdown.appliesTo(owner, repo, signal))) return undefined;
  const pull = PULL_REF.exec(ref)?.[1];
  if (pull) return withheldForPull(config, owner, repo, Number(pull), repoPath, signal);
  const commit = await config.github.request<{ sha?: string }>({
    path: `${repoPath}/commits/${refSegment(ref, 'ref')}`,
    signal,
  });
  // A commit's author is whatever its git metadata claims (a cherry-pick keeps a maintainer's
  // name), so the pull requests the commit belongs to decide first: an unmerged one by a user
  // without push access withholds it, whoever the commit is credited to.
  if (commit.data.sha) {
    const pulls = await config.github.request<
      { user?: { login?: string } | null; merged_at?: string | null }[]
    >({
      path: `${repoPath}/commits/${refSegment(commit.data.sha, 'sha')}/pulls`,
      query: { per_page: 100 },
      signal,
    });
    for (const pull of Array.isArray(pulls.data) ? pulls.data : []) {
      if (pull.merged_at) continue;
      const withheld = await withheldFor(config, owner, repo, pull.user?.login ?? null, signal);
      if (withheld) return withheld;
    }
  }
  return withheldFor(config, owner, repo, commitAuthorOf(commit.data), signal);
}
