/**
 * Review threads through GitHub's GraphQL API (REST has no thread ids or resolved state):
 * get_pull_request_review_threads lists a pull request's threads (node id, resolved and outdated
 * state, anchor, comments); resolve_review_thread / unresolve_review_thread (the official
 * server's names) change the state. Every tool takes owner/repo/pull_number, checked against
 * --repos before any request; resolve/unresolve also check that the thread belongs to that pull
 * request (a node id alone names no repository) before the mutation.
 */
import { count, OPEN_WORLD_HINTS, ToolError } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { block, indent, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import { at } from '../format/common.js';
import * as arg from '../names.js';
import type { GitHubTool } from '../toolsets.js';
import { contentNote, repoTool, scopeNote, withheldFor } from './common.js';

/** Comments fetched per thread (threads × comments × 2 KB bounds a page); a longer thread reports how many more it has. */
const COMMENTS_PER_THREAD = 20;

const THREAD_FIELDS = `id isResolved isOutdated path line startLine originalLine originalStartLine diffSide startDiffSide subjectType resolvedBy { login }`;

const LIST_THREADS = `query ReviewThreads($owner: String!, $repo: String!, $number: Int!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: $first, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes {
          ${THREAD_FIELDS}
          comments(first: ${COMMENTS_PER_THREAD}) {
            totalCount
            nodes { databaseId author { login } body createdAt url }
          }
        }
      }
    }
  }
}`;

const THREAD_OWNER = `query ThreadOwner($id: ID!) {
  node(id: $id) {
    ... on PullRequestReviewThread { id pullRequest { number repository { nameWithOwner } } }
  }
}`;

const setResolved = (mutation: 'resolveReviewThread' | 'unresolveReviewThread') =>
  `mutation SetResolved($id: ID!) {
  ${mutation}(input: { threadId: $id }) { thread { ${THREAD_FIELDS} } }
}`;

interface RawThread {
  id: string;
  isResolved: boolean;
  isOutdated: boolean;
  path: string;
  line: number | null;
  startLine: number | null;
  originalLine: number | null;
  originalStartLine: number | null;
  diffSide: 'LEFT' | 'RIGHT';
  startDiffSide: 'LEFT' | 'RIGHT' | null;
  subjectType: 'LINE' | 'FILE';
  resolvedBy: { login: string } | null;
  comments?: {
    totalCount: number;
    nodes: {
      databaseId: number;
      author: { login: string } | null;
      body: string;
      createdAt: string;
      url: string;
    }[];
  };
}

const threadCommentShape = z.object({
  id: count(),
  author: z.string().nullable(),
  createdAt: z.string(),
  url: z.string(),
  body: z.string(),
  withheld: z.boolean().optional(),
});

const threadShape = z.object({
  id: z.string().describe('Thread node id (PRRT_…)'),
  resolved: z.boolean(),
  resolvedBy: z.string().nullable(),
  outdated: z.boolean(),
  path: z.string(),
  line: count().nullable().describe('Range end; the original line when outdated'),
  startLine: count().nullable(),
  side: z.enum(['LEFT', 'RIGHT']),
  subjectType: z.enum(['LINE', 'FILE']),
});

type Thread = z.infer<typeof threadShape>;

function toThread(raw: RawThread, text: UntrustedText): Thread {
  return {
    id: raw.id,
    resolved: raw.isResolved,
    resolvedBy: raw.resolvedBy?.login ?? null,
    outdated: raw.isOutdated,
    path: text.line(raw.path),
    line: raw.line ?? raw.originalLine,
    startLine: raw.startLine ?? raw.originalStartLine,
    side: raw.diffSide,
    subjectType: raw.subjectType,
  };
}

/** "path:3-5 (RIGHT), open" */
function anchor(t: Thread): string {
  const lines = t.line ? `:${t.startLine ? `${t.startLine}-` : ''}${t.line}` : '';
  const state = t.resolved ? `resolved${t.resolvedBy ? ` by ${at(t.resolvedBy)}` : ''}` : 'open';
  return `${t.path}${lines} (${t.side})${t.outdated ? ', outdated' : ''}, ${state}`;
}

export function reviewThreadTools(config: Config): GitHubTool[] {
  const { budgets } = config;
  const scope = scopeNote(config);
  const target = { owner: arg.owner(), repo: arg.repo(), pull_number: arg.number('') };
  const threadId = safeString({ min: 1, max: 200 }).describe(
    'Thread node id from get_pull_request_review_threads',
  );

  /** Refuses unless thread `id` is on owner/repo#pull_number (one GraphQL query). */
  const checkThread = async (owner: string, repo: string, pull: number, id: string, signal: AbortSignal) => {
    const data = await config.github.graphql<{
      node: { pullRequest?: { number: number; repository: { nameWithOwner: string } } } | null;
    }>(THREAD_OWNER, { id }, signal);
    const on = data.node?.pullRequest;
    if (!on)
      throw new ToolError(`${id} is not a review thread id (get_pull_request_review_threads lists them).`);
    const where = `${on.repository.nameWithOwner}#${on.number}`;
    if (where.toLowerCase() !== `${owner}/${repo}#${pull}`.toLowerCase())
      throw new ToolError(
        `Thread ${id} belongs to ${where}, not ${owner}/${repo}#${pull}. Nothing was changed.`,
      );
  };

  const resolveTool = (resolve: boolean): GitHubTool =>
    repoTool(config, {
      name: resolve ? 'resolve_review_thread' : 'unresolve_review_thread',
      title: resolve ? 'Resolve review thread' : 'Unresolve review thread',
      toolset: 'pull_requests',
      description: `${resolve ? 'Resolve' : 'Reopen (unresolve)'} a pull request review thread; no-op if already ${resolve ? 'resolved' : 'open'}.${scope}`,
      inputSchema: z.strictObject({ ...target, thread_id: threadId }),
      outputSchema: z.object({ repository: z.string(), pullNumber: count(), thread: threadShape }),
      annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
      handler: async ({ owner, repo, pull_number, thread_id }, { signal }) => {
        await checkThread(owner, repo, pull_number, thread_id, signal);
        const mutation = resolve ? 'resolveReviewThread' : 'unresolveReviewThread';
        const data = await config.github.graphql<Record<string, { thread: RawThread }>>(
          setResolved(mutation),
          { id: thread_id },
          signal,
        );
        const raw = data[mutation]?.thread;
        if (!raw) throw new ToolError(`GitHub returned no thread for ${thread_id}.`);
        const text = new UntrustedText();
        const thread = toThread(raw, text);
        return respond(
          { repository: `${owner}/${repo}`, pullNumber: pull_number, thread },
          [`${owner}/${repo}#${pull_number} thread ${thread.id}: ${anchor(thread)}.`],
          text,
        );
      },
    });

  return [
    repoTool(config, {
      name: 'get_pull_request_review_threads',
      title: 'Get pull request review threads',
      toolset: 'pull_requests',
      description: `List a pull request's review threads: node id, resolved/outdated, anchor, comments (ids for add_reply_to_pull_request_comment). Cursor-paged.${contentNote(config)}${scope}`,
      inputSchema: z.strictObject({
        ...target,
        per_page: arg.perPage(50).describe('default 20'),
        after: safeString({ max: 200 }).optional().describe('nextCursor of the previous page'),
      }),
      outputSchema: z.object({
        repository: z.string(),
        pullNumber: count(),
        totalCount: count(),
        threads: z.array(
          threadShape.extend({
            comments: z.array(threadCommentShape),
            moreComments: count().optional().describe(`Comments past the first ${COMMENTS_PER_THREAD}`),
          }),
        ),
        hasMore: z.boolean(),
        nextCursor: z.string().nullable(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ owner, repo, pull_number, per_page, after }, { signal }) => {
        const data = await config.github.graphql<{
          repository: {
            pullRequest: {
              reviewThreads: {
                totalCount: number;
                pageInfo: { hasNextPage: boolean; endCursor: string | null };
                nodes: RawThread[];
              };
            };
          };
        }>(
          LIST_THREADS,
          { owner, repo, number: pull_number, first: per_page ?? 20, after: after ?? null },
          signal,
        );
        const list = data.repository.pullRequest.reviewThreads;
        const text = new UntrustedText();
        const threads = await Promise.all(
          list.nodes.map(async (raw) => {
            const nodes = raw.comments?.nodes ?? [];
            const comments = await Promise.all(
              nodes.map(async (c) => {
                const author = c.author?.login ?? null;
                const withheld = await withheldFor(config, owner, repo, author, signal);
                return {
                  id: c.databaseId,
                  author,
                  createdAt: c.createdAt,
                  url: c.url,
                  body: withheld ?? text.clean(c.body, budgets.listBodyBytes, 'open the comment url'),
                  ...(withheld ? { withheld: true } : {}),
                };
              }),
            );
            const more = (raw.comments?.totalCount ?? 0) - nodes.length;
            return { ...toThread(raw, text), comments, ...(more > 0 ? { moreComments: more } : {}) };
          }),
        );
        const source = `${owner}/${repo}#${pull_number}`;
        const next = list.pageInfo.hasNextPage ? list.pageInfo.endCursor : null;
        return respond(
          {
            repository: `${owner}/${repo}`,
            pullNumber: pull_number,
            totalCount: list.totalCount,
            threads,
            hasMore: next !== null,
            nextCursor: next,
          },
          [
            `${source}: ${threads.length} of ${list.totalCount} review threads${next ? `; more with after="${next}"` : ''}.`,
            ...threads.map((t) =>
              [
                `- ${t.id} ${anchor(t)}`,
                ...t.comments.map(
                  (c) =>
                    `  ${c.id} ${at(c.author)}:\n${indent(block(`${source} review comment by ${at(c.author)}`, c.body), '    ')}`,
                ),
                t.moreComments
                  ? `  (${t.moreComments} more comments: open ${t.comments[0]?.url ?? 'the thread'})`
                  : '',
              ]
                .filter(Boolean)
                .join('\n'),
            ),
          ],
          text,
        );
      },
    }),
    resolveTool(true),
    resolveTool(false),
  ];
}
