// The fake GitHub's GraphQL endpoint (POST /graphql; /api/graphql beside a GHE-style /api/v3, where
// Octokit sends it): every query is parsed and validated against GitHub's public schema
// (graphql-schema.ts) before anything runs; an invalid one gets GitHub's answer (HTTP 200,
// {"errors": [...]}) and is kept in `FakeGitHub.graphqlRejected` for tests to assert on. Valid
// operations run with graphql-js's executor over the fake's state (objects-graphql.ts), so the
// answer has exactly the shape the query asked for. Served: repository → pullRequest →
// reviewThreads / reviews, node(id), viewer; mutations resolveReviewThread,
// unresolveReviewThread, addPullRequestReviewThread, submitPullRequestReview,
// deletePullRequestReview. Anonymous requests get 401, as on GitHub.
import { execute, type GraphQLError } from 'graphql';
import type { FakeReply, FakeRequest } from '../../fake-api/index.js';
import type { FakeGitHub } from './fake-github.js';
import { githubGraphqlSchema } from './graphql-schema.js';
import { authenticate, Reply } from './http.js';
import {
  changedPaths,
  decodeNodeId,
  type GraphqlContext,
  gqlError,
  repoNode,
  reviewNode,
  threadNode,
  userNode,
} from './objects-graphql.js';
import { pullChanges } from './objects-issues.js';
import type { IssueRecord, RepoRecord, ReviewCommentRecord, ReviewRecord } from './state.js';

type Pull = IssueRecord & { pull: NonNullable<IssueRecord['pull']> };

const GRAPHQL_DOCS = 'https://docs.github.com/graphql';

/** The path Octokit posts GraphQL to for a REST prefix: "/api/v3" → "/api/graphql", "" → "/graphql". */
export function graphqlPath(prefix: string): string {
  return prefix.endsWith('/v3') ? `${prefix.slice(0, -3)}/graphql` : `${prefix}/graphql`;
}

function errorJson(e: GraphQLError) {
  const type = e.extensions?.type;
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(e.path ? { path: e.path } : {}),
    ...(e.locations ? { locations: e.locations } : {}),
    message: e.message,
  };
}

/** Every thread (first comment) the viewer may see, with its repository and pull request. */
function findThread(ctx: GraphqlContext, id: string) {
  const node = decodeNodeId(id);
  if (node?.kind === 'PRRT')
    for (const repo of ctx.state.repos) {
      if (!ctx.state.canRead(repo, ctx.who)) continue;
      for (const issue of repo.issues) {
        const root = issue.pull?.reviewComments.find((c) => c.id === node.id && !c.inReplyTo);
        if (root) return { repo, issue: issue as Pull, root };
      }
    }
  throw gqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
}

function findReview(ctx: GraphqlContext, id: string) {
  const node = decodeNodeId(id);
  if (node?.kind === 'PRR')
    for (const repo of ctx.state.repos) {
      if (!ctx.state.canRead(repo, ctx.who)) continue;
      for (const issue of repo.issues) {
        const review = issue.pull?.reviews.find((r) => r.id === node.id);
        if (review && (review.state !== 'PENDING' || review.user === ctx.who))
          return { repo, issue: issue as Pull, review };
      }
    }
  throw gqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
}

function pendingOwn(ctx: GraphqlContext, id: string, mutation: string) {
  const found = findReview(ctx, id);
  if (found.review.state !== 'PENDING' || found.review.user !== ctx.who)
    throw gqlError('UNPROCESSABLE', `${mutation}: the review is not a pending review of the viewer.`);
  return found;
}

function setResolved(ctx: GraphqlContext, threadId: string, resolve: boolean) {
  const { repo, issue, root } = findThread(ctx, threadId);
  if (!ctx.state.canPush(repo, ctx.who) && issue.user !== ctx.who)
    throw gqlError(
      'FORBIDDEN',
      `${ctx.who} does not have the correct permissions to execute \`${resolve ? 'ResolveReviewThread' : 'UnresolveReviewThread'}\``,
    );
  if (resolve) root.resolvedBy ??= ctx.who;
  else delete root.resolvedBy;
  return { clientMutationId: null, thread: threadNode(ctx, repo, issue, root) };
}

