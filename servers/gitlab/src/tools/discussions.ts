/**
 * Merge request review threads (discussions): list them with ids and resolved state, start one
 * (general, or on a diff line with the position filled in from the MR), reply in one, resolve or
 * unresolve one. Names and arguments follow the community GitLab MCP server (zereight/gitlab-mcp:
 * create_merge_request_thread, create_merge_request_discussion_note, resolve_merge_request_thread);
 * the position is built here from path and line instead of asking the model for three shas.
 */
import {
  compact,
  hasSuggestion,
  OPEN_WORLD_HINTS,
  pageFields,
  pageLine,
  pageShapeFor,
  ToolError,
} from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { arr, obj, str } from '../format/common.js';
import { noteShape, renderNote, toNote } from '../format/issues.js';
import { isStatus } from '../gitlab/client.js';
import * as arg from '../names.js';
import { diffPosition } from '../review/position.js';
import type { GitLabTool } from '../toolsets.js';
import { contentNote, formatAuthored, projectBase, projectTool, scopeNote } from './common.js';

const pages = pageShapeFor('GitLab');

/** A discussion id: 40 hex digits (GitLab's sha1-shaped ids), sent as a path segment. */
export const discussionId = () =>
  z
    .string()
    .regex(/^[0-9a-f]{1,64}$/)
    .describe('Thread id');

/** The line arguments of a diff comment (shared with draft notes). */
export const lineArgs = {
  path: arg.repoPath('File path').optional(),
  new_line: arg.id('New-file line').optional(),
  old_line: arg.id('Old-file line').optional(),
  start_line: arg.id('Range start').optional(),
  start_side: z.enum(['new', 'old']).optional(),
  head_sha: arg.ref('Expected head sha').optional(),
};

