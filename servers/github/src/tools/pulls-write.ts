/**
 * The pull_requests toolset, writing: create, update, merge, review and update the branch.
 * Reference names and arguments kept (create_pull_request, create_pull_request_review,
 * merge_pull_request, update_pull_request_branch); plus update_pull_request.
 */
import { count, HttpError, OPEN_WORLD_HINTS } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import {
  pullShape,
  renderPull,
  reviewCommentShape,
  reviewShape,
  toPull,
  toReview,
  toReviewComment,
} from '../format/pulls.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { repoPath, repoTool, scopeNote } from './common.js';
import { checkSuggestions } from './suggestions.js';

export function pullWriteTools(config: Config): GitHubTool[] {
  const { budgets } = config;
  const scope = scopeNote(config);
  const target = { owner: arg.owner(), repo: arg.repo(), pull_number: arg.number('') };
  const pullResult = (raw: unknown, owner: string, repo: string, verb: string) => {
    const text = new UntrustedText();
    const pullRequest = toPull(raw, text, budgets.bodyBytes);
    return respond(
      { repository: `${owner}/${repo}`, pullRequest },
      [verb, renderPull(pullRequest, `${owner}/${repo}`)],
      text,
    );
  };
  const pullOutput = z.object({ repository: z.string(), pullRequest: pullShape, ...neutralizedField });

  return [
    repoTool(config, {
      name: 'add_reply_to_pull_request_comment',
      title: 'Reply in a review thread',
      toolset: 'pull_requests',
      description: `Reply in the review thread of a pull request review comment (comment_id from get_pull_request_comments).${scope}`,
      inputSchema: z.strictObject({
        ...target,
        comment_id: arg.number('Review comment id (any comment of the thread)'),
        body: arg.text('Markdown'),
      }),
      outputSchema: z.object({ repository: z.string(), comment: reviewCommentShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, pull_number, comment_id, body }, { signal }) => {
        const res = await config.github.request({
          method: 'POST',
          path: `${repoPath(config, owner, repo)}/pulls/${pull_number}/comments/${comment_id}/replies`,
          body: { body },
          signal,
        });
        const text = new UntrustedText();
        const comment = toReviewComment(res.data, text, budgets.bodyBytes);
        return respond(
          { repository: `${owner}/${repo}`, comment },
          [
            `Replied in the thread of comment ${comment.inReplyTo ?? comment_id} on ${comment.path}${comment.line ? `:${comment.line}` : ''}: comment ${comment.id} — ${comment.url}`,
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'create_pull_request',
      title: 'Create pull request',
      toolset: 'pull_requests',
      description: `Open a pull request from head into base. head may be "branch" or "user:branch" for a fork.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        title: arg.text('Pull request title', 1024),
        body: arg.text('Markdown').optional(),
        head: safeString({ min: 1, max: 300 }).describe('Branch with the changes'),
        base: arg.branch('Branch to merge into'),
        draft: z.boolean().optional().describe('Open as a draft'),
        maintainer_can_modify: z.boolean().optional().describe('Maintainers may push to head'),
      }),
      outputSchema: pullOutput,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, ...fields }, { signal }) => {
        const res = await config.github.request({
          method: 'POST',
          path: `${repoPath(config, owner, repo)}/pulls`,
          body: fields,
          signal,
        });
        return pullResult(res.data, owner, repo, 'Created:');
      },
    }),

    repoTool(config, {
      name: 'update_pull_request',
      title: 'Update pull request',
      toolset: 'pull_requests',
      description: `Update a pull request's title, body, state (open/closed), base branch or maintainer_can_modify.${scope}`,
      inputSchema: z.strictObject({
        ...target,
        title: arg.text('', 1024).optional(),
        body: arg.text('Markdown').optional(),
        state: z.enum(['open', 'closed']).optional(),
        base: arg.branch('New base branch').optional(),
        maintainer_can_modify: z.boolean().optional().describe('Maintainers may push to head'),
      }),
      outputSchema: pullOutput,
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ owner, repo, pull_number, ...fields }, { signal }) => {
        const res = await config.github.request({
          method: 'PATCH',
          path: `${repoPath(config, owner, repo)}/pulls/${pull_number}`,
          body: fields,
          signal,
        });
        return pullResult(res.data, owner, repo, 'Updated:');
      },
    }),

    repoTool(config, {
      name: 'merge_pull_request',
      title: 'Merge pull request',
      toolset: 'pull_requests',
      description: `Merge a pull request (merge, squash or rebase). Pass sha (the head sha you reviewed) to merge only if the head has not moved.${scope}`,
      inputSchema: z.strictObject({
        ...target,
        commit_title: arg.text('Title for the automatic commit message', 1024).optional(),
        commit_message: arg.text('Extra detail to append to automatic commit message').optional(),
        merge_method: z
          .enum(['merge', 'squash', 'rebase'])
          .optional()
          .describe('Merge method to use (default merge)'),
        sha: arg.sha('Head sha that must still be current').optional(),
      }),
      confirm: (a) =>
        `Merge pull request #${a.pull_number} of ${a.owner}/${a.repo} (${a.merge_method ?? 'merge'})?`,
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        merged: z.boolean(),
        sha: z.string(),
        message: z.string(),
      }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ owner, repo, pull_number, ...fields }, { signal }) => {
        const res = await config.github.request<{ merged: boolean; sha: string; message: string }>({
          method: 'PUT',
          path: `${repoPath(config, owner, repo)}/pulls/${pull_number}/merge`,
          body: fields,
          signal,
        });
        return respond(
          {
            repository: `${owner}/${repo}`,
            pullNumber: pull_number,
            merged: res.data.merged,
            sha: res.data.sha,
            message: res.data.message,
          },
          [`${owner}/${repo}#${pull_number}: ${res.data.message} (merge commit ${res.data.sha}).`],
        );
      },
    }),

    repoTool(config, {
      name: 'create_pull_request_review',
      title: 'Create pull request review',
      toolset: 'pull_requests',
      description: `Review a PR: verdict, body, comments on a line or range (either side); suggestions checked against the head. Without event it stays pending (add_comment_to_pending_review).${scope}`,
      inputSchema: z.strictObject({
        ...target,
        commit_id: arg.sha('Commit to review (default: the head)').optional(),
        body: arg.text('Review text').optional(),
        event: z
          .enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT'])
          .optional()
          .describe('Review verdict; omit for a pending review'),
        comments: z
          .array(
            z
              .strictObject({
                path: arg.repoPath('File path'),
                position: z.number().int().min(1).optional().describe('Position in the diff'),
                line: z.number().int().min(1).optional().describe('Line in the file (range end)'),
                side: z.enum(['LEFT', 'RIGHT']).optional().describe('Default RIGHT (new)'),
                start_line: z.number().int().min(1).optional().describe('Range start'),
                start_side: z.enum(['LEFT', 'RIGHT']).optional(),
                body: arg.text('Comment text'),
              })
              .refine((c) => (c.position === undefined) !== (c.line === undefined), {
                message: 'give either position or line, not both and not neither',
              })
              .refine((c) => c.start_line === undefined || (c.line !== undefined && c.start_line < c.line), {
                message: 'start_line needs line and must be less than it',
              }),
          )
          .max(100)
          .optional()
          .describe('Line comments: position (in the diff) or line'),
      }),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        review: reviewShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, pull_number, ...fields }, { signal }) => {
        const base = repoPath(config, owner, repo);
        await checkSuggestions(config, base, pull_number, fields.comments ?? [], fields.commit_id, signal);
        const res = await config.github
          .request({ method: 'POST', path: `${base}/pulls/${pull_number}/reviews`, body: fields, signal })
          .catch((error: unknown) => {
            if (
              error instanceof HttpError &&
              error.status === 422 &&
              /one pending review/i.test(error.message)
            )
              throw new HttpError(
                `${error.message} You already have a pending review on ${owner}/${repo}#${pull_number}: submit it with submit_pending_pull_request_review or delete it with delete_pending_pull_request_review.`,
                error.status,
                error.retryAt,
                error.reason,
              );
            throw error;
          });
        const text = new UntrustedText();
        const review = toReview(res.data, text, budgets.bodyBytes);
        return respond(
          { repository: `${owner}/${repo}`, pullNumber: pull_number, review },
          [
            review.state === 'PENDING'
              ? `Pending review ${review.id} created on ${owner}/${repo}#${pull_number}: add comments with add_comment_to_pending_review, then submit_pending_pull_request_review.`
              : `Review ${review.state} submitted on ${owner}/${repo}#${pull_number} (${review.url}).`,
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'update_pull_request_branch',
      title: 'Update pull request branch',
      toolset: 'pull_requests',
      description: `Merge the latest base branch into a pull request's head branch (GitHub does it asynchronously). Pass expected_head_sha to refuse if the head moved.${scope}`,
      inputSchema: z.strictObject({
        ...target,
        expected_head_sha: arg.sha('Head sha that must still be current').optional(),
      }),
      outputSchema: z.object({ repository: z.string(), pullNumber: count(), message: z.string() }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ owner, repo, pull_number, expected_head_sha }, { signal }) => {
        const res = await config.github.request<{ message: string }>({
          method: 'PUT',
          path: `${repoPath(config, owner, repo)}/pulls/${pull_number}/update-branch`,
          body: expected_head_sha ? { expected_head_sha } : {},
          signal,
        });
        return respond(
          { repository: `${owner}/${repo}`, pullNumber: pull_number, message: res.data.message },
          [`${owner}/${repo}#${pull_number}: ${res.data.message}`],
        );
      },
    }),
  ];
}
