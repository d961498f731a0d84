/**
 * Sub-issues (GitHub REST "Sub-issues"): list_sub_issues, add_sub_issue, remove_sub_issue — the
 * reference server's names (github-mcp-server before sub_issue_write). The sub-issue is named by
 * its number in `sub_issue_repo` (default: the parent's repository; GitHub requires the parent's
 * owner), and resolved to the id the API takes with a GET; both repositories are checked against
 * --repos before any request.
 */
import { count, OPEN_WORLD_HINTS, pageFields, pageLine } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { pageShape } from '../format/common.js';
import { issueShape, renderIssueList, toIssue } from '../format/issues.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import {
  authorOf,
  contentNote,
  listPage,
  repoOfApiUrl,
  repoPath,
  repoTool,
  scopeNote,
  withheldFor,
} from './common.js';
import { issueResponse } from './issues.js';

export function subIssueTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  const target = {
    owner: arg.owner(),
    repo: arg.repo(),
    issue_number: arg.number('Parent issue number'),
    sub_issue_number: arg.number('Sub-issue number'),
    sub_issue_repo: arg.repo().optional().describe("Sub-issue's repository under owner; default repo"),
  };

  /** Parent path and sub-issue id: both repositories checked against --repos first, then one GET. */
  const resolve = async (
    a: {
      owner: string;
      repo: string;
      issue_number: number;
      sub_issue_number: number;
      sub_issue_repo?: string | undefined;
    },
    signal: AbortSignal,
  ) => {
    const parent = `${repoPath(config, a.owner, a.repo)}/issues/${a.issue_number}`;
    const subRepo = a.sub_issue_repo ?? a.repo;
    const child = `${repoPath(config, a.owner, subRepo)}/issues/${a.sub_issue_number}`;
    const res = await config.github.request<{ id: number }>({ path: child, signal });
    return { parent, id: res.data.id, label: `${a.owner}/${subRepo}#${a.sub_issue_number}` };
  };

  const writeOutput = z.object({
    repository: z.string(),
    issue: issueShape.describe('The parent issue'),
    ...neutralizedField,
  });

  return [
    repoTool(config, {
      name: 'list_sub_issues',
      title: 'List sub-issues',
      toolset: 'issues',
      description: `List an issue's sub-issues, paged.${contentNote(config)}${scope}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        issue_number: arg.number('Issue number'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        issueNumber: count(),
        subIssues: z.array(issueShape.extend({ repository: z.string() })),
        withheldOutOfScope: count().optional().describe('Sub-issues outside --repos, left out'),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, issue_number, page, per_page }, { signal }) => {
        const list = await listPage<{ repository_url: string }>(
          config,
          { path: `${repoPath(config, owner, repo)}/issues/${issue_number}/sub_issues`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        let outside = 0;
        const subIssues = [];
        for (const raw of list.items) {
          const [o, r] = repoOfApiUrl(raw.repository_url) ?? [owner, repo];
          if (config.scope && !config.scope.allows(o, r)) {
            outside++;
            continue;
          }
          const withheld = await withheldFor(config, o, r, authorOf(raw), signal);
          subIssues.push({
            repository: `${o}/${r}`,
            ...toIssue(raw, text, config.budgets.listBodyBytes, withheld),
          });
        }
        return respond(
          {
            repository: `${owner}/${repo}`,
            issueNumber: issue_number,
            subIssues,
            ...(outside ? { withheldOutOfScope: outside } : {}),
            ...pageFields(list.info),
          },
          [
            `${owner}/${repo}#${issue_number}: ${pageLine(list.info, subIssues.length, 'sub-issues')}${outside ? ` ${outside} outside --repos were withheld.` : ''}`,
            renderIssueList(subIssues, `${owner}/${repo}#${issue_number} sub-issues: titles and bodies`),
          ].filter(Boolean),
          text,
        );
      },
    }),

    repoTool(config, {
      name: 'add_sub_issue',
      title: 'Add sub-issue',
      toolset: 'issues',
      description: `Make an issue a sub-issue of another (same owner).${scope}`,
      inputSchema: z.strictObject({
        ...target,
        replace_parent: z.boolean().optional().describe('Move it from its current parent'),
      }),
      outputSchema: writeOutput,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ replace_parent, ...a }, { signal }) => {
        const { parent, id, label } = await resolve(a, signal);
        const res = await config.github.request({
          method: 'POST',
          path: `${parent}/sub_issues`,
          body: { sub_issue_id: id, ...(replace_parent !== undefined ? { replace_parent } : {}) },
          signal,
        });
        return issueResponse(config, res.data, a.owner, a.repo, signal, `Added ${label} as a sub-issue of:`);
      },
    }),

    repoTool(config, {
      name: 'remove_sub_issue',
      title: 'Remove sub-issue',
      toolset: 'issues',
      description: `Remove a sub-issue from its parent issue (the issue itself stays).${scope}`,
      inputSchema: z.strictObject(target),
      outputSchema: writeOutput,
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async (a, { signal }) => {
        const { parent, id, label } = await resolve(a, signal);
        const res = await config.github.request({
          method: 'DELETE',
          path: `${parent}/sub_issue`,
          body: { sub_issue_id: id },
          signal,
        });
        return issueResponse(
          config,
          res.data,
          a.owner,
          a.repo,
          signal,
          `Removed ${label} from the sub-issues of:`,
        );
      },
    }),
  ];
}
