/**
 * The issues toolset: read issues and their comments, search issues and pull requests, and (write)
 * create, update and comment. Tool names and arguments of the reference server are kept
 * (get_issue, list_issues, search_issues, create_issue, update_issue, add_issue_comment); plus
 * get_issue_comments, and update_issue's add_labels/remove_labels (single labels, without
 * replacing the set: the reference server has no such tool).
 */
import { count, defineTool, OPEN_WORLD_HINTS, pageFields, pageLine, ToolError } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { pageShape } from '../format/common.js';
import {
  commentShape,
  issueShape,
  renderComment,
  renderIssue,
  renderIssueList,
  toComment,
  toIssue,
} from '../format/issues.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import {
  authorOf,
  contentNote,
  formatAuthored,
  listPage,
  repoOfApiUrl,
  repoPath,
  repoTool,
  scopeNote,
  withheldFor,
} from './common.js';
import { searchQuery } from './search-query.js';

const labels = z.array(safeString({ max: 100 })).max(100);

/** A label name as one URL segment: "/" is part of names such as "area/ui", so it is encoded too. */
function labelSegment(name: string): string {
  if (/^\.{0,2}$/.test(name.trim())) throw new ToolError(`remove_labels: "${name}" is not a label name`);
  return encodeURIComponent(name);
}
const logins = z.array(arg.owner()).max(10);

/**
 * The result of a tool that returns one issue: `{ repository, issue }` with the issue's body cut at
 * the body budget (withheld under --lockdown), and the rendered issue after `verb`.
 */
export async function issueResponse(
  config: Config,
  raw: unknown,
  owner: string,
  repo: string,
  signal: AbortSignal,
  verb = '',
) {
  const text = new UntrustedText();
  const issue = toIssue(
    raw,
    text,
    config.budgets.bodyBytes,
    await withheldFor(config, owner, repo, authorOf(raw), signal),
  );
  return respond(
    { repository: `${owner}/${repo}`, issue },
    [verb, renderIssue(issue, `${owner}/${repo}`)].filter(Boolean),
    text,
  );
}

