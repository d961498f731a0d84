/**
 * Work-item notes over GraphQL, where the REST issue routes are gone: a group epic has been a work
 * item since GitLab 17.2 (the REST epics API is deprecated) and group-level work items are reached
 * only through the GraphQL Work Items API (https://docs.gitlab.com/api/graphql/reference/#workitem).
 * Names and arguments follow the community GitLab MCP server (zereight/gitlab-mcp:
 * list_work_item_notes, create_work_item_note with project_id — a group or project path — iid,
 * body, discussion_id, internal); pages are discussions, by cursor (`after`).
 *
 * Scope: the namespace must be inside --projects (an allowed project, or a group at or inside a
 * `grp/*` entry: scope.ts, allowsNamespace) before any request. Lockdown: on a public namespace
 * (or one whose visibility GitLab does not give: lockdown.ts, screensVisibility) a
 * note whose author's `maxAccessLevelOfAuthor` is below Developer (or unknown) is withheld, as
 * the REST tools do by member lookup (lockdown.ts); the work item's title, whose author is not
 * checked, is withheld too.
 */
import { compact, OPEN_WORLD_HINTS, type Scope, scopedTool, ToolError } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UNTRUSTED_NOTICE, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { screensVisibility } from '../lockdown.js';
import * as arg from '../names.js';
import type { GitLabTool } from '../toolsets.js';
import { contentNote, scopeNote } from './common.js';

/** Human access levels (GitLab's `maxAccessLevelOfAuthor`) at or above Developer. */
const DEVELOPER_OR_ABOVE = new Set(['Developer', 'Maintainer', 'Owner', 'Admin']);

const NOTE_FIELDS = 'id body system internal createdAt author { username } maxAccessLevelOfAuthor';

const LIST_NOTES = `query WorkItemNotes($fullPath: ID!, $iid: String!, $first: Int!, $after: String) {
  namespace(fullPath: $fullPath) {
    visibility
    workItem(iid: $iid) {
      title
      widgets {
        ... on WorkItemWidgetNotes {
          discussions(first: $first, after: $after, filter: ALL_NOTES) {
            pageInfo { hasNextPage endCursor }
            nodes { id notes { nodes { ${NOTE_FIELDS} } } }
          }
        }
      }
    }
  }
}`;

const WORK_ITEM_ID = `query WorkItemId($fullPath: ID!, $iid: String!) {
  namespace(fullPath: $fullPath) { workItem(iid: $iid) { id } }
}`;

const CREATE_NOTE = `mutation CreateWorkItemNote($input: CreateNoteInput!) {
  createNote(input: $input) {
    errors
    note { ${NOTE_FIELDS} discussion { id } }
  }
}`;

interface RawNote {
  id?: string;
  body?: string;
  system?: boolean;
  internal?: boolean | null;
  createdAt?: string;
  author?: { username?: string } | null;
  maxAccessLevelOfAuthor?: string | null;
  discussion?: { id?: string } | null;
}

interface RawDiscussion {
  id?: string;
  notes?: { nodes?: Array<RawNote | null> | null } | null;
}

/** A group or project full path (no numeric ids: GraphQL's `namespace(fullPath)` takes paths only). */
const namespacePath = () =>
  safeString({ max: 1024 })
    .refine((v) => !/^[0-9]+$/.test(v) && arg.isGroupId(v), {
      message: 'must be a group or project full path (grp, grp/sub or grp/proj; no "." or ".." segments)',
    })
    .describe('Full path of the group or project holding the work item');

/** A discussion id: GitLab's 40 hex digits, or the whole `gid://gitlab/Discussion/…` global id. */
const discussionArg = () =>
  z
    .string()
    .regex(/^(gid:\/\/gitlab\/Discussion\/)?[0-9a-f]{40}$/)
    .describe('Thread id to reply in (from list_work_item_notes)');

