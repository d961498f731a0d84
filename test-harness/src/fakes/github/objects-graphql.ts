// The fake GitHub's state as GraphQL objects of GitHub's schema (Repository, PullRequest,
// PullRequestReviewThread, PullRequestReviewComment, PullRequestReview, User), for graphql-js's
// default resolvers: a plain property answers a field, a method is called with the field's
// arguments, `__typename` picks the type of an interface or union. A review thread is its first
// comment's thread (replies carry `inReplyTo`); pending reviews and their comments are seen only
// by their author, as on GitHub.
import { GraphQLError } from 'graphql';
import { nodeId, type Urls } from './objects.js';
import { pullChanges } from './objects-issues.js';
import type { GitHubState, IssueRecord, RepoRecord, ReviewCommentRecord, ReviewRecord } from './state.js';

/** Who asks and where the fake lives: every object is built for one request. */
export interface GraphqlContext {
  state: GitHubState;
  who: string;
  urls: Urls;
}

type Pull = IssueRecord & { pull: NonNullable<IssueRecord['pull']> };

/** A GraphQL error the way GitHub sends it: a `type` (NOT_FOUND, FORBIDDEN, UNPROCESSABLE, …) beside the message. */
export function gqlError(type: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type } });
}

interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

const cursorOf = (i: number) => Buffer.from(`cursor:v2:${i}`).toString('base64');
const indexOf = (cursor: string) => {
  const m = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  if (!m) throw gqlError('INVALID_CURSOR_ARGUMENTS', `\`${cursor}\` does not appear to be a valid cursor.`);
  return Number(m[1]);
};

/** A connection over `items` with GitHub's rules: `first` or `last` required, at most 100. */
export function connection<T>(items: T[], args: PageArgs, name: string) {
  const { first, last, after, before } = args;
  if (first == null && last == null)
    throw gqlError(
      'MISSING_PAGINATION_BOUNDARIES',
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
    );
  for (const [arg, n] of [
    ['first', first],
    ['last', last],
  ] as const)
    if (n != null && (n < 0 || n > 100))
      throw gqlError(
        'EXCESSIVE_PAGINATION',
        `Requesting ${n} records on the \`${name}\` connection exceeds the \`${arg}\` limit of 100 records.`,
      );
  let start = after ? indexOf(after) + 1 : 0;
  let end = before ? indexOf(before) : items.length;
  if (first != null) end = Math.min(end, start + first);
  if (last != null) start = Math.max(start, end - last);
  const slice = items.slice(start, end);
  return {
    totalCount: items.length,
    nodes: slice,
    edges: slice.map((node, i) => ({ cursor: cursorOf(start + i), node })),
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: slice.length ? cursorOf(start) : null,
      endCursor: slice.length ? cursorOf(end - 1) : null,
    },
  };
}

export function userNode(ctx: GraphqlContext, login: string) {
  const user = ctx.state.user(login);
  return {
    __typename: login.endsWith('[bot]') ? 'Bot' : 'User',
    id: nodeId('U', user?.id ?? 0),
    login,
    url: `${ctx.urls.web}/${login}`,
    name: user?.name ?? null,
  };
}

/** Reviews `ctx.who` may see: every submitted review, and pending ones only of their own. */
export function visibleReviews(ctx: GraphqlContext, issue: Pull): ReviewRecord[] {
  return issue.pull.reviews.filter((r) => r.state !== 'PENDING' || r.user === ctx.who);
}

function visibleComments(ctx: GraphqlContext, issue: Pull): ReviewCommentRecord[] {
  const seen = new Set(visibleReviews(ctx, issue).map((r) => r.id));
  return issue.pull.reviewComments.filter((c) => c.reviewId === null || seen.has(c.reviewId));
}

export function repoNode(ctx: GraphqlContext, repo: RepoRecord) {
  return {
    __typename: 'Repository',
    id: nodeId('R', repo.id),
    name: repo.name,
    nameWithOwner: `${repo.owner}/${repo.name}`,
    isPrivate: repo.private,
    url: `${ctx.urls.web}/${repo.owner}/${repo.name}`,
    owner: userNode(ctx, repo.owner),
    pullRequest: ({ number }: { number: number }) => {
      const issue = repo.issues.find((i) => i.number === number && i.pull);
      if (!issue)
        throw gqlError('NOT_FOUND', `Could not resolve to a PullRequest with the number of ${number}.`);
      return pullNode(ctx, repo, issue as Pull);
    },
  };
}

export function pullNode(ctx: GraphqlContext, repo: RepoRecord, issue: Pull) {
  return {
    __typename: 'PullRequest',
    id: nodeId('PR', issue.id),
    number: issue.number,
    title: issue.title,
    url: `${ctx.urls.web}/${repo.owner}/${repo.name}/pull/${issue.number}`,
    repository: () => repoNode(ctx, repo),
    reviewThreads: (args: PageArgs) =>
      connection(
        visibleComments(ctx, issue)
          .filter((c) => !c.inReplyTo)
          .map((c) => threadNode(ctx, repo, issue, c)),
        args,
        'reviewThreads',
      ),
    reviews: (args: PageArgs & { states?: string[] | null; author?: string | null }) =>
      connection(
        visibleReviews(ctx, issue)
          .filter((r) => !args.states || args.states.includes(r.state))
          .filter((r) => !args.author || r.user.toLowerCase() === args.author.toLowerCase())
          .map((r) => reviewNode(ctx, repo, issue, r)),
        args,
        'reviews',
      ),
  };
}

