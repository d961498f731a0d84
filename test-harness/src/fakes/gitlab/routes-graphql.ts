// The fake GitLab's GraphQL endpoint (POST /api/graphql beside the REST API's /api/v4; at a path
// for an instance at a path): every query is parsed and validated against the schema subset
// (graphql-schema.ts) before anything runs; an invalid one gets GitLab's answer (HTTP 200,
// {"errors": [...]}) and is kept in `FakeGitLab.graphqlRejected` for tests to assert on. Valid
// operations run with graphql-js's executor over the fake's state, so the answer has exactly the
// shape the query asked for. Served: namespace(fullPath) → visibility, workItem(iid) → the notes
// widget's discussions (cursor pages, filter, internal notes only for Reporter and above,
// maxAccessLevelOfAuthor); mutation createNote (new thread or reply by discussionId).
import { execute, GraphQLError } from 'graphql';
import type { FakeReply, FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import { gitlabGraphqlSchema } from './graphql-schema.js';
import { authenticate, type GitLabCaller, Reply } from './http.js';
import {
  fullPath,
  type GitLabState,
  GUEST,
  type NamespaceRecord,
  type NoteRecord,
  type ProjectRecord,
  REPORTER,
  type WorkItemRecord,
} from './state.js';

/** The GraphQL path beside a REST prefix: "/api/v4" → "/api/graphql", "/gitlab/api/v4" → "/gitlab/api/graphql". */
export function graphqlPath(prefix: string): string {
  return `${prefix.replace(/\/v4$/, '')}/graphql`;
}

/** GitLab's answer when a resource is missing or hidden (it does not say which). */
const NO_ACCESS =
  "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

/** GitLab's human access level names (Gitlab::Access.human_access); non-members have none (null). */
const HUMAN: Record<number, string> = {
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

interface Ctx {
  state: GitLabState;
  who: GitLabCaller | undefined;
  /** FakeGitLab.graphqlNullVisibility. */
  nullVisibility: boolean;
}

/** A namespace a work item can live in: a group (with its ancestors) or a project. */
type Holder = { kind: 'group'; group: NamespaceRecord } | { kind: 'project'; project: ProjectRecord };

function holder(state: GitLabState, path: string): Holder | undefined {
  const group = state.namespaceByPath(path);
  if (group?.kind === 'group') return { kind: 'group', group };
  const project = state.project(path);
  return project && !/^\d+$/.test(path) ? { kind: 'project', project } : undefined;
}

function level(ctx: Ctx, h: Holder, userId = ctx.who?.user.id): number {
  if (userId === undefined) return 0;
  if (h.kind === 'project') return ctx.state.accessLevel(h.project, userId);
  let best = 0;
  for (let ns: NamespaceRecord | null = h.group; ns; ns = ns.parent)
    best = Math.max(best, ns.members.get(userId) ?? 0);
  return best;
}

function visibility(h: Holder): string {
  return h.kind === 'group' ? h.group.visibility : h.project.visibility;
}

function canSee(ctx: Ctx, h: Holder): boolean {
  if (h.kind === 'project') return ctx.state.canSee(h.project, ctx.who?.user.id);
  if (h.group.visibility === 'public') return true;
  if (h.group.visibility === 'internal') return ctx.who !== undefined;
  return level(ctx, h) >= GUEST;
}

function holderPath(h: Holder): string {
  return h.kind === 'group' ? h.group.fullPath : fullPath(h.project);
}

const cursor = (index: number) => Buffer.from(JSON.stringify({ offset: index })).toString('base64');

function offsetOf(after: string | null | undefined): number {
  if (!after) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(after, 'base64').toString('utf8')) as { offset?: unknown };
    if (typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0) return offset + 1;
  } catch {}
  throw new GraphQLError('Please provide a valid cursor');
}

function noteNode(ctx: Ctx, h: Holder, item: WorkItemRecord, note: NoteRecord): Record<string, unknown> {
  const author = ctx.state.user(note.authorId);
  return {
    id: `gid://gitlab/Note/${note.id}`,
    body: note.body,
    system: note.system,
    internal: note.internal === true,
    createdAt: note.createdAt,
    author: { username: author?.username ?? 'ghost' },
    maxAccessLevelOfAuthor: HUMAN[level(ctx, h, note.authorId)] ?? null,
    discussion: () => discussionNode(ctx, h, item, visibleNotes(ctx, h, item, note.discussionId)),
  };
}

function visibleNotes(ctx: Ctx, h: Holder, item: WorkItemRecord, discussionId?: string): NoteRecord[] {
  const internalOk = level(ctx, h) >= REPORTER;
  return item.notes.filter(
    (n) => (internalOk || !n.internal) && (discussionId === undefined || n.discussionId === discussionId),
  );
}

function discussionNode(ctx: Ctx, h: Holder, item: WorkItemRecord, notes: NoteRecord[]) {
  return {
    id: `gid://gitlab/Discussion/${notes[0]?.discussionId ?? ''}`,
    notes: { nodes: notes.map((n) => noteNode(ctx, h, item, n)) },
  };
}