interface ThreadInput {
  pullRequestReviewId?: string | null;
  pullRequestId?: string | null;
  path: string;
  body: string;
  line?: number | null;
  side?: 'LEFT' | 'RIGHT' | null;
  startLine?: number | null;
  startSide?: 'LEFT' | 'RIGHT' | null;
  subjectType?: 'LINE' | 'FILE' | null;
}

/** The lines a unified-diff patch shows on one side: RIGHT added and context, LEFT removed and context. */
function diffSide(patch: string, side: 'LEFT' | 'RIGHT'): Set<number> {
  const shown = new Set<number>();
  let oldLine = 0;
  let newLine = 0;
  for (const l of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
    } else if (l.startsWith('+')) {
      if (side === 'RIGHT') shown.add(newLine);
      newLine++;
    } else if (l.startsWith('-')) {
      if (side === 'LEFT') shown.add(oldLine);
      oldLine++;
    } else if (l.startsWith(' ')) {
      shown.add(side === 'RIGHT' ? newLine : oldLine);
      oldLine++;
      newLine++;
    }
  }
  return shown;
}

function addThread(ctx: GraphqlContext, input: ThreadInput) {
  if (!input.pullRequestReviewId)
    throw gqlError('UNPROCESSABLE', 'addPullRequestReviewThread: this fake needs pullRequestReviewId.');
  const { repo, issue, review } = pendingOwn(ctx, input.pullRequestReviewId, 'addPullRequestReviewThread');
  const subjectType = input.subjectType ?? 'LINE';
  if (!changedPaths(ctx.state, repo, issue).has(input.path))
    throw gqlError('UNPROCESSABLE', 'Path could not be resolved');
  if (subjectType === 'LINE' && input.line == null)
    throw gqlError('UNPROCESSABLE', 'A line is required for a LINE comment.');
  if (input.startLine != null && (input.line == null || input.startLine >= input.line))
    throw gqlError('UNPROCESSABLE', 'startLine must precede line.');
  // A line outside the diff hunks is not placed: GitHub answers no thread (REST refuses it with
  // "Pull request review thread line must be part of the diff").
  if (subjectType === 'LINE') {
    const patch = pullChanges(ctx.state, repo, issue).find((f) => f.filename === input.path)?.patch;
    const ends: [number | null | undefined, string | null | undefined][] = [
      [input.line, input.side],
      [input.startLine, input.startSide ?? input.side],
    ];
    if (
      patch &&
      ends.some(([n, side]) => n != null && !diffSide(patch, side === 'LEFT' ? 'LEFT' : 'RIGHT').has(n))
    )
      return { clientMutationId: null, thread: null };
  }
  const root: ReviewCommentRecord = ctx.state.addReviewComment(repo, issue, {
    user: ctx.who,
    body: input.body,
    path: input.path,
    reviewId: review.id,
    subjectType,
    ...(input.line != null ? { line: input.line } : {}),
    ...(input.side ? { side: input.side } : {}),
    ...(input.startLine != null ? { startLine: input.startLine } : {}),
    ...(input.startSide ? { startSide: input.startSide } : {}),
  });
  return { clientMutationId: null, thread: threadNode(ctx, repo, issue, root) };
}

const VERDICTS: Record<string, ReviewRecord['state']> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
};

function submit(
  ctx: GraphqlContext,
  input: { pullRequestReviewId?: string | null; event: string; body?: string | null },
) {
  if (!input.pullRequestReviewId)
    throw gqlError('UNPROCESSABLE', 'submitPullRequestReview: this fake needs pullRequestReviewId.');
  const { repo, issue, review } = pendingOwn(ctx, input.pullRequestReviewId, 'submitPullRequestReview');
  const state = VERDICTS[input.event];
  if (!state) throw gqlError('UNPROCESSABLE', `Can not ${input.event} a pending review.`);
  if (input.event === 'APPROVE' && issue.user === ctx.who)
    throw gqlError('UNPROCESSABLE', 'Can not approve your own pull request');
  const body = input.body ?? review.body;
  const comments = issue.pull.reviewComments.filter((c) => c.reviewId === review.id);
  if (input.event !== 'APPROVE' && !body && !comments.length)
    throw gqlError('UNPROCESSABLE', `Review body is required for ${input.event}`);
  review.state = state;
  review.body = body;
  review.submittedAt = ctx.state.now();
  review.commitId = ctx.state.headSha(repo, issue);
  return { clientMutationId: null, pullRequestReview: reviewNode(ctx, repo, issue, review) };
}

