// Fake GitHub routes: pull requests (list, create, get — JSON or diff —, update, merge, update
// branch), their files, review comments and reviews.

import type { FakeGitHub } from './fake-github.js';
import { unifiedDiff } from './git.js';
import { ghError, invalid, jsonBody, paged, Reply, repoFor, wantsMedia } from './http.js';
import { diffEntry } from './objects-git.js';
import { pullChanges, pullObject, reviewCommentObject, reviewObject } from './objects-issues.js';
import { issueFor } from './routes-issues.js';
import { resolveRef } from './routes-repos.js';
import type { IssueRecord, RepoRecord } from './state.js';

function pullFor(
  repo: RepoRecord,
  req: Parameters<typeof issueFor>[1],
): IssueRecord & { pull: NonNullable<IssueRecord['pull']> } {
  const issue = issueFor(repo, req, 'pull_number');
  if (!issue.pull) throw new Reply(ghError(404, 'Not Found'));
  return issue as IssueRecord & { pull: NonNullable<IssueRecord['pull']> };
}

/** Ids of the pending reviews `who` may not see: GitHub shows a pending review (and its comments) only to its author. */
function hiddenReviews(issue: IssueRecord, who: string | undefined): Set<number> {
  return new Set(
    (issue.pull?.reviews ?? []).filter((r) => r.state === 'PENDING' && r.user !== who).map((r) => r.id),
  );
}

