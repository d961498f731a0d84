/**
 * Compact issues and issue comments: the fields a model needs (number, title, state, author,
 * labels, counts, dates, URL, body) instead of GitHub's ~5 KB of URLs and user objects per issue.
 * User-authored text goes through UntrustedText; lockdown-withheld items keep their facts only.
 */
import { compact, count } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, indent, type UntrustedText } from '@refmcp/shared/untrusted';
import { at, login } from './common.js';

export const issueShape = z.object({
  number: count(),
  title: z.string(),
  state: z.string(),
  author: z.string().nullable(),
  labels: z.array(z.string()),
  assignees: z.array(z.string()).optional().describe('Absent when none'),
  comments: count(),
  isPullRequest: z
    .literal(true)
    .optional()
    .describe('Present (true) for pull requests, which GitHub lists as issues'),
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().optional().describe('Absent while open'),
  url: z.string(),
  body: z.string(),
  withheld: z.boolean().optional().describe('True when --lockdown withheld the title and body'),
});
export type Issue = z.infer<typeof issueShape>;

export const commentShape = z.object({
  id: count(),
  author: z.string().nullable(),
  authorAssociation: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  url: z.string(),
  body: z.string(),
  withheld: z.boolean().optional(),
});
export type Comment = z.infer<typeof commentShape>;

interface RawIssue {
  number: number;
  title: string;
  state: string;
  user: unknown;
  labels: (string | { name?: string })[];
  assignees?: unknown[] | null;
  comments: number;
  pull_request?: unknown;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  html_url: string;
  body?: string | null;
}

const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length ? list : undefined);

/** A compact issue; `withheld` replaces title and body with `withheldText`. */
export function toIssue(raw: unknown, text: UntrustedText, bodyBytes: number, withheldText?: string): Issue {
  const r = raw as RawIssue;
  return compact({
    number: r.number,
    title: withheldText ? '[withheld]' : text.line(r.title),
    state: r.state,
    author: login(r.user),
    labels: (r.labels ?? []).map((l) => text.line(typeof l === 'string' ? l : (l.name ?? ''))),
    assignees: nonEmpty((r.assignees ?? []).map(login).filter((l): l is string => l !== null)),
    comments: r.comments,
    isPullRequest: r.pull_request !== undefined && r.pull_request !== null ? (true as const) : undefined,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    closedAt: r.closed_at ?? undefined,
    url: r.html_url,
    body: withheldText ?? text.clean(r.body, bodyBytes, `get_issue ${r.number} returns the whole body`),
    withheld: withheldText ? true : undefined,
  });
}

export function toComment(
  raw: unknown,
  text: UntrustedText,
  bodyBytes: number,
  withheldText?: string,
): Comment {
  const r = raw as {
    id: number;
    user: unknown;
    author_association?: string;
    created_at: string;
    updated_at: string;
    html_url: string;
    body?: string;
  };
  return compact({
    id: r.id,
    author: login(r.user),
    authorAssociation: r.author_association,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    url: r.html_url,
    body: withheldText ?? text.clean(r.body, bodyBytes, 'the comment is longer; open its url'),
    withheld: withheldText ? true : undefined,
  });
}

/**
 * "#12 [open] Title · @author · 3 comments · labels: a, b · updated …", the URL, and the body
 * (labelled as data on its own unless `inList`: lists wrap all their items in one label).
 */
export function renderIssue(issue: Issue, repo: string, inList = false): string {
  const kind = issue.isPullRequest ? 'PR ' : '';
  const facts = [
    at(issue.author),
    issue.comments ? `${issue.comments} comment${issue.comments === 1 ? '' : 's'}` : '',
    issue.labels.length ? `labels: ${issue.labels.join(', ')}` : '',
    issue.assignees?.length ? `assignees: ${issue.assignees.map(at).join(', ')}` : '',
    `updated ${issue.updatedAt}`,
  ].filter(Boolean);
  const head = `${kind}#${issue.number} [${issue.state}] ${issue.title} · ${facts.join(' · ')}\n${inList ? '' : '  '}${issue.url}`;
  if (!issue.body) return head;
  if (inList) return `${head}\n${issue.body}\n`;
  return `${head}\n${indent(block(`${repo}#${issue.number} body by ${at(issue.author)}`, issue.body))}`;
}

/** A list's items as one labelled block ("" for none). */
export function renderIssueList(issues: (Issue & { repository?: string })[], source: string): string {
  if (!issues.length) return '';
  return block(
    source,
    issues
      .map((i) => `${i.repository ? `${i.repository} ` : ''}${renderIssue(i, i.repository ?? '', true)}`)
      .join('\n'),
  );
}

export function renderComment(comment: Comment, source: string): string {
  return `- ${at(comment.author)} at ${comment.createdAt} (${comment.url})\n${indent(block(`${source} comment by ${at(comment.author)}`, comment.body))}`;
}
