/**
 * Repository labels: list_label, the reference server's name and arguments (github-mcp-server,
 * "labels" toolset), here in the issues toolset. Adding and removing single labels on an issue is
 * update_issue's add_labels/remove_labels.
 */
import { OPEN_WORLD_HINTS, pageFields, pageLine } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { pageShape } from '../format/common.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { listPage, repoPath, repoTool, scopeNote } from './common.js';

const labelShape = z.object({
  name: z.string(),
  color: z.string().describe('6 hex digits, no "#"'),
  description: z.string().optional().describe('Absent when none'),
});

export function labelTools(config: Config): GitHubTool[] {
  return [
    repoTool(config, {
      name: 'list_label',
      title: 'List labels',
      toolset: 'issues',
      description: `List a repository's labels (name, color, description), paged.${scopeNote(config)}`,
      inputSchema: z.strictObject({
        owner: arg.owner(),
        repo: arg.repo(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        repository: z.string(),
        labels: z.array(labelShape),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, page, per_page }, { signal }) => {
        const list = await listPage<{ name: string; color: string; description?: string | null }>(
          config,
          { path: `${repoPath(config, owner, repo)}/labels`, signal },
          page,
          per_page,
        );
        const text = new UntrustedText();
        const labels = list.items.map((l) => ({
          name: text.line(l.name),
          color: l.color,
          ...(l.description ? { description: text.line(l.description) } : {}),
        }));
        const lines = labels.map((l) => `${l.name} #${l.color}${l.description ? ` · ${l.description}` : ''}`);
        return respond(
          { repository: `${owner}/${repo}`, labels, ...pageFields(list.info) },
          [
            `${owner}/${repo}: ${pageLine(list.info, labels.length, 'labels')}`,
            lines.length ? block(`${owner}/${repo} labels`, lines.join('\n')) : '',
          ].filter(Boolean),
          text,
        );
      },
    }),
  ];
}