const noteShape = z.object({
  id: z.number().optional(),
  author: z.string().optional(),
  createdAt: z.string().optional(),
  system: z.boolean().optional(),
  internal: z.boolean().optional().describe('Internal note (visible to Reporter and above)'),
  withheld: z.boolean().optional(),
  body: z.string(),
});
type Note = z.infer<typeof noteShape>;

const shortId = (gid: string | undefined, kind: string): string | undefined =>
  gid?.startsWith(`gid://gitlab/${kind}/`) ? gid.slice(`gid://gitlab/${kind}/`.length) : gid;

function withheldText(username: string | undefined): string {
  return `[withheld by --lockdown: ${username ?? 'unknown user'} has less than Developer access to this public namespace]`;
}

function toNote(raw: RawNote, text: UntrustedText, bodyBytes: number, withhold: boolean): Note {
  const username = raw.author?.username;
  const id = Number(shortId(raw.id, 'Note'));
  const withheld = withhold && !DEVELOPER_OR_ABOVE.has(raw.maxAccessLevelOfAuthor ?? '');
  return compact({
    id: Number.isSafeInteger(id) ? id : undefined,
    author: username ? text.line(username) : undefined,
    createdAt: raw.createdAt,
    system: raw.system || undefined,
    internal: raw.internal || undefined,
    withheld: withheld || undefined,
    body: withheld ? withheldText(username) : text.clean(raw.body ?? '', bodyBytes, 'narrow with per_page'),
  });
}

function renderNote(n: Note, thread: string | undefined): string {
  const facts = [n.system ? 'system' : '', n.internal ? 'internal' : ''].filter(Boolean);
  return `Note ${n.id ?? '?'} by ${n.author ?? '?'} at ${n.createdAt ?? '?'}${thread ? ` [thread ${thread}]` : ''}${facts.length ? ` (${facts.join(', ')})` : ''}`;
}