function remove(ctx: GraphqlContext, input: { pullRequestReviewId: string }) {
  const { repo, issue, review } = pendingOwn(ctx, input.pullRequestReviewId, 'deletePullRequestReview');
  const node = reviewNode(ctx, repo, issue, review);
  issue.pull.reviews.splice(issue.pull.reviews.indexOf(review), 1);
  issue.pull.reviewComments = issue.pull.reviewComments.filter((c) => c.reviewId !== review.id);
  return { clientMutationId: null, pullRequestReview: node };
}

/** The root value: Query fields and Mutation fields (their names never clash). */
function root(ctx: GraphqlContext) {
  return {
    viewer: () => userNode(ctx, ctx.who),
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const repo: RepoRecord | undefined = ctx.state.repo(owner, name);
      if (!repo || !ctx.state.canRead(repo, ctx.who))
        throw gqlError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`);
      return repoNode(ctx, repo);
    },
    node: ({ id }: { id: string }) => {
      const kind = decodeNodeId(id)?.kind;
      if (kind === 'PRR') {
        const { repo, issue, review } = findReview(ctx, id);
        return reviewNode(ctx, repo, issue, review);
      }
      const { repo, issue, root: first } = findThread(ctx, id);
      return threadNode(ctx, repo, issue, first);
    },
    resolveReviewThread: ({ input }: { input: { threadId: string } }) =>
      setResolved(ctx, input.threadId, true),
    unresolveReviewThread: ({ input }: { input: { threadId: string } }) =>
      setResolved(ctx, input.threadId, false),
    addPullRequestReviewThread: ({ input }: { input: ThreadInput }) => addThread(ctx, input),
    submitPullRequestReview: ({ input }: { input: Parameters<typeof submit>[1] }) => submit(ctx, input),
    deletePullRequestReview: ({ input }: { input: { pullRequestReviewId: string } }) => remove(ctx, input),
  };
}

/** Registers the GraphQL endpoint on `gh` (see the module comment). */
export function registerGraphqlRoute(gh: FakeGitHub, prefix: string): void {
  gh.api.rootRoute('POST', graphqlPath(prefix), async (req: FakeRequest): Promise<FakeReply> => {
    const headers = { 'x-github-media-type': 'github.v4; format=json' };
    let who: string | undefined;
    try {
      who = authenticate(gh.state, req);
    } catch (error) {
      if (error instanceof Reply) return { ...error.reply, headers };
      throw error;
    }
    if (!who)
      return {
        status: 401,
        headers,
        body: { message: 'This endpoint requires you to be authenticated.', documentation_url: GRAPHQL_DOCS },
      };
    let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      payload = JSON.parse(req.body) as typeof payload;
    } catch {
      return {
        status: 400,
        headers,
        body: { message: 'Problems parsing JSON', documentation_url: GRAPHQL_DOCS },
      };
    }
    if (typeof payload.query !== 'string')
      return {
        status: 200,
        headers,
        body: { errors: [{ message: 'A query attribute must be specified and must be a string.' }] },
      };
    const checked = gh.checkQuery(payload.query);
    if (checked.errors) {
      gh.graphqlRejected.push({ query: payload.query, errors: checked.errors.map((e) => e.message) });
      return { status: 200, headers, body: { errors: checked.errors.map(errorJson) } };
    }
    const ctx: GraphqlContext = { state: gh.state, who, urls: gh.urls };
    const result = await execute({
      schema: githubGraphqlSchema(),
      document: checked.document,
      rootValue: root(ctx),
      variableValues: (payload.variables ?? {}) as Record<string, unknown>,
      ...(typeof payload.operationName === 'string' ? { operationName: payload.operationName } : {}),
    });
    return {
      status: 200,
      headers,
      body: {
        ...(result.data !== undefined ? { data: result.data } : {}),
        ...(result.errors?.length ? { errors: result.errors.map(errorJson) } : {}),
      },
    };
  });
}
