/**
 * Merge requests: create_merge_request (reference name and arguments), list, get, update, the
 * changed files and one file's diff (`/diffs`, not `/changes`, deprecated since 15.7),
 * notes, approve and merge (threads: discussions.ts).
 */
import { compact, OPEN_WORLD_HINTS, pageFields, pageLine, pageShapeFor } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { arr, obj, str } from '../format/common.js';
import { mergeRequestShape, renderIssuable, toMergeRequest } from '../format/issues.js';
import { type DiffRefs, diffShape, renderDiff, toDiffs } from '../format/repo.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { contentNote, formatAuthored, projectBase, projectTool, scopeNote, withheldFor } from './common.js';
import { noteTools } from './notes.js';

const pages = pageShapeFor('GitLab');
const iid = () => arg.iid('merge_request_iid');

export function mergeRequestTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  const content = contentNote(config);
  const one = z.object({ merge_request: mergeRequestShape, ...neutralizedField });
  const mrPath = (project_id: string, n: number) => `${projectBase(config, project_id)}/merge_requests/${n}`;
  const show = async (project_id: string, raw: unknown, verb: string, signal: AbortSignal) => {
    const text = new UntrustedText();
    const withheld = await withheldFor(config, projectBase(config, project_id), raw, signal);
    const mr = toMergeRequest(raw, text, config.budgets.bodyBytes, withheld);
    return respond(
      { merge_request: mr },
      [
        `${verb}${renderIssuable(mr, '!')} in ${project_id}${mr.webUrl ? ` — ${mr.webUrl}` : ''}`,
        mr.mergeStatus ? `Merge status: ${mr.mergeStatus}${mr.sha ? `, head ${mr.sha}` : ''}` : '',
        block('merge request description', mr.description ?? ''),
      ],
      text,
    );
  };
  /** The MR's base and head commits (`diff_refs`), else its target and source branches. */
  const diffRefs = async (project_id: string, n: number, signal: AbortSignal): Promise<DiffRefs> => {
    const mr = obj(await config.gitlab.get(mrPath(project_id, n), undefined, signal));
    const refs = obj(mr.diff_refs);
    return {
      from: str(refs.base_sha) ?? str(mr.target_branch),
      to: str(refs.head_sha) ?? str(mr.sha) ?? str(mr.source_branch) ?? `the source branch of !${n}`,
    };
  };
  return [
    projectTool(config, {
      name: 'create_merge_request',
      title: 'Create merge request',
      toolset: 'merge_requests',
      description: `Open a merge request.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        title: arg.text('Title', 255),
        description: arg.text('Description (Markdown)').optional(),
        source_branch: arg.ref('Branch with the changes'),
        target_branch: arg.ref('Branch to merge into'),
        draft: z.boolean().optional().describe('Open as draft'),
        allow_collaboration: z
          .boolean()
          .optional()
          .describe('Let members who can merge push to the source branch'),
      }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.additive,
      handler: async ({ project_id, draft, title, ...fields }, { signal }) => {
        const raw = await config.gitlab.write(
          'POST',
          `${projectBase(config, project_id)}/merge_requests`,
          compact({ ...fields, title: draft && !/^draft:/i.test(title) ? `Draft: ${title}` : title }),
          signal,
        );
        return show(project_id, raw, 'Created ', signal);
      },
    }),

    projectTool(config, {
      name: 'list_merge_requests',
      title: 'List merge requests',
      toolset: 'merge_requests',
      description: `List a project's merge requests, newest first.${content}${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        state: z.enum(['opened', 'closed', 'locked', 'merged', 'all']).optional().describe('Default opened'),
        source_branch: arg.ref('Source branch').optional(),
        target_branch: arg.ref('Target branch').optional(),
        author_username: arg.text('Author username', 255).optional(),
        labels: z.array(arg.text(undefined, 255)).max(100).optional().describe('Label names'),
        search: arg.text('Text in title or description', 255).optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ merge_requests: z.array(mergeRequestShape), ...pages, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (
        { project_id, state = 'opened', labels, page = 1, per_page = 20, ...filters },
        { signal },
      ) => {
        const base = projectBase(config, project_id);
        const res = await config.gitlab.list(
          `${base}/merge_requests`,
          { ...filters, state, labels: labels?.join(',') },
          page,
          per_page,
          signal,
        );
        const text = new UntrustedText();
        const mrs = await formatAuthored(config, base, res.items, signal, (raw, withheld) =>
          toMergeRequest(raw, text, config.budgets.listBodyBytes, withheld),
        );
        return respond(
          { merge_requests: mrs, ...pageFields(res.info) },
          [
            ...mrs.map((m) => `- ${renderIssuable(m, '!')}`),
            pageLine(res.info, mrs.length, 'merge requests'),
          ],
          text,
        );
      },
    }),

    projectTool(config, {
      name: 'get_merge_request',
      title: 'Get merge request',
      toolset: 'merge_requests',
      description: `One merge request: description, branches, merge status and head sha.${content}${scope}`,
      inputSchema: z.strictObject({ project_id: arg.projectId(), merge_request_iid: iid() }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, merge_request_iid }, { signal }) =>
        show(
          project_id,
          await config.gitlab.get(mrPath(project_id, merge_request_iid), undefined, signal),
          '',
          signal,
        ),
    }),

    projectTool(config, {
      name: 'update_merge_request',
      title: 'Update merge request',
      toolset: 'merge_requests',
      description: `Change a merge request, or close/reopen it; only given fields change.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: iid(),
        title: arg.text('New title', 255).optional(),
        description: arg.text('New description (Markdown)').optional(),
        target_branch: arg.ref('New target branch').optional(),
        labels: z.array(arg.text(undefined, 255)).max(100).optional().describe('Replace the labels'),
        add_labels: z.array(arg.text(undefined, 255)).max(100).optional().describe('Add these'),
        remove_labels: z.array(arg.text(undefined, 255)).max(100).optional().describe('Remove these'),
        assignee_ids: z.array(arg.id()).max(100).optional().describe('Replace the assignees ([] for none)'),
        state_event: z.enum(['close', 'reopen']).optional(),
      }),
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.destructive,
      handler: async (
        { project_id, merge_request_iid, labels, add_labels, remove_labels, ...fields },
        { signal },
      ) => {
        const raw = await config.gitlab.write(
          'PUT',
          mrPath(project_id, merge_request_iid),
          compact({
            ...fields,
            labels: labels?.join(','),
            add_labels: add_labels?.join(','),
            remove_labels: remove_labels?.join(','),
          }),
          signal,
        );
        return show(project_id, raw, 'Updated ', signal);
      },
    }),

    projectTool(config, {
      name: 'get_merge_request_diffs',
      title: 'Get merge request changes',
      toolset: 'merge_requests',
      description: `The files a merge request changes with their diffs (cut at ${config.budgets.diffBytes / 1024} KiB), or one file's diff with file_path.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: iid(),
        file_path: arg.repoPath("Only this file's diff").optional(),
        page: arg.page(),
        per_page: arg.perPage(),
      }),
      outputSchema: z.object({ files: z.array(diffShape), ...pages, ...neutralizedField }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ project_id, merge_request_iid, file_path, page = 1, per_page = 20 }, { signal }) => {
        const res = await config.gitlab.list(
          `${mrPath(project_id, merge_request_iid)}/diffs`,
          {},
          page,
          per_page,
          signal,
        );
        const text = new UntrustedText();
        const wanted = file_path
          ? res.items.filter((d) => str(obj(d).new_path) === file_path || str(obj(d).old_path) === file_path)
          : res.items;
        const left = wanted.some((d) => !str(obj(d).diff) && (obj(d).too_large || obj(d).collapsed));
        const refs = left ? await diffRefs(project_id, merge_request_iid, signal) : undefined;
        const files = toDiffs(
          wanted,
          text,
          { left: config.budgets.diffBytes },
          'ask for one file with file_path',
          refs,
        );
        return respond(
          { files, ...pageFields(res.info) },
          [
            ...files.map((f) => block(`diff ${f.path}`, renderDiff(f))),
            file_path && !files.length ? `${file_path} is not among the changed files on this page.` : '',
            pageLine(res.info, files.length, 'files'),
          ],
          text,
        );
      },
    }),

    ...noteTools(config, {
      toolset: 'merge_requests',
      collection: 'merge_requests',
      iid: 'merge_request_iid',
      what: 'merge request',
      names: ['list_merge_request_notes', 'add_merge_request_note'],
    }),

    projectTool(config, {
      name: 'approve_merge_request',
      title: 'Approve merge request',
      toolset: 'merge_requests',
      description: `Approve a merge request as the token's user; with sha, only if its head is still that commit.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: iid(),
        sha: arg.ref('Expected head sha').optional(),
      }),
      outputSchema: z.object({ approvedBy: z.array(z.string()) }),
      annotations: OPEN_WORLD_HINTS.additiveIdempotent,
      handler: async ({ project_id, merge_request_iid, sha }, { signal }) => {
        const raw = obj(
          await config.gitlab.write(
            'POST',
            `${mrPath(project_id, merge_request_iid)}/approve`,
            compact({ sha }),
            signal,
          ),
        );
        const approvedBy = arr(raw.approved_by)
          .map((a) => str(obj(obj(a).user).username))
          .filter((u): u is string => !!u);
        return respond({ approvedBy }, [
          `Approved !${merge_request_iid} in ${project_id}.${approvedBy.length ? ` Approved by: ${approvedBy.join(', ')}.` : ''}`,
        ]);
      },
    }),

    projectTool(config, {
      name: 'merge_merge_request',
      title: 'Merge merge request',
      toolset: 'merge_requests',
      description: `Merge a merge request now; with sha, only if its head is still that commit.${scope}`,
      inputSchema: z.strictObject({
        project_id: arg.projectId(),
        merge_request_iid: iid(),
        sha: arg.ref('Expected head sha').optional(),
        squash: z.boolean().optional().describe('Squash the commits'),
        should_remove_source_branch: z
          .boolean()
          .optional()
          .describe('Delete the source branch after merging'),
        merge_commit_message: arg.text('Merge commit message', 65_536).optional(),
      }),
      confirm: (a) =>
        `Merge merge request !${a.merge_request_iid} of project ${a.project_id}${a.should_remove_source_branch ? ' and delete its source branch' : ''}?`,
      outputSchema: one,
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ project_id, merge_request_iid, ...fields }, { signal }) => {
        const raw = await config.gitlab.write(
          'PUT',
          `${mrPath(project_id, merge_request_iid)}/merge`,
          compact(fields),
          signal,
        );
        return show(project_id, raw, 'Merged ', signal);
      },
    }),
  ];
}
