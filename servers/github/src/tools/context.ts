/**
 * The context toolset (get_me) and the users toolset (search_users, reference arguments).
 */
import { count, defineTool, OPEN_WORLD_HINTS, pageFields, pageLine } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { pageShape } from '../format/common.js';
import { toUser, userShape } from '../format/repos.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { listPage } from './common.js';

export function contextTools(config: Config): GitHubTool[] {
  return [
    defineTool({
      name: 'get_me',
      title: 'Get authenticated user',
      toolset: 'context',
      description: `Who the token belongs to (login, name, type, repository counts) and its OAuth scopes: call it first for "my" repositories or to check access.${config.scope ? ` This server is limited to ${config.scope.description} (--repos).` : ''}`,
      inputSchema: z.strictObject({}),
      outputSchema: z.object({
        login: z.string(),
        name: z.string().nullable(),
        type: z.string(),
        url: z.string(),
        publicRepos: count().optional(),
        privateRepos: count().optional(),
        scopes: z
          .array(z.string())
          .nullable()
          .describe('OAuth scopes of a classic token; null for fine-grained tokens and apps'),
        readOnly: z.boolean(),
        repositoryScope: z.string().nullable(),
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (_args, { signal }) => {
        const res = await config.github.request<{
          login: string;
          name: string | null;
          type: string;
          html_url: string;
          public_repos?: number;
          total_private_repos?: number;
        }>({ path: '/user', signal });
        const text = new UntrustedText();
        const header = res.headers['x-oauth-scopes'];
        const scopes =
          header === undefined
            ? null
            : header
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean);
        const me = {
          login: res.data.login,
          name: res.data.name === null ? null : text.line(res.data.name),
          type: res.data.type,
          url: res.data.html_url,
          ...(res.data.public_repos !== undefined ? { publicRepos: res.data.public_repos } : {}),
          ...(res.data.total_private_repos !== undefined
            ? { privateRepos: res.data.total_private_repos }
            : {}),
          scopes,
          readOnly: config.readOnly,
          repositoryScope: config.scope?.description ?? null,
        };
        return respond(
          me,
          [
            `Authenticated as @${me.login}${me.name ? ` (${me.name})` : ''}, ${me.type}, ${me.url}.`,
            `Token scopes: ${scopes === null ? 'not reported (fine-grained token or app)' : scopes.join(', ') || '(none)'}.`,
            config.readOnly ? 'This server is read-only.' : '',
            config.scope ? `Repositories reachable through this server: ${config.scope.description}.` : '',
          ].filter(Boolean),
        );
      },
    }),
  ];
}

export function userTools(config: Config): GitHubTool[] {
  return [
    defineTool({
      name: 'search_users',
      title: 'Search users',
      toolset: 'users',
      description:
        'Search GitHub users and organizations (such as "tom location:berlin type:user"), paged (at most 1000 results).',
      inputSchema: z.strictObject({
        q: safeString({ min: 1, max: 1024 }).describe('GitHub search syntax'),
        order: z.enum(['asc', 'desc']).optional(),
        page: arg.page(),
        per_page: arg.perPage(),
        sort: z.enum(['followers', 'repositories', 'joined']).optional().describe('default: best match'),
      }),
      outputSchema: z.object({ totalCount: count(), users: z.array(userShape), ...pageShape }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ q, order, page, per_page, sort }, { signal }) => {
        const list = await listPage(
          config,
          { path: '/search/users', query: { q, order, sort }, signal },
          page,
          per_page,
          (d) => (d as { items: unknown[] }).items,
        );
        const users = list.items.map(toUser);
        const total = (list.data as { total_count: number }).total_count;
        return respond({ totalCount: total, users, ...pageFields(list.info) }, [
          `${total} users. ${pageLine(list.info, users.length, 'users')}`,
          ...users.map((u) => `@${u.login} (${u.type}) ${u.url}`),
        ]);
      },
    }),
  ];
}
