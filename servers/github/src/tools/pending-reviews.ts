/**
 * Pending reviews (the official server's names): a review created by create_pull_request_review
 * without `event` stays pending, visible only to its author; add_comment_to_pending_review adds a
 * line, range or file comment to it, submit_pending_pull_request_review submits it with a
 * verdict, delete_pending_pull_request_review discards it. REST cannot add a comment to an
 * existing pending review, so these use GraphQL (addPullRequestReviewThread,
 * submitPullRequestReview, deletePullRequestReview), finding the token's own pending review on
 * the pull request first. A comment's path must be among the pull request's files and its line in
 * the diff (suggestions.ts checkPlacement); suggestions are checked against the head like every
 * review comment.
 */
import { count, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { respond } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { repoPath, repoTool, scopeNote } from './common.js';
import { checkPlacement, checkSuggestions, pullFiles } from './suggestions.js';

const PENDING = `query PendingReview($owner: String!, $repo: String!, $number: Int!) {
  viewer { login }
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviews(first: 100, states: [PENDING]) {
        nodes { id databaseId url author { login } comments(first: 1) { totalCount } }
      }
    }
  }
}`;

const ADD_THREAD = `mutation AddThread($review: ID!, $path: String!, $body: String!, $line: Int, $side: DiffSide, $startLine: Int, $startSide: DiffSide, $subjectType: PullRequestReviewThreadSubjectType) {
  addPullRequestReviewThread(input: { pullRequestReviewId: $review, path: $path, body: $body, line: $line, side: $side, startLine: $startLine, startSide: $startSide, subjectType: $subjectType }) {
    thread { id path line startLine diffSide subjectType comments(first: 1) { nodes { databaseId url } } }
  }
}`;

const SUBMIT = `mutation Submit($review: ID!, $event: PullRequestReviewEvent!, $body: String) {
  submitPullRequestReview(input: { pullRequestReviewId: $review, event: $event, body: $body }) {
    pullRequestReview { databaseId state url submittedAt }
  }
}`;

const DELETE = `mutation Delete($review: ID!) {
  deletePullRequestReview(input: { pullRequestReviewId: $review }) {
    pullRequestReview { databaseId state url }
  }
}`;

interface Pending {
  id: string;
  databaseId: number;
  url: string;
  comments: number;
}

const side = z.enum(['LEFT', 'RIGHT']);

export function pendingReviewTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  const target = { owner: arg.owner(), repo: arg.repo(), pull_number: arg.number('') };

  /** The token's own pending review on owner/repo#pull_number; ToolError when it has none. */
  const pendingReview = async (
    owner: string,
    repo: string,
    pull: number,
    signal: AbortSignal,
  ): Promise<Pending> => {
    const data = await config.github.graphql<{
      viewer: { login: string };
      repository: {
        pullRequest: {
          reviews: {
            nodes: {
              id: string;
              databaseId: number;
              url: string;
              author: { login: string } | null;
              comments: { totalCount: number };
            }[];
          };
        };
      };
    }>(PENDING, { owner, repo, number: pull }, signal);
    const me = data.viewer.login.toLowerCase();
    const own = data.repository.pullRequest.reviews.nodes.find((r) => r.author?.login.toLowerCase() === me);
    if (!own)
      throw new ToolError(
        `@${data.viewer.login} has no pending review on ${owner}/${repo}#${pull}: create one with create_pull_request_review without event.`,
      );
    return { id: own.id, databaseId: own.databaseId, url: own.url, comments: own.comments.totalCount };
  };

  const reviewOut = z.object({ id: count(), state: z.string(), url: z.string() });

  return [
    repoTool(config, {
      name: 'add_comment_to_pending_review',
      title: 'Add comment to pending review',
      toolset: 'pull_requests',
      description: `Add a comment on a line, range (start_line…line) or file to your pending review; suggestions checked against the head.${scope}`,
      inputSchema: z
        .strictObject({
          ...target,
          path: arg.repoPath('File path'),
          body: arg.text('Comment text'),
          subject_type: z.enum(['LINE', 'FILE', 'line', 'file']).optional().describe('Default LINE'),
          line: z.number().int().min(1).optional().describe('Line in the file (range end)'),
          side: side.optional().describe('Default RIGHT (new)'),
          start_line: z.number().int().min(1).optional().describe('Range start'),
          start_side: side.optional(),
        })
        .refine((c) => c.subject_type?.toUpperCase() === 'FILE' || c.line !== undefined, {
          message: 'a LINE comment needs line',
        })
        .refine((c) => c.start_line === undefined || (c.line !== undefined && c.start_line < c.line), {
          message: 'start_line needs line and must be less than it',
        }),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        reviewId: count(),
        threadId: z.string(),
        commentId: count().nullable(),
        url: z.string().nullable(),
      }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, pull_number, subject_type, ...c }, { signal }) => {
        const base = repoPath(config, owner, repo);
        const subjectType = subject_type?.toUpperCase() as 'LINE' | 'FILE' | undefined;
        // A suggestion's own check first: its refusal says more than "not in the diff".
        await checkSuggestions(config, base, pull_number, [c], undefined, signal, () => 'The comment');
        const files = await pullFiles(config, base, pull_number, signal);
        checkPlacement(
          files,
          `${owner}/${repo}#${pull_number}`,
          subjectType === 'FILE' ? { path: c.path } : c,
        );
        const review = await pendingReview(owner, repo, pull_number, signal);
        const data = await config.github.graphql<{
          addPullRequestReviewThread: {
            thread: { id: string; comments: { nodes: { databaseId: number; url: string }[] } } | null;
          };
        }>(
          ADD_THREAD,
          {
            review: review.id,
            path: c.path,
            body: c.body,
            line: c.line,
            side: c.side,
            startLine: c.start_line,
            startSide: c.start_side,
            subjectType,
          },
          signal,
        );
        const thread = data.addPullRequestReviewThread.thread;
        if (!thread) throw new ToolError('GitHub added no thread (is the path or line in the diff?).');
        const first = thread.comments.nodes[0];
        const where = `${c.path}${c.line ? `:${c.start_line ? `${c.start_line}-` : ''}${c.line}` : ''}`;
        return respond(
          {
            repository: `${owner}/${repo}`,
            pullNumber: pull_number,
            reviewId: review.databaseId,
            threadId: thread.id,
            commentId: first?.databaseId ?? null,
            url: first?.url ?? null,
          },
          [
            `Added to pending review ${review.databaseId} on ${owner}/${repo}#${pull_number}: ${where} (thread ${thread.id}; ${review.comments + 1} comments pending). Submit with submit_pending_pull_request_review.`,
          ],
        );
      },
    }),

    repoTool(config, {
      name: 'submit_pending_pull_request_review',
      title: 'Submit pending review',
      toolset: 'pull_requests',
      description: `Submit your pending review with a verdict and optional body.${scope}`,
      inputSchema: z.strictObject({
        ...target,
        event: z.enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT']).describe('Review verdict'),
        body: arg.text('Review text').optional(),
      }),
      outputSchema: z.object({ repository: z.string(), pullNumber: count(), review: reviewOut }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, pull_number, event, body }, { signal }) => {
        const pending = await pendingReview(owner, repo, pull_number, signal);
        const data = await config.github.graphql<{
          submitPullRequestReview: { pullRequestReview: { databaseId: number; state: string; url: string } };
        }>(SUBMIT, { review: pending.id, event, body }, signal);
        const r = data.submitPullRequestReview.pullRequestReview;
        return respond(
          {
            repository: `${owner}/${repo}`,
            pullNumber: pull_number,
            review: { id: r.databaseId, state: r.state, url: r.url },
          },
          [
            `Review ${r.databaseId} submitted as ${r.state} on ${owner}/${repo}#${pull_number} with ${pending.comments} comments (${r.url}).`,
          ],
        );
      },
    }),

    repoTool(config, {
      name: 'delete_pending_pull_request_review',
      title: 'Delete pending review',
      toolset: 'pull_requests',
      description: `Discard your pending review and its comments.${scope}`,
      inputSchema: z.strictObject(target),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        review: reviewOut,
        commentsDiscarded: count(),
      }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ owner, repo, pull_number }, { signal }) => {
        const pending = await pendingReview(owner, repo, pull_number, signal);
        const data = await config.github.graphql<{
          deletePullRequestReview: { pullRequestReview: { databaseId: number; state: string; url: string } };
        }>(DELETE, { review: pending.id }, signal);
        const r = data.deletePullRequestReview.pullRequestReview;
        return respond(
          {
            repository: `${owner}/${repo}`,
            pullNumber: pull_number,
            review: { id: r.databaseId, state: r.state, url: r.url },
            commentsDiscarded: pending.comments,
          },
          [
            `Deleted pending review ${r.databaseId} on ${owner}/${repo}#${pull_number} and its ${pending.comments} comments.`,
          ],
        );
      },
    }),
  ];
}