export function reviewNode(ctx: GraphqlContext, repo: RepoRecord, issue: Pull, r: ReviewRecord) {
  const url = `${ctx.urls.web}/${repo.owner}/${repo.name}/pull/${issue.number}#pullrequestreview-${r.id}`;
  return {
    __typename: 'PullRequestReview',
    id: nodeId('PRR', r.id),
    databaseId: r.id,
    fullDatabaseId: String(r.id),
    state: r.state,
    body: r.body,
    url,
    submittedAt: r.state === 'PENDING' ? null : r.submittedAt,
    author: userNode(ctx, r.user),
    pullRequest: () => pullNode(ctx, repo, issue),
    comments: (args: PageArgs) =>
      connection(
        issue.pull.reviewComments
          .filter((c) => c.reviewId === r.id)
          .map((c) => commentNode(ctx, repo, issue, c)),
        args,
        'comments',
      ),
  };
}

export function commentNode(ctx: GraphqlContext, repo: RepoRecord, issue: Pull, c: ReviewCommentRecord) {
  const review = issue.pull.reviews.find((r) => r.id === c.reviewId);
  return {
    __typename: 'PullRequestReviewComment',
    id: nodeId('PRRC', c.id),
    databaseId: c.id,
    fullDatabaseId: String(c.id),
    body: c.body,
    bodyText: c.body,
    path: c.path,
    line: c.line,
    originalLine: c.line,
    startLine: c.startLine ?? null,
    createdAt: c.createdAt,
    updatedAt: c.createdAt,
    url: `${ctx.urls.web}/${repo.owner}/${repo.name}/pull/${issue.number}#discussion_r${c.id}`,
    state: review?.state === 'PENDING' ? 'PENDING' : 'SUBMITTED',
    author: userNode(ctx, c.user),
    commit: { __typename: 'Commit', oid: c.commitId },
    originalCommit: { __typename: 'Commit', oid: c.commitId },
    pullRequestReview: review ? () => reviewNode(ctx, repo, issue, review) : null,
    replyTo: () => {
      const root = issue.pull.reviewComments.find((x) => x.id === c.inReplyTo);
      return root ? commentNode(ctx, repo, issue, root) : null;
    },
  };
}

/** The thread `root` starts: its anchor, resolved and outdated state, and its comments. */
export function threadNode(ctx: GraphqlContext, repo: RepoRecord, issue: Pull, root: ReviewCommentRecord) {
  const outdated = root.commitId !== ctx.state.headSha(repo, issue);
  const canResolve = ctx.state.canPush(repo, ctx.who) || issue.user === ctx.who;
  return {
    __typename: 'PullRequestReviewThread',
    id: nodeId('PRRT', root.id),
    path: root.path,
    line: outdated ? null : root.line,
    originalLine: root.line,
    startLine: outdated ? null : (root.startLine ?? null),
    originalStartLine: root.startLine ?? null,
    diffSide: root.side ?? 'RIGHT',
    startDiffSide: root.startLine ? (root.startSide ?? 'RIGHT') : null,
    subjectType: root.subjectType ?? 'LINE',
    isOutdated: outdated,
    isResolved: root.resolvedBy !== undefined,
    isCollapsed: root.resolvedBy !== undefined,
    resolvedBy: root.resolvedBy ? userNode(ctx, root.resolvedBy) : null,
    viewerCanResolve: canResolve && root.resolvedBy === undefined,
    viewerCanUnresolve: canResolve && root.resolvedBy !== undefined,
    viewerCanReply: true,
    pullRequest: () => pullNode(ctx, repo, issue),
    repository: () => repoNode(ctx, repo),
    comments: (args: PageArgs) =>
      connection(
        visibleComments(ctx, issue)
          .filter((c) => c.id === root.id || c.inReplyTo === root.id)
          .map((c) => commentNode(ctx, repo, issue, c)),
        args,
        'comments',
      ),
  };
}

/** Paths a pull request changes (where a review thread may be anchored). */
export function changedPaths(state: GitHubState, repo: RepoRecord, issue: Pull): Set<string> {
  return new Set(pullChanges(state, repo, issue).map((f) => f.filename));
}

/** What a node id names: kind ("PRRT", "PRR", …) and database id; undefined for ids the fake never made. */
export function decodeNodeId(id: string): { kind: string; id: number } | undefined {
  const m = /^0:([A-Z]+)(\d+)$/.exec(Buffer.from(id, 'base64').toString('utf8'));
  return m?.[1] && m[2] ? { kind: m[1], id: Number(m[2]) } : undefined;
}
