/**
 * The pull_requests toolset, reading: one pull request, the list, its changed files, its diff,
 * its combined status, its review comments and its reviews. Reference names and arguments kept;
 * files, comments and reviews also take page/per_page (GitHub pages them; case GH-06).
 */
import {
  count,
  OPEN_WORLD_HINTS,
  pageFields,
  pageLine,
  truncateUtf8,
  truncationMarker,
} from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { block, indent, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import {
  checkFailed,
  checkRunShape,
  renderCheckRun,
  toCheckRun,
  verdictOf,
  verdictShape,
} from '../format/checks.js';
import { at, pageShape } from '../format/common.js';
import {
  fileShape,
  pullShape,
  renderFile,
  renderPull,
  reviewCommentShape,
  reviewShape,
  statusShape,
  toChangedFile,
  toPull,
  toReview,
  toReviewComment,
  toStatus,
} from '../format/pulls.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import {
  authorOf,
  contentNote,
  formatAuthored,
  listPage,
  repoPath,
  repoTool,
  scopeNote,
  withheldFor,
} from './common.js';
import { withheldForPull } from './lockdown-content.js';

export function pullReadTools(config: Config): GitHubTool[] {
  const { budgets } = config;
  const scope = scopeNote(config);
  const content = contentNote(config);
  const lockdownNote = config.lockdown.enabled
    ? " Lockdown is on: on public repositories, a pull request's changes by a user without push access are withheld."
    : '';
  const target = { owner: arg.owner(), repo: arg.repo(), pull_number: arg.number('') };

  return [
    repoTool(config, {
      name: 'get_pull_request',
      title: 'Get pull request',
      toolset: 'pull_requests',
      description: `Get one pull request: state, author, head and base, mergeability, counts and the whole body (its changes: get_pull_request_files or get_pull_request_diff).${content}${scope}`,
      inputSchema: z.strictObject(target),
      outputSchema: z.object({ repository: z.string(), pullRequest: pullShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number }, { signal }) => {
        const res = await config.github.request({
          path: `${repoPath(config, owner, repo)}/pulls/${pull_number}`,
          signal,
        });
        const text = new UntrustedText();
        const pullRequest = toPull(
          res.data,
          text,
          budgets.bodyBytes,
          await withheldFor(config, owner, repo, authorOf(res.data), signal),
        );
        return respond(
          { repository: `${owner}/${repo}`, pullRequest },
          [renderPull(pullRequest, `${owner}/${repo}`)],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'list_pull_requests',
      title: 'List pull requests',
      toolset: 'pull_requests',
      description: `List pull requests of a repository, filtered by state, head ("user:branch") and base branch, paged. Bodies are cut at ${budgets.listBodyBytes / 1024} KB each.${content}${scope}`,
      inputSchema: z.strictObject({
        ...{ owner: arg.owner(), repo: arg.repo() },
        state: z.enum(['open', 'closed', 'all']).optional().describe('default open'),
        head: safeString({ max: 300 }).optional().describe('Only this head, as "user:branch"'),
        base: arg.branch('Only this base branch').optional(),
        sort: z
          .enum(['created', 'updated', 'popularity', 'long-running'])
          .optional()
          .describe('default created'),
        direction: z.enum(['asc', 'desc']).optional().describe('Sort direction'),
        per_page: arg.perPage(),
        page: arg.page(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        pullRequests: z.array(pullShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, state, head, base, sort, direction, per_page, page }, { signal }) => {
        const list = await listPage(
          config,
          {
            path: `${repoPath(config, owner, repo)}/pulls`,
            query: { state, head, base, sort, direction },
            signal,
          },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const pullRequests = await formatAuthored(config, owner, repo, list.items, signal, (raw, withheld) =>
          toPull(raw, text, budgets.listBodyBytes, withheld),
        );
        return respond(
          { repository: `${owner}/${repo}`, pullRequests, ...pageFields(list.info) },
          [
            `${owner}/${repo}: ${pageLine(list.info, pullRequests.length, 'pull requests')}`,
            ...pullRequests.map((p) => renderPull(p, `${owner}/${repo}`)),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_pull_request_files',
      title: 'Get pull request files',
      toolset: 'pull_requests',
      description: `List the files a pull request changes with their patches (8 KB each, then cut), paged (at most 3000 files).${lockdownNote}${scope}`,
      inputSchema: z.strictObject({ ...target, page: arg.page(), per_page: arg.perPage() }),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        files: z.array(fileShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/pulls/${pull_number}/files`, signal },
          page,
          per_page,
        );
        const withheld = await withheldForPull(
          config,
          owner,
          repo,
          pull_number,
          repoPath(config, owner, repo),
          signal,
        );
        const text = new UntrustedText();
        const files = list.items.map((f) => {
          const file = toChangedFile(f, text, 8 * 1024);
          if (!withheld || file.patch === undefined) return file;
          const { patchTruncated: _cut, ...facts } = file;
          return { ...facts, patch: withheld };
        });
        return respond(
          { repository: `${owner}/${repo}`, pullNumber: pull_number, files, ...pageFields(list.info) },
          [
            `${owner}/${repo}#${pull_number}: ${pageLine(list.info, files.length, 'files')}`,
            ...files.map((f) => renderFile(f, false)),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_pull_request_diff',
      title: 'Get pull request diff',
      toolset: 'pull_requests',
      description: `Get the unified diff of a pull request, cut at ${budgets.diffBytes / 1024} KB with a marker (get_pull_request_files pages through large changes file by file).${lockdownNote}${scope}`,
      inputSchema: z.strictObject(target),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        diff: z.string(),
        bytes: count(),
        truncated: z.boolean(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number }, { signal }) => {
        const withheld = await withheldForPull(
          config,
          owner,
          repo,
          pull_number,
          repoPath(config, owner, repo),
          signal,
        );
        if (withheld) {
          return respond(
            {
              repository: `${owner}/${repo}`,
              pullNumber: pull_number,
              diff: withheld,
              bytes: 0,
              truncated: false,
            },
            [`${owner}/${repo}#${pull_number} diff: ${withheld}`],
          );
        }
        const res = await config.github.request<Buffer>({
          path: `${repoPath(config, owner, repo)}/pulls/${pull_number}`,
          accept: 'application/vnd.github.diff',
          bytes: true,
          signal,
        });
        const raw = res.data.toString('utf8');
        const text = new UntrustedText();
        const clean = text.code(raw);
        const cut = truncateUtf8(clean, budgets.diffBytes);
        const diff = cut.truncated
          ? `${cut.text}\n${truncationMarker(`${cut.omittedBytes} more bytes of diff`, 'use get_pull_request_files with page to read the changes file by file')}`
          : cut.text;
        return respond(
          {
            repository: `${owner}/${repo}`,
            pullNumber: pull_number,
            diff,
            bytes: res.data.length,
            truncated: cut.truncated,
          },
          [
            `${owner}/${repo}#${pull_number} diff (${res.data.length} bytes${cut.truncated ? ', truncated' : ''}):`,
            block(`${owner}/${repo}#${pull_number} diff`, diff),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_pull_request_status',
      title: 'Get pull request status',
      toolset: 'pull_requests',
      description: `Check runs and commit statuses of a pull request's head, with one verdict.${scope}`,
      inputSchema: z.strictObject(target),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        sha: z.string(),
        verdict: verdictShape,
        checkRuns: z.array(checkRunShape),
        checkRunsTotal: count(),
        status: statusShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number }, { signal }) => {
        const base = repoPath(config, owner, repo);
        const pr = await config.github.request<{ head: { sha: string } }>({
          path: `${base}/pulls/${pull_number}`,
          signal,
        });
        const sha = pr.data.head.sha;
        const [res, checks] = await Promise.all([
          config.github.request({ path: `${base}/commits/${sha}/status`, signal }),
          config.github.request<{ total_count: number; check_runs: unknown[] }>({
            path: `${base}/commits/${sha}/check-runs`,
            query: { filter: 'latest', per_page: 100 },
            signal,
          }),
        ]);
        const text = new UntrustedText();
        const status = toStatus(res.data, text);
        const checkRuns = checks.data.check_runs.map((c) => toCheckRun(c, text));
        const verdict = verdictOf(
          status.statuses.map((s) => s.state),
          checkRuns,
        );
        const failing =
          status.statuses.filter((s) => s.state === 'error' || s.state === 'failure').length +
          checkRuns.filter(checkFailed).length;
        const hidden = checks.data.total_count - checkRuns.length;
        return respond(
          {
            repository: `${owner}/${repo}`,
            pullNumber: pull_number,
            sha,
            verdict,
            checkRuns,
            checkRunsTotal: checks.data.total_count,
            status,
          },
          [
            `${owner}/${repo}#${pull_number} head ${sha}: ${verdict}${failing ? ` (${failing} failing)` : ''} — ${checks.data.total_count} check run${checks.data.total_count === 1 ? '' : 's'}, ${status.totalCount} status${status.totalCount === 1 ? '' : 'es'}.`,
            ...checkRuns.map(renderCheckRun),
            hidden > 0 ? `${hidden} more check runs not shown.` : '',
            ...status.statuses.map(
              (s) => `- ${s.context}: ${s.state} (status)${s.description ? ` — ${s.description}` : ''}`,
            ),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_pull_request_comments',
      title: 'Get pull request review comments',
      toolset: 'pull_requests',
      description: `List review comments on a pull request's code, paged (conversation comments: get_issue_comments).${content}${scope}`,
      inputSchema: z.strictObject({ ...target, page: arg.page(), per_page: arg.perPage() }),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        comments: z.array(reviewCommentShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/pulls/${pull_number}/comments`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const comments = await formatAuthored(config, owner, repo, list.items, signal, (raw, withheld) =>
          toReviewComment(raw, text, budgets.listBodyBytes, withheld),
        );
        const source = `${owner}/${repo}#${pull_number}`;
        return respond(
          { repository: `${owner}/${repo}`, pullNumber: pull_number, comments, ...pageFields(list.info) },
          [
            `${source}: ${pageLine(list.info, comments.length, 'review comments')}`,
            ...comments.map(
              (c) =>
                `- ${at(c.author)} on ${c.path}${c.line ? `:${c.line}` : ''} (${c.url})\n${indent(block(`${source} review comment by ${at(c.author)}`, c.body))}`,
            ),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_pull_request_reviews',
      title: 'Get pull request reviews',
      toolset: 'pull_requests',
      description: `List the reviews of a pull request with their bodies, paged.${content}${scope}`,
      inputSchema: z.strictObject({ ...target, page: arg.page(), per_page: arg.perPage() }),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        reviews: z.array(reviewShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/pulls/${pull_number}/reviews`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const reviews = await formatAuthored(config, owner, repo, list.items, signal, (raw, withheld) =>
          toReview(raw, text, budgets.listBodyBytes, withheld),
        );
        const source = `${owner}/${repo}#${pull_number}`;
        return respond(
          { repository: `${owner}/${repo}`, pullNumber: pull_number, reviews, ...pageFields(list.info) },
          [
            `${source}: ${pageLine(list.info, reviews.length, 'reviews')}`,
            ...reviews.map(
              (r) =>
                `- ${at(r.author)} ${r.state === 'PENDING' ? 'pending (not submitted)' : `${r.state} at ${r.submittedAt ?? '?'}`}${r.body ? `\n${indent(block(`${source} review by ${at(r.author)}`, r.body))}` : ''}`,
            ),
          ],
          text,
        );
      },
    }),
  ];
}