export function workItemTools(config: Config): GitLabTool[] {
  const scope = scopeNote(config);
  // Before any request: the namespace must be inside --projects (scope.ts, allowsNamespace).
  const namespaceScope: Scope<[string]> | undefined = config.scope && {
    check: (path: string) => config.scope?.checkNamespace(path),
  };
  const notFound = (project_id: string, iid: number) =>
    new ToolError(`No work item ${iid} in ${project_id}, or the token cannot see it.`);

  const list = scopedTool(namespaceScope, (a: { project_id: string }): [string] => [a.project_id], {
    name: 'list_work_item_notes',
    title: 'List work item notes',
    toolset: 'work_items',
    description: `List a work item's (e.g. a group epic's) discussions and notes, oldest first: thread ids, authors, system and internal flags. Cursor-paged.${contentNote(config)}${scope}`,
    inputSchema: z.strictObject({
      project_id: namespacePath(),
      iid: arg.id('Work item iid'),
      per_page: arg.perPage().describe('Discussions per page (default 20)'),
      after: safeString({ max: 200 }).optional().describe('nextCursor of the previous page'),
    }),
    outputSchema: z.object({
      title: z.string().optional(),
      discussions: z.array(z.object({ id: z.string().optional(), notes: z.array(noteShape) })),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable(),
      ...neutralizedField,
    }),
    annotations: OPEN_WORLD_HINTS.readOnly,
    handler: async ({ project_id, iid, per_page = 20, after }, { signal }) => {
      const data = await config.gitlab.graphql<{
        namespace: {
          visibility?: string | null;
          workItem: {
            title?: string;
            widgets?: Array<{
              discussions?: {
                pageInfo: { hasNextPage: boolean; endCursor: string | null };
                nodes?: Array<RawDiscussion | null> | null;
              } | null;
            } | null> | null;
          } | null;
        } | null;
      }>(
        LIST_NOTES,
        { fullPath: project_id, iid: String(iid), first: per_page, after: after ?? null },
        signal,
      );
      const item = data.namespace?.workItem;
      if (!item) throw notFound(project_id, iid);
      const widget = item.widgets?.find((w) => w?.discussions)?.discussions;
      if (!widget) throw new ToolError(`Work item ${iid} in ${project_id} has no notes widget.`);
      const withhold = config.lockdown.enabled && screensVisibility(data.namespace?.visibility);
      const text = new UntrustedText();
      const discussions = (widget.nodes ?? [])
        .filter((d): d is RawDiscussion => !!d)
        .map((d) => ({
          ...(d.id ? { id: shortId(d.id, 'Discussion') } : {}),
          notes: (d.notes?.nodes ?? [])
            .filter((n): n is RawNote => !!n)
            .map((n) => toNote(n, text, config.budgets.listBodyBytes, withhold)),
        }));
      const title = withhold ? '[withheld]' : text.line(item.title ?? '');
      const next = widget.pageInfo.hasNextPage ? widget.pageInfo.endCursor : null;
      return respond(
        { title, discussions, hasMore: next !== null, nextCursor: next },
        [
          `${project_id} work item ${iid}${withhold ? ' (title withheld by --lockdown)' : ''}: ${discussions.length} discussions${next ? `; more with after="${next}"` : ''}.`,
          withhold ? '' : block('work item title', title),
          ...discussions.flatMap((d) =>
            d.notes.map((n) => `${renderNote(n, d.id)}\n${block('note', n.body)}`),
          ),
        ],
        text,
      );
    },
  });

  const create = scopedTool(namespaceScope, (a: { project_id: string }): [string] => [a.project_id], {
    name: 'create_work_item_note',
    title: 'Comment on work item',
    toolset: 'work_items',
    description: `Add a note to a work item (e.g. a group epic), or reply in one of its threads with discussion_id.${scope}`,
    inputSchema: z.strictObject({
      project_id: namespacePath(),
      iid: arg.id('Work item iid'),
      body: arg.text('Note text (Markdown)'),
      discussion_id: discussionArg().optional(),
      internal: z.boolean().optional().describe('Internal note (Reporter and above see it)'),
    }),
    outputSchema: z.object({ discussion: z.string().optional(), note: noteShape, ...neutralizedField }),
    annotations: OPEN_WORLD_HINTS.additive,
    handler: async ({ project_id, iid, body, discussion_id, internal }, { signal }) => {
      const found = await config.gitlab.graphql<{ namespace: { workItem: { id: string } | null } | null }>(
        WORK_ITEM_ID,
        { fullPath: project_id, iid: String(iid) },
        signal,
      );
      const noteableId = found.namespace?.workItem?.id;
      if (!noteableId) throw notFound(project_id, iid);
      const discussionId = discussion_id
        ? `gid://gitlab/Discussion/${shortId(discussion_id, 'Discussion')}`
        : undefined;
      const res = await config.gitlab.graphql<{
        createNote: { errors?: string[]; note: RawNote | null } | null;
      }>(
        CREATE_NOTE,
        {
          input: {
            noteableId,
            body,
            ...(discussionId ? { discussionId } : {}),
            ...(internal ? { internal: true } : {}),
          },
        },
        signal,
      );
      const errors = res.createNote?.errors ?? [];
      const raw = res.createNote?.note;
      if (errors.length || !raw)
        // GitLab's messages can quote what was sent (or a third party's text): labelled as data.
        throw new ToolError(
          errors.length
            ? `GitLab did not add the note. ${UNTRUSTED_NOTICE}\n${block('GitLab errors', new UntrustedText().clean(errors.join('\n'), 500))}`
            : 'GitLab did not add the note: no note returned.',
        );
      const text = new UntrustedText();
      const note = toNote(raw, text, config.budgets.bodyBytes, false);
      const thread = shortId(raw.discussion?.id, 'Discussion');
      return respond(
        { ...(thread ? { discussion: thread } : {}), note },
        [
          `${discussionId ? 'Replied' : 'Added note'} on work item ${iid} of ${project_id}: ${renderNote(note, thread)}`,
        ],
        text,
      );
    },
  });

  return [list, create];
}
