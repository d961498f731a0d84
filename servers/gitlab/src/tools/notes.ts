/**
 * Notes (comments) of issues and merge requests, read and added: one implementation for both
 * noteable kinds (`issues`, `merge_requests`), lockdown applied per author.
 */
import { OPEN_WORLD_HINTS, pageFields, pageLine, pageShapeFor } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { noteShape, renderNote, toNote } from '../format/issues.js';
import * as arg from '../names.js';
import type { GitLabTool, GitLabToolset } from '../toolsets.js';
import { contentNote, formatAuthored, projectBase, projectTool, scopeNote } from './common.js';

interface Noteable {
  toolset: GitLabToolset;
  /** URL collection: issues or merge_requests. */
  collection: 'issues' | 'merge_requests';
  /** The iid argument: issue_iid or merge_request_iid. */
  iid: 'issue_iid' | 'merge_request_iid';
  /** "issue" or "merge request". */
  what: string;
  /** Tool names: [list, add]. */
  names: [string, string];
}

/** list_<x>_notes and add_<x>_note for one noteable kind. */
export function noteTools(config: Config, kind: Noteable): GitLabTool[] {
  const scope = scopeNote(config);
  const iidArg = { [kind.iid]: arg.iid(kind.iid) } as Record<string, z.ZodNumber>;
  const path = (project_id: string, iid: number) =>
    `${projectBase(config, project_id)}/${kind.collection}/${iid}/notes`;
  return [
    projectTool(config, {
      name: kind.names[0],
      title: `List ${kind.what} notes`,
      toolset: kind.toolset,
      description: `List the comments (notes) of one ${kind.what}, oldest first.${contentNote(config)}${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        ...iidArg,
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ notes: z.array(noteShape), ...pageShapeFor('GitLab'), ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (args, { signal }) => {
        const {
          project_id,
          page = 1,
          per_page = 20,
        } = args as { project_id: string; page?: number; per_page?: number };
        const iid = (args as unknown as Record<string, number>)[kind.iid] as number;
        const res = await config.gitlab.list(
          path(project_id, iid),
          { sort: 'asc', order_by: 'created_at' },
          page,
          per_page,
          signal,
        );
        const text = new UntrustedText();
        const base = projectBase(config, project_id);
        const notes = await formatAuthored(config, base, res.items, signal, (raw, withheld) =>
          toNote(raw, text, config.budgets.listBodyBytes * 4, withheld),
        );
        return respond(
          { notes, ...pageFields(res.info) },
          [
            ...notes.map((n) => `${renderNote(n)}\n${block('note', n.body)}`),
            pageLine(res.info, notes.length, 'notes'),
          ],
          text,
        );
      },
    }),

    projectTool(config, {
      name: kind.names[1],
      title: `Comment on ${kind.what}`,
      toolset: kind.toolset,
      description: `Add a comment (note) to one ${kind.what}.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        ...iidArg,
        body: arg.text('Comment text (Markdown)'),
      }),
      outputSchema: z.object({ note: noteShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async (args, { signal }) => {
        const { project_id, body } = args as { project_id: string; body: string };
        const iid = (args as unknown as Record<string, number>)[kind.iid] as number;
        const raw = await config.gitlab.write('POST', path(project_id, iid), { body }, signal);
        const text = new UntrustedText();
        const note = toNote(raw, text, config.budgets.bodyBytes);
        return respond(
          { note },
          [`Added note ${note.id ?? ''} to ${kind.what} ${iid} of ${project_id}.`],
          text,
        );
      },
    }),
  ];
}
