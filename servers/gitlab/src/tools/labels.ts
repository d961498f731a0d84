/**
 * list_labels (the community GitLab MCP server's name and `project_id`/`search` arguments): a
 * project's labels, group labels included, with open/closed issue and open MR counts
 * (GET /projects/:id/labels?with_counts=true, https://docs.gitlab.com/api/labels/#list-labels).
 */
import { OPEN_WORLD_HINTS, pageFields, pageLine, pageShapeFor } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { labelShape, toLabel } from '../format/labels.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';

export function labelTools(config: Config): GitLabTool[] {
  return [
    projectTool(config, {
      name: 'list_labels',
      title: 'List labels',
      toolset: 'issues',
      description: `A project's labels with open issue and MR counts.${scopeNote(config)}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        search: arg.text('Part of the name', 255).optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ labels: z.array(labelShape), ...pageShapeFor('GitLab'), ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, search, page = 1, per_page = 20 }, { signal }) => {
        const res = await config.gitlab.list(
          `${projectBase(config, project_id)}/labels`,
          { search, with_counts: true },
          page,
          per_page,
          signal,
        );
        const text = new UntrustedText();
        const labels = res.items.map((l) => toLabel(l, text, config.budgets.listBodyBytes));
        return respond(
          { labels, ...pageFields(res.info) },
          [
            ...labels.map((l) => {
              const counts = [
                l.openIssues !== undefined ? `${l.openIssues} open issues` : '',
                l.openMergeRequests !== undefined ? `${l.openMergeRequests} open MRs` : '',
              ].filter(Boolean);
              return `- ${l.name}${l.color ? ` ${l.color}` : ''}${counts.length ? ` (${counts.join(', ')})` : ''}${l.description ? ` — ${l.description}` : ''}`;
            }),
            pageLine(res.info, labels.length, 'labels'),
          ],
          text,
        );
      },
    }),
  ];
}
