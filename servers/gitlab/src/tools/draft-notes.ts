/**
 * Draft notes: a pending review of a merge request. Comments (general, on a diff line, or replies
 * to a thread) collect as drafts only their author sees, and are published at once, with an
 * optional summary and reviewer state. Names of the community GitLab MCP server
 * (zereight/gitlab-mcp: create_draft_note, list_draft_notes, delete_draft_note,
 * bulk_publish_draft_notes); docs.gitlab.com/api/draft_notes. A draft on a line gets its position
 * and suggestion check from review/position.ts, like create_merge_request_thread.
 */
import { compact, hasSuggestion, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { bool, num, obj, positionLabel, str } from '../format/common.js';
import * as arg from '../names.js';
import { diffPosition } from '../review/position.js';
import type { GitLabTool } from '../toolsets.js';
import { projectBase, projectTool, scopeNote } from './common.js';
import { discussionId, lineArgs } from './discussions.js';

const draftShape = z.object({
  id: z.number().optional(),
  discussion: z.string().optional().describe('Thread it replies to'),
  position: z.string().optional().describe('file:line or file:first-last'),
  resolvesThread: z.boolean().optional(),
  body: z.string(),
});
type Draft = z.infer<typeof draftShape>;

function toDraft(raw: unknown, text: UntrustedText, bodyBytes: number): Draft {
  const d = obj(raw);
  return compact({
    id: num(d.id),
    discussion: str(d.discussion_id),
    position: positionLabel(d.position, (s) => text.line(s)),
    resolvesThread: bool(d.resolve_discussion) || undefined,
    body: text.clean(str(d.note), bodyBytes, 'list fewer drafts'),
  });
}

const renderDraft = (d: Draft) =>
  `Draft ${d.id ?? '?'}${d.position ? ` on ${d.position}` : ''}${d.discussion ? ` replying in thread ${d.discussion}` : ''}${d.resolvesThread ? ' (resolves it)' : ''}`;

export function draftNoteTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  const drafts = (project_id: string, n: number) =>
    `${projectBase(config, project_id)}/merge_requests/${n}/draft_notes`;
  return [
    projectTool(config, {
      name: 'create_draft_note',
      title: 'Add draft review comment',
      toolset: 'merge_requests',
      description: `Add a pending review comment (general, on a line, or a reply); bulk_publish_draft_notes posts them.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
        body: arg.text('Markdown'),
        ...lineArgs,
        in_reply_to_discussion_id: discussionId().optional(),
        resolve_discussion: z.boolean().optional().describe('Resolve it on publish'),
      }),
      outputSchema: z.object({ draft: draftShape, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async (args, { signal }) => {
        const {
          project_id,
          merge_request_iid,
          body,
          path,
          in_reply_to_discussion_id,
          resolve_discussion,
          ...line
        } = args;
        const base = projectBase(config, project_id);
        const mr = `${base}/merge_requests/${merge_request_iid}`;
        if (!path && (line.new_line || line.old_line || line.start_line))
          throw new ToolError('new_line/old_line/start_line need path (the file the line is in).');
        if (path && in_reply_to_discussion_id)
          throw new ToolError(
            'Give path/line for a new diff thread or in_reply_to_discussion_id for a reply, not both.',
          );
        if (!path && hasSuggestion(body))
          throw new ToolError('A suggestion goes on a diff line: give path and new_line. Nothing was saved.');
        // The Draft Notes API refuses line numbers inside line_range (gitlab-org/gitlab#571619).
        const placed = path
          ? await diffPosition(config, base, mr, { path, ...line }, body, signal, false)
          : undefined;
        const raw = await config.gitlab.write(
          'POST',
          drafts(project_id, merge_request_iid),
          compact({
            note: placed?.body ?? body,
            position: placed?.position,
            in_reply_to_discussion_id,
            resolve_discussion,
          }),
          signal,
        );
        const text = new UntrustedText();
        const draft = toDraft(raw, text, config.budgets.bodyBytes);
        return respond(
          { draft },
          [
            `${renderDraft(draft)} saved on !${merge_request_iid}; it is visible only to you until published.`,
          ],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'list_draft_notes',
      title: 'List draft review comments',
      toolset: 'merge_requests',
      description: `Your unpublished review comments on a merge request.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
      }),
      outputSchema: z.object({ drafts: z.array(draftShape), ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, merge_request_iid }, { signal }) => {
        const raw = await config.gitlab.get<unknown[]>(
          drafts(project_id, merge_request_iid),
          undefined,
          signal,
        );
        const text = new UntrustedText();
        const list = (Array.isArray(raw) ? raw : []).map((d) =>
          toDraft(d, text, config.budgets.listBodyBytes * 4),
        );
        return respond(
          { drafts: list },
          list.length
            ? list.map((d) => `${renderDraft(d)}\n${block('draft', d.body)}`)
            : [`No pending drafts on !${merge_request_iid}.`],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'delete_draft_note',
      title: 'Delete draft review comment',
      toolset: 'merge_requests',
      description: `Delete one of your draft comments.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
        draft_note_id: arg.id('Draft id'),
      }),
      outputSchema: z.object({ deleted: z.number() }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ project_id, merge_request_iid, draft_note_id }, { signal }) => {
        await config.gitlab.write(
          'DELETE',
          `${drafts(project_id, merge_request_iid)}/${draft_note_id}`,
          undefined,
          signal,
        );
        return respond({ deleted: draft_note_id }, [
          `Deleted draft ${draft_note_id} of !${merge_request_iid}.`,
        ]);
      },
    }),

    projectTool(config, {
      name: 'bulk_publish_draft_notes',
      title: 'Publish review',
      toolset: 'merge_requests',
      description: `Publish all your draft comments at once, with an optional summary.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: arg.iid('merge_request_iid'),
        note: arg.text('Summary comment').optional(),
        reviewer_state: z.enum(['reviewed', 'requested_changes']).optional(),
      }),
      outputSchema: z.object({ published: z.boolean() }),
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, merge_request_iid, note, reviewer_state }, { signal }) => {
        // GitLab lists only the caller's drafts (the ones bulk_publish publishes).
        const pending = await config.gitlab.list(drafts(project_id, merge_request_iid), {}, 1, 1, signal);
        if (!pending.items.length)
          return respond({ published: false }, [
            `No draft notes to publish on !${merge_request_iid}: nothing was posted.${note ? ' For the summary alone use add_merge_request_note.' : ''}`,
          ]);
        await config.gitlab.write(
          'POST',
          `${drafts(project_id, merge_request_iid)}/bulk_publish`,
          compact({ note, reviewer_state }),
          signal,
        );
        return respond({ published: true }, [
          `Published your drafts on !${merge_request_iid}${reviewer_state ? ` (${reviewer_state})` : ''}.`,
        ]);
      },
    }),
  ];
}