function discussions(
  ctx: Ctx,
  h: Holder,
  item: WorkItemRecord,
  args: { first?: number | null; after?: string | null; filter?: string | null },
) {
  const first = Math.min(100, Math.max(0, args.first ?? 100));
  const byThread = new Map<string, NoteRecord[]>();
  for (const n of visibleNotes(ctx, h, item)) {
    if (args.filter === 'ONLY_COMMENTS' && n.system) continue;
    if (args.filter === 'ONLY_ACTIVITY' && !n.system) continue;
    byThread.set(n.discussionId, [...(byThread.get(n.discussionId) ?? []), n]);
  }
  const all = [...byThread.values()];
  const start = offsetOf(args.after);
  const page = all.slice(start, start + first);
  const last = start + page.length - 1;
  return {
    pageInfo: { hasNextPage: start + page.length < all.length, endCursor: page.length ? cursor(last) : null },
    nodes: page.map((notes) => discussionNode(ctx, h, item, notes)),
  };
}

function workItemNode(ctx: Ctx, h: Holder, item: WorkItemRecord) {
  return {
    id: `gid://gitlab/WorkItem/${item.id}`,
    iid: String(item.iid),
    title: item.title,
    widgets: [
      {
        __typename: 'WorkItemWidgetNotes',
        type: 'NOTES',
        discussions: (args: Parameters<typeof discussions>[3]) => discussions(ctx, h, item, args),
      },
    ],
  };
}

function namespaceNode(ctx: Ctx, path: string) {
  const h = holder(ctx.state, path);
  if (!h || !canSee(ctx, h)) return null;
  return {
    visibility: ctx.nullVisibility ? null : visibility(h),
    workItem: ({ iid }: { iid: string }) => {
      const item = ctx.state.workItems.find(
        (w) => String(w.iid) === iid && w.namespacePath.toLowerCase() === holderPath(h).toLowerCase(),
      );
      return item ? workItemNode(ctx, h, item) : null;
    },
  };
}

interface CreateNoteInput {
  noteableId: string;
  body: string;
  discussionId?: string | null;
  internal?: boolean | null;
}

function createNote(ctx: Ctx, input: CreateNoteInput) {
  const who = ctx.who;
  // A read_api token cannot write; GitLab hides why.
  if (!who?.scopes.includes('api')) throw new GraphQLError(NO_ACCESS);
  const id = /^gid:\/\/gitlab\/(?:WorkItem|Issue)\/(\d+)$/.exec(input.noteableId)?.[1];
  const item = ctx.state.workItems.find((w) => String(w.id) === id);
  const h = item && holder(ctx.state, item.namespacePath);
  if (!item || !h || !canSee(ctx, h)) throw new GraphQLError(NO_ACCESS);
  if (input.internal && level(ctx, h) < REPORTER) throw new GraphQLError(NO_ACCESS);
  if (!input.body.trim()) return { errors: ["Note can't be blank"], note: null };
  let reply: NoteRecord | undefined;
  if (input.discussionId) {
    const hex = /^gid:\/\/gitlab\/Discussion\/([0-9a-f]{40})$/.exec(input.discussionId)?.[1];
    reply = visibleNotes(ctx, h, item).find((n) => n.discussionId === hex);
    if (!reply) throw new GraphQLError(NO_ACCESS);
  }
  const note = ctx.state.addNote(item, who.user.id, input.body, {
    ...(reply ? { reply } : {}),
    ...(input.internal ? { internal: true } : {}),
  });
  return { errors: [], note: noteNode(ctx, h, item, note) };
}

function errorJson(e: GraphQLError) {
  return {
    message: e.message,
    ...(e.locations ? { locations: e.locations } : {}),
    ...(e.path ? { path: e.path } : {}),
  };
}

/** Registers the GraphQL endpoint on `gl` (see the module comment). */
export function registerGraphqlRoute(gl: FakeGitLab, prefix: string): void {
  gl.api.rootRoute('POST', graphqlPath(prefix), async (req: FakeRequest): Promise<FakeReply> => {
    let who: GitLabCaller | undefined;
    try {
      who = authenticate(gl.state, req);
    } catch (error) {
      if (error instanceof Reply) return error.reply;
      throw error;
    }
    let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      payload = JSON.parse(req.body) as typeof payload;
    } catch {
      return { status: 400, body: { errors: [{ message: 'Invalid JSON' }] } };
    }
    if (typeof payload.query !== 'string')
      return { status: 200, body: { errors: [{ message: 'No query string was present' }] } };
    const checked = gl.checkQuery(payload.query);
    if (checked.errors) {
      gl.graphqlRejected.push({ query: payload.query, errors: checked.errors.map((e) => e.message) });
      return { status: 200, body: { errors: checked.errors.map(errorJson) } };
    }
    const ctx: Ctx = { state: gl.state, who, nullVisibility: gl.graphqlNullVisibility };
    const result = await execute({
      schema: gitlabGraphqlSchema(),
      document: checked.document,
      rootValue: {
        namespace: ({ fullPath: path }: { fullPath: string }) => namespaceNode(ctx, path),
        createNote: ({ input }: { input: CreateNoteInput }) => createNote(ctx, input),
      },
      variableValues: (payload.variables ?? {}) as Record<string, unknown>,
      ...(typeof payload.operationName === 'string' ? { operationName: payload.operationName } : {}),
    });
    return {
      status: 200,
      body: {
        ...(result.data !== undefined ? { data: result.data } : {}),
        ...(result.errors?.length ? { errors: result.errors.map(errorJson) } : {}),
      },
    };
  });
}
