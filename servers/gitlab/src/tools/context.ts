/** Context: who the token belongs to (get_me) and the instance version (get_version, a health check). */
import { compact, OPEN_WORLD_HINTS } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { bool, num, obj, str } from '../format/common.js';
import type { GitLabTool } from '../toolsets.js';

export function contextTools(config: Config): GitLabTool[] {
  return [
    {
      name: 'get_me',
      title: 'Get current user',
      toolset: 'context',
      description: "The token's user: username, name, id and whether it is an admin.",
      inputSchema: z.strictObject({}),
      outputSchema: z.object({
        id: z.number().optional(),
        username: z.string(),
        name: z.string().optional(),
        admin: z.boolean().optional(),
        webUrl: z.string().optional(),
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (_args, { signal }) => {
        const u = obj(await config.gitlab.get('/user', undefined, signal));
        const text = new UntrustedText();
        const me = compact({
          id: num(u.id),
          username: str(u.username) ?? '',
          name: str(u.name) ? text.line(str(u.name)) : undefined,
          admin: bool(u.is_admin),
          webUrl: str(u.web_url),
        });
        return respond(me, [
          `${me.username}${me.name ? ` (${me.name})` : ''}, id ${me.id ?? '?'}${me.admin ? ', admin' : ''}`,
        ]);
      },
    },
    {
      name: 'get_version',
      title: 'Get GitLab version',
      toolset: 'context',
      description: 'The GitLab instance version; a health check for self-hosted instances.',
      inputSchema: z.strictObject({}),
      outputSchema: z.object({ version: z.string(), revision: z.string().optional() }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (_args, { signal }) => {
        const v = obj(await config.gitlab.get('/version', undefined, signal));
        const out = compact({ version: str(v.version) ?? 'unknown', revision: str(v.revision) });
        return respond(out, [
          `GitLab ${out.version}${out.revision ? ` (${out.revision})` : ''} at ${config.apiUrl.href}`,
        ]);
      },
    },
  ];
}
