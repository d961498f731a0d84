/**
 * The repos toolset's searches (reference names and arguments): repositories and code. Under
 * --repos the query is confined with qualifiers and stray results are withheld.
 */
import { count, counted, defineTool, OPEN_WORLD_HINTS, pageFields, pageLine } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { withResourceLinks } from '@refmcp/shared/server';
import { neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { contentsLink } from '../files.js';
import { pageShape } from '../format/common.js';
import { codeHitShape, renderRepo, repoShape, toCodeHit, toRepo } from '../format/repos.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { listPage, scopeNote } from './common.js';
import { searchQuery } from './search-query.js';

export function repoSearchTools(config: Config): GitHubTool[] {
  const scope = scopeNote(config);
  return [
    defineTool({
      name: 'search_repositories',
      title: 'Search repositories',
      toolset: 'repos',
      description: `Search GitHub repositories (such as "mcp language:typescript stars:>100"), paged (at most 1000 results).${scope}`,
      inputSchema: z.strictObject({
        query: safeString({ min: 1, max: 1024 }).describe('GitHub search syntax'),
        page: arg.page(),
        perPage: arg.perPage(),
      }),
      outputSchema: z.object({
        totalCount: count(),
        repositories: z.array(repoShape),
        withheldOutOfScope: count(),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ query, page, perPage }, { signal }) => {
        const list = await listPage(
          config,
          { path: '/search/repositories', query: { q: searchQuery(config, query) }, signal },
          page,
          perPage,
          (d) => (d as { items: unknown[] }).items,
        );
        const text = new UntrustedText();
        const all = list.items.map((r) => toRepo(r, text));
        const repositories = all.filter((r) => !config.scope || config.scope.allowsFullName(r.fullName));
        const total = (list.data as { total_count: number }).total_count;
        const outside = all.length - repositories.length;
        return respond(
          { totalCount: total, repositories, withheldOutOfScope: outside, ...pageFields(list.info) },
          [
            `${counted(total, 'repositories')}. ${pageLine(list.info, repositories.length, 'results', 'page')}${outside ? ` ${outside} outside --repos withheld.` : ''}`,
            ...repositories.map(renderRepo),
          ],
          text,
        );
      },
    }),

    defineTool({
      name: 'search_code',
      title: 'Search code',
      toolset: 'repos',
      description: `Search code across GitHub (such as "useState repo:owner/name path:src"), paged: file paths and URLs.${scope}`,
      inputSchema: z.strictObject({
        q: safeString({ min: 1, max: 1024 }).describe('GitHub search syntax'),
        order: z.enum(['asc', 'desc']).optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({
        totalCount: count(),
        items: z.array(codeHitShape),
        withheldOutOfScope: count(),
        ...pageShape,
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ q, order, page, per_page }, { signal }) => {
        const list = await listPage(
          config,
          { path: '/search/code', query: { q: searchQuery(config, q), order }, signal },
          page,
          per_page,
          (d) => (d as { items: unknown[] }).items,
        );
        const text = new UntrustedText();
        const inScope = (list.items as { path: string; repository: { full_name: string } }[]).filter(
          (i) => !config.scope || config.scope.allowsFullName(i.repository.full_name),
        );
        const items = inScope.map((i) => toCodeHit(i, text));
        const total = (list.data as { total_count: number }).total_count;
        const outside = list.items.length - items.length;
        const found = respond(
          { totalCount: total, items, withheldOutOfScope: outside, ...pageFields(list.info) },
          [
            `${counted(total, 'matches')}. ${pageLine(list.info, items.length, 'matches')}${outside ? ` ${outside} outside --repos withheld.` : ''}`,
            ...items.map((h) => `${h.repository}: ${h.path} (${h.url})`),
          ],
          text,
        );
        // Code search indexes default branches only, which is what repo:// reads: the first hits'
        // files as resource links (MAX_RESOURCE_LINKS).
        return withResourceLinks(
          found,
          inScope.flatMap((raw, i) => {
            const [owner = '', repo = ''] = raw.repository.full_name.split('/');
            return contentsLink(owner, repo, raw.path, `${items[i]?.repository}: ${items[i]?.path}`);
          }),
        );
      },
    }),
  ];
}