export function registerPullRoutes(gh: FakeGitHub): void {
  const { state, urls } = gh;
  const origin = new URL(gh.url).origin;

  gh.route('GET', '/repos/:owner/:repo/pulls', (req, who) => {
    const repo = repoFor(state, req, who);
    const q = req.query;
    const wanted = q.get('state') ?? 'open';
    const head = q.get('head');
    const base = q.get('base');
    const dir = q.get('direction') ?? (q.get('sort') === 'long-running' ? 'asc' : 'desc');
    const list = repo.issues
      .filter((i) => i.pull && (wanted === 'all' || i.state === wanted))
      .filter((i) => !head || `${repo.owner}:${i.pull?.head}` === head || i.pull?.head === head)
      .filter((i) => !base || i.pull?.base === base)
      .sort((a, b) => (a.number - b.number) * (dir === 'asc' ? 1 : -1));
    const page = paged(
      req,
      origin,
      list.map((i) => pullObject(state, repo, i, urls, false)),
    );
    return { body: page.items, headers: page.headers };
  });

  // "List pull requests associated with a commit": the pull requests whose commits (first-parent
  // history of the head, down to where it meets the base branch) include the commit, or whose
  // merge commit it is.
  gh.route('GET', '/repos/:owner/:repo/commits/:ref/pulls', (req, who) => {
    const repo = repoFor(state, req, who);
    const sha = resolveRef(state, repo, req.params.ref ?? '');
    if (!repo.store.commits.has(sha))
      throw new Reply(ghError(422, `No commit found for SHA: ${req.params.ref}`));
    const list = repo.issues.filter((i) => {
      if (!i.pull) return false;
      if (i.pull.mergeCommitSha === sha) return true;
      const base = new Set(repo.store.history(repo.branches.get(i.pull.base) ?? '').map((c) => c.sha));
      const own = repo.store.history(state.headSha(repo, i)).filter((c) => !base.has(c.sha));
      return own.some((c) => c.sha === sha);
    });
    const page = paged(
      req,
      origin,
      list.map((i) => pullObject(state, repo, i, urls, false)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('POST', '/repos/:owner/:repo/pulls', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const body = jsonBody<{
      title?: string;
      head?: string;
      base?: string;
      body?: string;
      draft?: boolean;
      maintainer_can_modify?: boolean;
    }>(req);
    if (!body.title) throw invalid('PullRequest', 'title');
    if (!body.head) throw invalid('PullRequest', 'head');
    if (!body.base) throw invalid('PullRequest', 'base');
    const head = body.head.replace(/^[^:]+:/, '');
    if (!repo.branches.has(head)) throw invalid('PullRequest', 'head', 'invalid');
    if (!repo.branches.has(body.base)) throw invalid('PullRequest', 'base', 'invalid');
    if (repo.branches.get(head) === repo.branches.get(body.base))
      throw new Reply(
        ghError(422, 'Validation Failed', {
          errors: [
            {
              resource: 'PullRequest',
              code: 'custom',
              message: `No commits between ${body.base} and ${head}`,
            },
          ],
        }),
      );
    if (repo.issues.some((i) => i.state === 'open' && i.pull?.head === head && i.pull.base === body.base))
      throw new Reply(
        ghError(422, 'Validation Failed', {
          errors: [
            {
              resource: 'PullRequest',
              code: 'custom',
              message: `A pull request already exists for ${repo.owner}:${head}.`,
            },
          ],
        }),
      );
    const issue = state.addPull(repo, {
      title: body.title,
      body: body.body ?? null,
      user: who ?? repo.owner,
      head,
      base: body.base,
      draft: body.draft ?? false,
    });
    if (issue.pull && body.maintainer_can_modify === false) issue.pull.maintainerCanModify = false;
    return { status: 201, body: pullObject(state, repo, issue, urls, true) };
  });

  gh.route('GET', '/repos/:owner/:repo/pulls/:pull_number', (req, who) => {
    const repo = repoFor(state, req, who);
    const issue = pullFor(repo, req);
    if (wantsMedia(req, 'diff'))
      return {
        raw: unifiedDiff(pullChanges(state, repo, issue)),
        headers: { 'content-type': 'application/vnd.github.diff; charset=utf-8' },
      };
    return { body: pullObject(state, repo, issue, urls, true) };
  });

  gh.route('PATCH', '/repos/:owner/:repo/pulls/:pull_number', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const issue = pullFor(repo, req);
    const body = jsonBody<{
      title?: string;
      body?: string;
      state?: string;
      base?: string;
      maintainer_can_modify?: boolean;
    }>(req);
    if (body.base !== undefined) {
      if (!repo.branches.has(body.base)) throw invalid('PullRequest', 'base', 'invalid');
      issue.pull.base = body.base;
    }
    if (typeof body.title === 'string') issue.title = body.title;
    if (typeof body.body === 'string') issue.body = body.body;
    if (body.state === 'open' || body.state === 'closed') {
      if (issue.pull.merged)
        throw new Reply(
          ghError(422, 'Validation Failed', {
            errors: [
              {
                resource: 'PullRequest',
                code: 'custom',
                message: 'Cannot change the state of a merged pull request',
              },
            ],
          }),
        );
      issue.closedAt = body.state === 'closed' ? state.now() : null;
      issue.state = body.state;
    }
    if (typeof body.maintainer_can_modify === 'boolean')
      issue.pull.maintainerCanModify = body.maintainer_can_modify;
    issue.updatedAt = state.now();
    return { body: pullObject(state, repo, issue, urls, true) };
  });

  gh.route('PUT', '/repos/:owner/:repo/pulls/:pull_number/merge', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const issue = pullFor(repo, req);
    const body = jsonBody<{
      commit_title?: string;
      commit_message?: string;
      sha?: string;
      merge_method?: string;
    }>(req);
    if (issue.state !== 'open' || issue.pull.merged)
      throw new Reply(ghError(405, 'Pull Request is not mergeable'));
    const head = state.headSha(repo, issue);
    if (body.sha && body.sha !== head)
      throw new Reply(ghError(409, 'Head branch was modified. Review and try the merge again.'));
    const base = repo.branches.get(issue.pull.base);
    const headCommit = repo.store.commits.get(head);
    if (!base || !headCommit) throw new Reply(ghError(405, 'Pull Request is not mergeable'));
    const user = state.addUser(who ?? repo.owner);
    const date = state.now();
    const sig = { name: user.name ?? user.login, email: user.email ?? `${user.login}@example.com`, date };
    const message = `${body.commit_title ?? `Merge pull request #${issue.number}`}\n\n${body.commit_message ?? issue.title}`;
    const merge = repo.store.writeCommit({
      tree: headCommit.tree,
      parents: body.merge_method === 'squash' || body.merge_method === 'rebase' ? [base] : [base, head],
      message,
      author: sig,
      committer: sig,
      login: user.login,
    });
    repo.branches.set(issue.pull.base, merge.sha);
    Object.assign(issue.pull, {
      merged: true,
      mergedAt: date,
      mergedBy: user.login,
      mergeCommitSha: merge.sha,
      headSha: head,
    });
    issue.state = 'closed';
    issue.closedAt = date;
    return { body: { sha: merge.sha, merged: true, message: 'Pull Request successfully merged' } };
  });

  gh.route('PUT', '/repos/:owner/:repo/pulls/:pull_number/update-branch', (req, who) => {
    const repo = repoFor(state, req, who, 'push');
    const issue = pullFor(repo, req);
    const body = jsonBody<{ expected_head_sha?: string }>(req);
    const head = state.headSha(repo, issue);
    if (body.expected_head_sha && body.expected_head_sha !== head)
      throw new Reply(ghError(422, 'expected_head_sha does not match the pull request head'));
    const base = repo.branches.get(issue.pull.base);
    if (!base || repo.store.history(head).some((c) => c.sha === base))
      throw new Reply(ghError(422, 'There are no new commits on the base branch.'));
    const files = repo.store.filesOf(head);
    for (const [p, s] of repo.store.filesOf(base)) if (!files.has(p)) files.set(p, s);
    const user = state.addUser(who ?? repo.owner);
    const sig = {
      name: user.name ?? user.login,
      email: user.email ?? `${user.login}@example.com`,
      date: state.now(),
    };
    const merge = repo.store.writeCommit({
      tree: repo.store.writeTree(files),
      parents: [head, base],
      message: `Merge branch '${issue.pull.base}' into ${issue.pull.head}`,
      author: sig,
      committer: sig,
      login: user.login,
    });
    repo.branches.set(issue.pull.head, merge.sha);
    return {
      status: 202,
      body: {
        message: 'Updating pull request branch.',
        url: `${gh.url}/repos/${repo.owner}/${repo.name}/pulls/${issue.number}`,
      },
    };
  });

  gh.route('GET', '/repos/:owner/:repo/pulls/:pull_number/files', (req, who) => {
    const repo = repoFor(state, req, who);
    const issue = pullFor(repo, req);
    const head = state.headSha(repo, issue);
    const page = paged(
      req,
      origin,
      pullChanges(state, repo, issue).map((f) => diffEntry(repo, f, head, urls)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('GET', '/repos/:owner/:repo/pulls/:pull_number/comments', (req, who) => {
    const repo = repoFor(state, req, who);
    const issue = pullFor(repo, req);
    const hidden = hiddenReviews(issue, who);
    const page = paged(
      req,
      origin,
      issue.pull.reviewComments
        .filter((c) => c.reviewId === null || !hidden.has(c.reviewId))
        .map((c) => reviewCommentObject(state, repo, issue, c, urls)),
    );
    return { body: page.items, headers: page.headers };
  });

  // A reply joins the thread of the comment it answers (GitHub threads replies under the first
  // comment: "replies to replies are not supported", so a reply's id stands for its thread here).
  gh.route('POST', '/repos/:owner/:repo/pulls/:pull_number/comments/:comment_id/replies', (req, who) => {
    const repo = repoFor(state, req, who);
    if (!who) throw new Reply(ghError(401, 'Requires authentication'));
    const issue = pullFor(repo, req);
    const target = issue.pull.reviewComments.find((c) => c.id === Number(req.params.comment_id));
    if (!target) throw new Reply(ghError(404, 'Not Found'));
    const text = jsonBody<{ body?: string }>(req).body;
    if (!text) throw invalid('PullRequestReviewComment', 'body');
    const reply = state.addReviewComment(repo, issue, {
      user: who,
      body: text,
      path: target.path,
      line: target.line,
      inReplyTo: target.inReplyTo ?? target.id,
    });
    return { status: 201, body: reviewCommentObject(state, repo, issue, reply, urls) };
  });

  gh.route('GET', '/repos/:owner/:repo/pulls/:pull_number/reviews', (req, who) => {
    const repo = repoFor(state, req, who);
    const issue = pullFor(repo, req);
    const hidden = hiddenReviews(issue, who);
    const page = paged(
      req,
      origin,
      issue.pull.reviews
        .filter((r) => !hidden.has(r.id))
        .map((r) => reviewObject(state, repo, issue, r, urls)),
    );
    return { body: page.items, headers: page.headers };
  });

  gh.route('POST', '/repos/:owner/:repo/pulls/:pull_number/reviews', (req, who) => {
    const repo = repoFor(state, req, who);
    if (!who) throw new Reply(ghError(401, 'Requires authentication'));
    const issue = pullFor(repo, req);
    const body = jsonBody<{
      body?: string;
      event?: string;
      commit_id?: string;
      comments?: {
        path?: string;
        body?: string;
        line?: number;
        position?: number;
        side?: 'LEFT' | 'RIGHT';
        start_line?: number;
        start_side?: 'LEFT' | 'RIGHT';
      }[];
    }>(req);
    const event = body.event ?? 'PENDING';
    if (event === 'PENDING' && issue.pull.reviews.some((r) => r.state === 'PENDING' && r.user === who))
      throw new Reply(
        ghError(422, 'Unprocessable Entity', {
          errors: ['User can only have one pending review per pull request'],
        }),
      );
    if (!['APPROVE', 'REQUEST_CHANGES', 'COMMENT', 'PENDING'].includes(event))
      throw invalid('PullRequestReview', 'event', 'invalid');
    if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && !body.body && !body.comments?.length)
      throw new Reply(
        ghError(422, 'Unprocessable Entity', { errors: [`Review body is required for ${event}`] }),
      );
    if (event === 'APPROVE' && issue.user === who)
      throw new Reply(
        ghError(422, 'Unprocessable Entity', { errors: ['Can not approve your own pull request'] }),
      );
    const states = {
      APPROVE: 'APPROVED',
      REQUEST_CHANGES: 'CHANGES_REQUESTED',
      COMMENT: 'COMMENTED',
      PENDING: 'PENDING',
    } as const;
    const review = state.addReview(repo, issue, {
      user: who,
      body: body.body ?? '',
      state: states[event as keyof typeof states],
    });
    for (const c of body.comments ?? []) {
      if (!c.path || !c.body) throw invalid('PullRequestReviewComment', c.path ? 'body' : 'path');
      state.addReviewComment(repo, issue, {
        user: who,
        body: c.body,
        path: c.path,
        line: c.line ?? c.position ?? 1,
        reviewId: review.id,
        ...(c.side ? { side: c.side } : {}),
        ...(c.start_line ? { startLine: c.start_line } : {}),
        ...(c.start_side ? { startSide: c.start_side } : {}),
      });
    }
    return { body: reviewObject(state, repo, issue, review, urls) };
  });
}
