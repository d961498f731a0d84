/**
 * Issues: create_issue (reference name and arguments), list_issues, get_issue, update_issue, and
 * their notes. A 201 with nulls and missing fields is a success (GL-05).
 */
import { compact, OPEN_WORLD_HINTS, pageFields, pageLine, pageShapeFor } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { issueShape, renderIssuable, toIssue } from '../format/issues.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { contentNote, formatAuthored, projectBase, projectTool, scopeNote, withheldFor } from './common.js';
import { noteTools } from './notes.js';

const labels = () => z.array(arg.text(undefined, 255)).max(100).describe('Label names');

export function issueTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  const content = contentNote(config);
  const one = z.object({ issue: issueShape, ...neutralizedField });
  const show = async (project_id: string, raw: unknown, verb: string, signal: AbortSignal) => {
    const text = new UntrustedText();
    const withheld = await withheldFor(config, projectBase(config, project_id), raw, signal);
    const issue = toIssue(raw, text, config.budgets.bodyBytes, withheld);
    return respond(
      { issue },
      [
        `${verb}${renderIssuable(issue)} in ${project_id}${issue.webUrl ? ` — ${issue.webUrl}` : ''}`,
        block('issue description', issue.description ?? ''),
      ],
      text,
    );
  };
  return [
    projectTool(config, {
      name: 'create_issue',
      title: 'Create issue',
      toolset: 'issues',
      description: `Open an issue in a project.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        title: arg.text('Issue title', 255),
        description: arg.text('Issue description (Markdown)').optional(),
        assignee_ids: z.array(arg.id()).max(100).optional().describe('User ids to assign'),
        labels: labels().optional(),
        milestone_id: arg.id('Milestone id').optional(),
      }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, labels, ...fields }, { signal }) => {
        const raw = await config.gitlab.write(
          'POST',
          `${projectBase(config, project_id)}/issues`,
          compact({ ...fields, labels: labels?.join(',') }),
          signal,
        );
        return show(project_id, raw, 'Created ', signal);
      },
    }),

    projectTool(config, {
      name: 'list_issues',
      title: 'List issues',
      toolset: 'issues',
      description: `List a project's issues, newest first.${content}${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        state: z.enum(['opened', 'closed', 'all']).optional().describe('Default opened'),
        labels: labels().optional(),
        author_username: arg.text('Author username', 255).optional(),
        assignee_username: arg.text('Assignee username', 255).optional(),
        search: arg.text('Text in title or description', 255).optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ issues: z.array(issueShape), ...pageShapeFor('GitLab'), ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (
        { project_id, state = 'opened', labels, page = 1, per_page = 20, ...filters },
        { signal },
      ) => {
        const base = projectBase(config, project_id);
        const query = { ...filters, state, labels: labels?.join(',') };
        const res = await config.gitlab.list(`${base}/issues`, query, page, per_page, signal);
        const text = new UntrustedText();
        const issues = await formatAuthored(config, base, res.items, signal, (raw, withheld) =>
          toIssue(raw, text, config.budgets.listBodyBytes, withheld),
        );
        return respond(
          { issues, ...pageFields(res.info) },
          [...issues.map((i) => `- ${renderIssuable(i)}`), pageLine(res.info, issues.length, 'issues')],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'get_issue',
      title: 'Get issue',
      toolset: 'issues',
      description: `One issue with its description.${content}${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        issue_iid: arg.iid('issue_iid'),
      }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, issue_iid }, { signal }) =>
        show(
          project_id,
          await config.gitlab.get(
            `${projectBase(config, project_id)}/issues/${issue_iid}`,
            undefined,
            signal,
          ),
          '',
          signal,
        ),
    }),

    projectTool(config, {
      name: 'update_issue',
      title: 'Update issue',
      toolset: 'issues',
      description: `Change an issue, or close/reopen it; only given fields change.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        issue_iid: arg.iid('issue_iid'),
        title: arg.text('New title', 255).optional(),
        description: arg.text('New description (Markdown)').optional(),
        labels: labels().optional().describe('Replace the labels'),
        add_labels: labels().optional().describe('Add these'),
        remove_labels: labels().optional().describe('Remove these'),
        assignee_ids: z.array(arg.id()).max(100).optional().describe('Replace the assignees ([] for none)'),
        milestone_id: z
          .number()
          .int()
          .min(0)
          .max(2_147_483_647)
          .optional()
          .describe('Milestone id (0 to remove)'),
        state_event: z.enum(['close', 'reopen']).optional(),
      }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async (
        { project_id, issue_iid, labels, add_labels, remove_labels, ...fields },
        { signal },
      ) => {
        const raw = await config.gitlab.write(
          'PUT',
          `${projectBase(config, project_id)}/issues/${issue_iid}`,
          compact({
            ...fields,
            labels: labels?.join(','),
            add_labels: add_labels?.join(','),
            remove_labels: remove_labels?.join(','),
          }),
          signal,
        );
        return show(project_id, raw, 'Updated ', signal);
      },
    }),

    ...noteTools(config, {
      toolset: 'issues',
      collection: 'issues',
      iid: 'issue_iid',
      what: 'issue',
      names: ['list_issue_notes', 'add_issue_note'],
    }),
  ];
}
