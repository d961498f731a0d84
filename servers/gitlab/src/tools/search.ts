/**
 * Code search: search_project_code (the community GitLab MCP server's name; `project_id`, `search`,
 * `ref`, page arguments) and search_group_code, GitLab's blobs scope
 * (GET /projects/:id/search and GET /groups/:id/search with scope=blobs,
 * https://docs.gitlab.com/api/search/). Each result is a fragment of a file — its path, ref and
 * first line number, and for a group its project — returned as untrusted file content, each
 * bounded by the list body budget.
 *
 * Which search runs is chosen here and said in the result (docs.gitlab.com/user/search: exact code
 * search first, then advanced search, then basic search, which cannot search a group's code nor a
 * ref other than the default branch): `search_type=zoekt` (with `regex=false`, as zoekt reads
 * regular expressions by default), then `advanced`, then (projects) `basic`, moving on when GitLab
 * answers 400 that the type is not available (ee SearchService#search_type_errors: "Zoekt is not
 * available", "Elasticsearch is not available" or "… is disabled …"). The type that answered is
 * remembered per top-level namespace for the process. A project search with `ref` is basic. The
 * probes of one call share one --search-interval slot: only the first waits for it.
 */
import { defineTool, OPEN_WORLD_HINTS, pageFields, pageLine, pageShapeFor, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { num, obj, str } from '../format/common.js';
import { type BlobHit, blobHitShape, toBlobHit } from '../format/search.js';
import { isStatus } from '../gitlab/client.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';

type SearchType = 'zoekt' | 'advanced' | 'basic';

const NAMES: Record<SearchType, string> = {
  zoekt: 'exact code search (zoekt)',
  advanced: 'advanced search',
  basic: 'basic search',
};

/** GitLab's 400 for a search type the instance (or this namespace) does not have. */
const UNAVAILABLE = /not available|is disabled|supported only with|only be used for|not supported/i;

const outputSchema = z.object({
  searchType: z.enum(['zoekt', 'advanced', 'basic']).describe('Which GitLab search answered'),
  results: z.array(blobHitShape),
  omitted: z.number().optional().describe('Results from projects outside --projects, left out'),
  ...pageShapeFor('GitLab'),
  ...neutralizedField,
});

export function searchTools(config: Config): GitLabTool[] {
  /** Top-level namespace (or numeric id) → the search type that last answered there. */
  const known = new Map<string, SearchType>();
  /** Project id → its full path (group results carry only the id). */
  const paths = new Map<number, Promise<string | undefined>>();

  const search = async (
    path: string,
    key: string,
    order: SearchType[],
    query: Record<string, string | boolean | undefined>,
    page: number,
    perPage: number,
    signal: AbortSignal,
  ) => {
    const first = known.get(key);
    const types = first && order.includes(first) ? [first, ...order.filter((t) => t !== first)] : order;
    const refusals: string[] = [];
    for (const type of types) {
      try {
        const res = await config.gitlab.list(
          path,
          { scope: 'blobs', ...query, search_type: type, ...(type === 'zoekt' ? { regex: false } : {}) },
          page,
          perPage,
          signal,
          // Only the first probe waits for --search-interval: a refused one searched nothing.
          { paced: refusals.length === 0 },
        );
        known.set(key, type);
        return { res, type };
      } catch (error) {
        if (!(isStatus(error, 400) && error instanceof Error && UNAVAILABLE.test(error.message))) throw error;
        refusals.push(`${type}: ${error.message}`);
      }
    }
    throw new ToolError(
      `GitLab has none of ${types.map((t) => NAMES[t]).join(', ')} here (${refusals.join('; ')}).${order.includes('basic') ? '' : ' Group code search needs advanced or exact code search; search each project with search_project_code.'}`,
    );
  };

  const projectOf = (id: number, signal: AbortSignal): Promise<string | undefined> => {
    let path = paths.get(id);
    if (!path) {
      path = config.gitlab
        .get(`/projects/${id}`, undefined, signal)
        .then((p) => str(obj(p).path_with_namespace));
      path.catch(() => paths.delete(id));
      paths.set(id, path);
    }
    return path;
  };

  const render = (
    type: SearchType,
    results: BlobHit[],
    omitted: number,
    info: Parameters<typeof pageLine>[0],
  ) => [
    `${NAMES[type][0]?.toUpperCase()}${NAMES[type].slice(1)}:`,
    ...results.map((r) =>
      block(
        `${r.project ? `${r.project}:` : ''}${r.path}${r.startline !== undefined ? `:${r.startline}` : ''}${r.ref ? ` @ ${r.ref}` : ''}`,
        r.data,
      ),
    ),
    ...(omitted ? [`${omitted} result(s) from projects outside --projects left out.`] : []),
    pageLine(info, results.length, 'results'),
  ];

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
      outputSchema,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, search: text, ref, page = 1, per_page = 20 }, { signal }) => {
        const base = projectBase(config, project_id);
        const order: SearchType[] = ref ? ['basic'] : ['zoekt', 'advanced', 'basic'];
        const key = project_id.split('/')[0]?.toLowerCase() ?? project_id;
        const { res, type } = await search(
          `${base}/search`,
          key,
          order,
          { search: text, ref },
          page,
          per_page,
          signal,
        );
        const untrusted = new UntrustedText();
        const results = res.items.map((b) => toBlobHit(b, untrusted, config.budgets.listBodyBytes));
        return respond(
          { searchType: type, results, ...pageFields(res.info) },
          render(type, results, 0, res.info),
          untrusted,
        );
      },
    }),

    defineTool({
      name: 'search_group_code',
      title: 'Search group code',
      toolset: 'groups',
      description: `Search the files of every project in a group (advanced or exact code search): fragments with project, path and line.${scopeNote(config)}`,
      inputSchema: z.strictObject({
        group_id: arg.groupId(),
        search: arg.text('Text to find', 1000),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ group_id, search: text, page = 1, per_page = 20 }, { signal }) => {
        // Before any request: a group outside --projects is refused (scope.ts, allowsGroup).
        config.scope?.checkGroup(group_id);
        const key = group_id.split('/')[0]?.toLowerCase() ?? group_id;
        const { res, type } = await search(
          `${arg.groupPath(group_id)}/search`,
          key,
          ['zoekt', 'advanced'],
          { search: text },
          page,
          per_page,
          signal,
        );
        const untrusted = new UntrustedText();
        const projects = await Promise.all(
          res.items.map((b) => {
            const id = num(obj(b).project_id);
            return id === undefined ? Promise.resolve(undefined) : projectOf(id, signal);
          }),
        );
        const results: BlobHit[] = [];
        let omitted = 0;
        res.items.forEach((b, i) => {
          const project = projects[i];
          // Results whose project is unknown or outside --projects never reach the model.
          if (config.scope && (!project || !config.scope.allows(project))) omitted++;
          else results.push(toBlobHit(b, untrusted, config.budgets.listBodyBytes, project));
        });
        return respond(
          { searchType: type, results, ...(omitted ? { omitted } : {}), ...pageFields(res.info) },
          render(type, results, omitted, res.info),
          untrusted,
        );
      },
    }),
  ];
}