export function discussionTools(config: Config): GitLabTool[] {
  /** True when the merge request's discussion `id` is found (first 10 pages of 100) and has no resolvable note. */
  const unresolvable = async (mr: string, id: string, signal: AbortSignal): Promise<boolean> => {
    for (let page = 1; page <= 10; page++) {
      const { items, info } = await config.gitlab.list(`${mr}/discussions`, {}, page, 100, signal);
      const found = items.map(obj).find((d) => d.id === id);
      if (found)
        return found.individual_note === true || !arr(found.notes).some((n) => obj(n).resolvable === true);
      if (!info.hasMore) return false;
    }
    return false;
  };
  const scope = scopeNote(config);
  const content = contentNote(config);
  const mrPath = (project_id: string, n: number) => `${projectBase(config, project_id)}/merge_requests/${n}`;
  const created = (raw: unknown, verb: string, project_id: string, n: number) => {
    const d = obj(raw);
    const text = new UntrustedText();
    const id = str(d.id) ?? str(obj(raw).discussion_id);
    const first = arr(d.notes)[0] ?? raw;
    const note = toNote(first, text, config.budgets.bodyBytes, undefined, id);
    return respond({ note }, [`${verb} on !${n} of ${project_id}: ${renderNote(note)}`], text);
  };
  return [
    projectTool(config, {
      name: 'list_merge_request_discussions',
      title: 'List merge request discussions',
      toolset: 'merge_requests',
      description: `A merge request's threads: ids, resolved state, diff lines, replies.${content}${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ notes: z.array(noteShape), ...pages, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, merge_request_iid, page = 1, per_page = 20 }, { signal }) => {
        const base = projectBase(config, project_id);
        const res = await config.gitlab.list(
          `${mrPath(project_id, merge_request_iid)}/discussions`,
          {},
          page,
          per_page,
          signal,
        );
        const text = new UntrustedText();
        const threads = res.items.map((d) => ({ id: str(obj(d).id), notes: arr(obj(d).notes) }));
        const notes = (
          await Promise.all(
            threads.map((t) =>
              formatAuthored(config, base, t.notes, signal, (raw, withheld) =>
                toNote(raw, text, config.budgets.listBodyBytes * 4, withheld, t.id),
              ),
            ),
          )
        ).flat();
        return respond(
          { notes, ...pageFields(res.info) },
          [
            ...notes.map((n) => `${renderNote(n)}\n${block('note', n.body)}`),
            pageLine(res.info, threads.length, 'discussions'),
          ],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'create_merge_request_thread',
      title: 'Start merge request thread',
      toolset: 'merge_requests',
      description: `Start a thread, general or on a diff line; suggestions are checked first.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
        body: arg.text('Markdown'),
        ...lineArgs,
      }),
      outputSchema: z.object({ note: noteShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, merge_request_iid, body, path, ...line }, { signal }) => {
        const base = projectBase(config, project_id);
        const mr = mrPath(project_id, merge_request_iid);
        if (!path && (line.new_line || line.old_line || line.start_line))
          throw new ToolError('new_line/old_line/start_line need path (the file the line is in).');
        if (!path && hasSuggestion(body))
          throw new ToolError(
            'A suggestion goes on a diff line: give path and new_line. Nothing was posted.',
          );
        const placed = path
          ? await diffPosition(config, base, mr, { path, ...line }, body, signal)
          : undefined;
        const raw = await config.gitlab.write(
          'POST',
          `${mr}/discussions`,
          compact({ body: placed?.body ?? body, position: placed?.position }),
          signal,
        );
        return created(raw, 'Started thread', project_id, merge_request_iid);
      },
    }),

    projectTool(config, {
      name: 'create_merge_request_discussion_note',
      title: 'Reply in merge request thread',
      toolset: 'merge_requests',
      description: `Reply in an existing thread of a merge request.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
        discussion_id: discussionId(),
        body: arg.text('Markdown'),
      }),
      outputSchema: z.object({ note: noteShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, merge_request_iid, discussion_id, body }, { signal }) => {
        if (hasSuggestion(body))
          throw new ToolError(
            'Suggestions are checked on the line they replace: start a thread with create_merge_request_thread (path, new_line) instead. Nothing was posted.',
          );
        const raw = await config.gitlab.write(
          'POST',
          `${mrPath(project_id, merge_request_iid)}/discussions/${discussion_id}/notes`,
          { body },
          signal,
        );
        const text = new UntrustedText();
        const note = toNote(raw, text, config.budgets.bodyBytes, undefined, discussion_id);
        return respond(
          { note },
          [`Replied in thread ${discussion_id} of !${merge_request_iid}: note ${note.id ?? '?'}.`],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'resolve_merge_request_thread',
      title: 'Resolve merge request thread',
      toolset: 'merge_requests',
      description: `Resolve a merge request thread (resolved false reopens it).${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
        discussion_id: discussionId(),
        resolved: z.boolean().optional().describe('Default true'),
      }),
      outputSchema: z.object({ discussion: z.string(), resolved: z.boolean() }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ project_id, merge_request_iid, discussion_id, resolved = true }, { signal }) => {
        const path = `${mrPath(project_id, merge_request_iid)}/discussions/${discussion_id}`;
        let raw: Record<string, unknown>;
        try {
          raw = obj(await config.gitlab.write('PUT', path, { resolved }, signal));
        } catch (error) {
          // GitLab answers 403 both without the right and for a discussion that cannot be resolved
          // (lib/api/helpers/notes_helpers.rb: forbidden! unless discussion.can_resolve?): tell which.
          if (
            isStatus(error, 403) &&
            (await unresolvable(mrPath(project_id, merge_request_iid), discussion_id, signal))
          )
            throw new ToolError(
              `Thread ${discussion_id} of !${merge_request_iid} is not resolvable (an individual note); only threads can be resolved.`,
            );
          throw error;
        }
        const notes = arr(raw.notes)
          .map(obj)
          .filter((n) => n.resolvable);
        const now = notes.length ? notes.every((n) => n.resolved === true) : resolved;
        return respond({ discussion: discussion_id, resolved: now }, [
          `Thread ${discussion_id} of !${merge_request_iid} is ${now ? 'resolved' : 'unresolved'}.`,
        ]);
      },
    }),
  ];
}
