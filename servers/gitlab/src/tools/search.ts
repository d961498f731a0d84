/**
 * search_project_code (the community GitLab MCP server's name; `project_id`, `search`, `ref`, page
 * arguments): GitLab's project search in the blobs scope (GET /projects/:id/search?scope=blobs,
 * https://docs.gitlab.com/api/search/#scope-blobs-1). Each result is a fragment of a file — its
 * path, ref and first line number — returned as untrusted file content, each bounded by the list
 * body budget. What matches depends on the instance's search backend (basic, advanced or exact).
 */
import { OPEN_WORLD_HINTS, pageFields, pageLine, pageShapeFor } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { blobHitShape, toBlobHit } from '../format/search.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';

export function searchTools(config: Config): GitLabTool[] {
  return [
    projectTool(config, {
      name: 'search_project_code',
      title: 'Search project code',
      toolset: 'projects',
      description: `Search a project's files (GitLab blob search): matching fragments with path and line.${scopeNote(config)}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        search: arg.text('Text to find', 1000),
        ref: arg.ref('Branch or tag (default: default branch)').optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        results: z.array(blobHitShape),
        ...pageShapeFor('GitLab'),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, search, ref, page = 1, per_page = 20 }, { signal }) => {
        const res = await config.gitlab.list(
          `${projectBase(config, project_id)}/search`,
          { scope: 'blobs', search, ref },
          page,
          per_page,
          signal,
        );
        const text = new UntrustedText();
        const results = res.items.map((b) => toBlobHit(b, text, config.budgets.listBodyBytes));
        return respond(
          { results, ...pageFields(res.info) },
          [
            ...results.map((r) =>
              block(
                `${r.path}${r.startline !== undefined ? `:${r.startline}` : ''}${r.ref ? ` @ ${r.ref}` : ''}`,
                r.data,
              ),
            ),
            pageLine(res.info, results.length, 'results'),
          ],
          text,
        );
      },
    }),
  ];
}