export function issueTools(config: Config): GitHubTool[] {
  const { budgets } = config;
  const scope = scopeNote(config);
  const content = contentNote(config);

  const issueResult = (raw: unknown, owner: string, repo: string, signal: AbortSignal, verb = '') =>
    issueResponse(config, raw, owner, repo, signal, verb);

  return [
    repoTool(config, {
      name: 'get_issue',
      title: 'Get issue',
      toolset: 'issues',
      description: `Get one issue with its whole body (up to ${budgets.bodyBytes / 1024} KB); its comments: get_issue_comments.${content}${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        issue_number: arg.number('Issue number'),
      }),
      outputSchema: z.object({ repository: z.string(), issue: issueShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, issue_number }, { signal }) => {
        const res = await config.github.request({
          path: `${repoPath(config, owner, repo)}/issues/${issue_number}`,
          signal,
        });
        return issueResult(res.data, owner, repo, signal);
      },
    }),

    repoTool(config, {
      name: 'list_issues',
      title: 'List issues',
      toolset: 'issues',
      description: `List issues (and pull requests, marked isPullRequest) of a repository, paged; bodies cut at ${budgets.listBodyBytes / 1024} KB.${content}${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        direction: z.enum(['asc', 'desc']).optional().describe('default desc'),
        labels: labels.optional().describe('All of these labels'),
        page: arg.page(),
        per_page: arg.perPage(),
        since: safeString({ max: 40 }).optional().describe('Updated since (ISO 8601)'),
        sort: z.enum(['created', 'updated', 'comments']).optional().describe('default created'),
        state: z.enum(['open', 'closed', 'all']).optional().describe('default open'),
      }),
      outputSchema: z.object({
        repository: z.string(),
        issues: z.array(issueShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (
        { owner, repo, direction, labels: wanted, page, per_page, since, sort, state },
        { signal },
      ) => {
        const list = await listPage(
          config,
          {
            path: `${repoPath(config, owner, repo)}/issues`,
            query: { state, labels: wanted?.join(','), sort, direction, since },
            signal,
          },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const issues = await formatAuthored(config, owner, repo, list.items, signal, (raw, withheld) =>
          toIssue(raw, text, budgets.listBodyBytes, withheld),
        );
        return respond(
          { repository: `${owner}/${repo}`, issues, ...pageFields(list.info) },
          [
            `${owner}/${repo}: ${pageLine(list.info, issues.length, 'issues')}`,
            renderIssueList(issues, `${owner}/${repo} issues: titles and bodies`),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'get_issue_comments',
      title: 'Get issue comments',
      toolset: 'issues',
      description: `List the comments of an issue or pull request (conversation comments, not code review comments), oldest first, paged.${content}${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        issue_number: arg.number('Issue or pull request number'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        issueNumber: count(),
        comments: z.array(commentShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, issue_number, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: `${repoPath(config, owner, repo)}/issues/${issue_number}/comments`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const comments = await formatAuthored(config, owner, repo, list.items, signal, (raw, withheld) =>
          toComment(raw, text, budgets.bodyBytes, withheld),
        );
        const source = `${owner}/${repo}#${issue_number}`;
        return respond(
          { repository: `${owner}/${repo}`, issueNumber: issue_number, comments, ...pageFields(list.info) },
          [
            `${source}: ${pageLine(list.info, comments.length, 'comments')}`,
            ...comments.map((c) => renderComment(c, source)),
          ],
          text,
        );
      },
    }),

    defineTool({
      name: 'search_issues',
      title: 'Search issues and pull requests',
      toolset: 'issues',
      description: `Search issues and pull requests across GitHub (such as "is:open label:bug repo:owner/name"), paged (at most 1000 results).${content}${scope}`,
      inputSchema: z.strictObject({
        q: safeString({ min: 1, max: 1024 }).describe('GitHub search syntax'),
        order: z.enum(['asc', 'desc']).optional().describe('default desc'),
        page: arg.page(),
        per_page: arg.perPage(),
        sort: z
          .enum([
            'comments',
            'reactions',
            'reactions-+1',
            'reactions--1',
            'reactions-smile',
            'reactions-thinking_face',
            'reactions-heart',
            'reactions-tada',
            'interactions',
            'created',
            'updated',
          ])
          .optional()
          .describe('default: best match'),
      }),
      outputSchema: z.object({
        totalCount: count(),
        issues: z.array(issueShape.extend({ repository: z.string() })),
        withheldOutOfScope: count(),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ q, order, page, per_page, sort }, { signal }) => {
        const list = await listPage(
          config,
          { path: '/search/issues', query: { q: searchQuery(config, q), order, sort }, signal },
          page,
          per_page,
          (d) => (d as { items: unknown[] }).items,
        );
        const text = new UntrustedText();
        let outside = 0;
        const issues = [];
        for (const raw of list.items) {
          const [owner, repo] = repoOfApiUrl((raw as { repository_url: string }).repository_url) ?? ['', ''];
          if (config.scope && !config.scope.allows(owner, repo)) {
            outside++;
            continue;
          }
          issues.push({
            repository: `${owner}/${repo}`,
            ...toIssue(
              raw,
              text,
              budgets.listBodyBytes,
              await withheldFor(config, owner, repo, authorOf(raw), signal),
            ),
          });
        }
        const total = (list.data as { total_count: number }).total_count;
        return respond(
          { totalCount: total, issues, withheldOutOfScope: outside, ...pageFields(list.info) },
          [
            `${total} results. ${pageLine(list.info, issues.length, 'results')}${outside ? ` ${outside} results outside --repos were withheld.` : ''}`,
            renderIssueList(issues, 'search results: titles and bodies'),
          ],
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'create_issue',
      title: 'Create issue',
      toolset: 'issues',
      description: `Create an issue (labels, assignees and milestone need push access: GitHub drops them otherwise).${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        title: arg.text('', 1024),
        body: arg.text('Markdown').optional(),
        assignees: logins.optional().describe('Logins'),
        milestone: arg.number('').optional(),
        labels: labels.optional().describe('Label names'),
      }),
      outputSchema: z.object({ repository: z.string(), issue: issueShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, ...fields }, { signal }) => {
        const res = await config.github.request({
          method: 'POST',
          path: `${repoPath(config, owner, repo)}/issues`,
          body: fields,
          signal,
        });
        return issueResult(res.data, owner, repo, signal, 'Created:');
      },
    }),

    repoTool(config, {
      name: 'update_issue',
      title: 'Update issue',
      toolset: 'issues',
      description: `Update an issue; labels and assignees replace the current sets, add_labels/remove_labels change single labels.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        issue_number: arg.number('Issue number'),
        title: arg.text('', 1024).optional(),
        body: arg.text('Markdown').optional(),
        assignees: logins.optional().describe('Logins'),
        milestone: arg.number('').optional(),
        labels: labels.optional().describe('Label names'),
        add_labels: labels.optional(),
        remove_labels: labels.optional(),
        state: z.enum(['open', 'closed']).optional(),
      }),
      outputSchema: z.object({ repository: z.string(), issue: issueShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async ({ owner, repo, issue_number, add_labels, remove_labels, ...fields }, { signal }) => {
        if (fields.labels && (add_labels || remove_labels))
          throw new ToolError(
            'labels replaces all labels; give either labels or add_labels/remove_labels, not both',
          );
        const path = `${repoPath(config, owner, repo)}/issues/${issue_number}`;
        // Every name is checked before the first request. POST …/labels adds, DELETE
        // …/labels/{name} removes one (GitHub REST "Labels" operations).
        const removals = (remove_labels ?? []).map((name) => `${path}/labels/${labelSegment(name)}`);
        if (add_labels?.length)
          await config.github.request({
            method: 'POST',
            path: `${path}/labels`,
            body: { labels: add_labels },
            signal,
          });
        for (const removal of removals)
          await config.github.request({ method: 'DELETE', path: removal, signal });
        const res = Object.values(fields).some((v) => v !== undefined)
          ? await config.github.request({ method: 'PATCH', path, body: fields, signal })
          : await config.github.request({ path, signal });
        return issueResult(res.data, owner, repo, signal, 'Updated:');
      },
    }),

    repoTool(config, {
      name: 'add_issue_comment',
      title: 'Add issue comment',
      toolset: 'issues',
      description: `Add a comment to an issue or pull request conversation.${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        issue_number: arg.number('Issue or pull request number'),
        body: arg.text('Markdown'),
      }),
      outputSchema: z.object({
        repository: z.string(),
        issueNumber: count(),
        comment: commentShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ owner, repo, issue_number, body }, { signal }) => {
        const res = await config.github.request({
          method: 'POST',
          path: `${repoPath(config, owner, repo)}/issues/${issue_number}/comments`,
          body: { body },
          signal,
        });
        const text = new UntrustedText();
        const comment = toComment(res.data, text, budgets.bodyBytes);
        return respond(
          { repository: `${owner}/${repo}`, issueNumber: issue_number, comment },
          [
            `Commented on ${owner}/${repo}#${issue_number}:`,
            renderComment(comment, `${owner}/${repo}#${issue_number}`),
          ],
          text,
        );
      },
    }),
  ];
}
