/**
 * Compact pull requests, changed files, reviews, review comments and combined status.
 */
import { compact, count, truncateUtf8, truncationMarker } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import { block, indent, type UntrustedText } from '@refmcp/shared/untrusted';
import { at, login } from './common.js';

const refShape = z.object({ ref: z.string(), sha: z.string(), label: z.string() });

export const pullShape = z.object({
  number: count(),
  title: z.string(),
  state: z.string(),
  draft: z.boolean(),
  author: z.string().nullable(),
  head: refShape,
  base: refShape,
  labels: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
  mergedAt: z.string().nullable(),
  url: z.string(),
  body: z.string(),
  withheld: z.boolean().optional(),
  merged: z.boolean().optional(),
  mergeable: z.boolean().nullable().optional(),
  mergeableState: z.string().optional(),
  mergedBy: z.string().nullable().optional(),
  comments: count().optional(),
  reviewComments: count().optional(),
  commits: count().optional(),
  additions: count().optional(),
  deletions: count().optional(),
  changedFiles: count().optional(),
  maintainerCanModify: z.boolean().optional(),
});
export type Pull = z.infer<typeof pullShape>;

interface RawRef {
  ref: string;
  sha: string;
  label: string;
}

export function toPull(raw: unknown, text: UntrustedText, bodyBytes: number, withheldText?: string): Pull {
  const r = raw as Record<string, unknown> & { head: RawRef; base: RawRef; labels?: { name?: string }[] };
  const ref = (x: RawRef) => ({ ref: text.line(x.ref), sha: x.sha, label: text.line(x.label) });
  return compact({
    number: r.number as number,
    title: withheldText ? '[withheld]' : text.line(r.title as string),
    state: r.state as string,
    draft: (r.draft as boolean | undefined) ?? false,
    author: login(r.user),
    head: ref(r.head),
    base: ref(r.base),
    labels: (r.labels ?? []).map((l) => text.line(l.name ?? '')),
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    closedAt: (r.closed_at as string | null) ?? null,
    mergedAt: (r.merged_at as string | null) ?? null,
    url: r.html_url as string,
    body:
      withheldText ??
      text.clean(r.body as string | null, bodyBytes, `get_pull_request ${r.number} returns the whole body`),
    withheld: withheldText ? true : undefined,
    merged: r.merged as boolean | undefined,
    mergeable: r.mergeable as boolean | null | undefined,
    mergeableState: r.mergeable_state as string | undefined,
    mergedBy: 'merged_by' in r ? login(r.merged_by) : undefined,
    comments: r.comments as number | undefined,
    reviewComments: r.review_comments as number | undefined,
    commits: r.commits as number | undefined,
    additions: r.additions as number | undefined,
    deletions: r.deletions as number | undefined,
    changedFiles: r.changed_files as number | undefined,
    maintainerCanModify: r.maintainer_can_modify as boolean | undefined,
  });
}

export function renderPull(pull: Pull, repo: string, withBody = true): string {
  const state = pull.merged || pull.mergedAt ? 'merged' : pull.draft ? `${pull.state}, draft` : pull.state;
  const facts = [
    at(pull.author),
    `${pull.head.label} → ${pull.base.ref}`,
    pull.changedFiles !== undefined ? `${pull.changedFiles} files +${pull.additions}/-${pull.deletions}` : '',
    pull.mergeableState ? `mergeable: ${pull.mergeableState}` : '',
    `updated ${pull.updatedAt}`,
  ].filter(Boolean);
  const head = `PR #${pull.number} [${state}] ${pull.title} · ${facts.join(' · ')}\n  head ${pull.head.sha}\n  ${pull.url}`;
  if (!withBody || !pull.body) return head;
  return `${head}\n${indent(block(`${repo}#${pull.number} body by ${at(pull.author)}`, pull.body))}`;
}

export const fileShape = z.object({
  filename: z.string(),
  status: z.string(),
  additions: count(),
  deletions: count(),
  changes: count(),
  previousFilename: z.string().optional(),
  patch: z.string().optional().describe('Unified diff hunk(s); absent for binary or very large files'),
  patchTruncated: z.boolean().optional(),
});
export type ChangedFile = z.infer<typeof fileShape>;

/** A changed file with its patch bounded to `patchBytes` (a marker says how to get the rest). */
export function toChangedFile(raw: unknown, text: UntrustedText, patchBytes: number): ChangedFile {
  const r = raw as {
    filename: string;
    status: string;
    additions: number;
    deletions: number;
    changes: number;
    previous_filename?: string;
    patch?: string;
  };
  let patch = r.patch === undefined ? undefined : text.code(r.patch);
  let truncated: boolean | undefined;
  if (patch !== undefined) {
    const cut = truncateUtf8(patch, patchBytes);
    if (cut.truncated) {
      patch = `${cut.text}\n${truncationMarker(`${cut.omittedBytes} more bytes of this patch`, 'read the file at the head ref with get_file_contents')}`;
      truncated = true;
    }
  }
  return compact({
    filename: r.filename,
    status: r.status,
    additions: r.additions,
    deletions: r.deletions,
    changes: r.changes,
    previousFilename: r.previous_filename,
    patch,
    patchTruncated: truncated,
  });
}

export function renderFile(f: ChangedFile, withPatch: boolean): string {
  const head = `${f.status.padEnd(8)} ${f.filename}${f.previousFilename ? ` (from ${f.previousFilename})` : ''} +${f.additions}/-${f.deletions}`;
  return withPatch && f.patch ? `${head}\n${indent(f.patch, '    ')}` : head;
}

export const reviewShape = z.object({
  id: count(),
  author: z.string().nullable(),
  state: z.string(),
  submittedAt: z.string().nullable(),
  commitId: z.string().nullable(),
  url: z.string(),
  body: z.string(),
  withheld: z.boolean().optional(),
});
export type Review = z.infer<typeof reviewShape>;

export function toReview(
  raw: unknown,
  text: UntrustedText,
  bodyBytes: number,
  withheldText?: string,
): Review {
  const r = raw as {
    id: number;
    user: unknown;
    state: string;
    submitted_at?: string;
    commit_id: string | null;
    html_url: string;
    body?: string;
  };
  return compact({
    id: r.id,
    author: login(r.user),
    state: r.state,
    submittedAt: r.submitted_at ?? null,
    commitId: r.commit_id,
    url: r.html_url,
    body: withheldText ?? text.clean(r.body, bodyBytes, 'open the review url'),
    withheld: withheldText ? true : undefined,
  });
}

export const reviewCommentShape = z.object({
  id: count(),
  reviewId: count().nullable(),
  author: z.string().nullable(),
  path: z.string(),
  line: count().nullable(),
  startLine: count().optional(),
  side: z.enum(['LEFT', 'RIGHT']).optional(),
  inReplyTo: count().optional(),
  createdAt: z.string(),
  url: z.string(),
  body: z.string(),
  withheld: z.boolean().optional(),
});
export type ReviewComment = z.infer<typeof reviewCommentShape>;

export function toReviewComment(
  raw: unknown,
  text: UntrustedText,
  bodyBytes: number,
  withheldText?: string,
): ReviewComment {
  const r = raw as {
    id: number;
    pull_request_review_id: number | null;
    user: unknown;
    path: string;
    line?: number | null;
    original_line?: number | null;
    in_reply_to_id?: number;
    start_line?: number | null;
    side?: 'LEFT' | 'RIGHT';
    created_at: string;
    html_url: string;
    body: string;
  };
  return compact({
    id: r.id,
    reviewId: r.pull_request_review_id,
    author: login(r.user),
    path: text.line(r.path),
    line: r.line ?? r.original_line ?? null,
    startLine: r.start_line ?? undefined,
    side: r.side,
    inReplyTo: r.in_reply_to_id,
    createdAt: r.created_at,
    url: r.html_url,
    body: withheldText ?? text.clean(r.body, bodyBytes, 'open the comment url'),
    withheld: withheldText ? true : undefined,
  });
}

export const statusShape = z.object({
  state: z.string(),
  sha: z.string(),
  totalCount: count(),
  statuses: z.array(
    z.object({
      context: z.string(),
      state: z.string(),
      description: z.string().nullable(),
      targetUrl: z.string().nullable(),
      updatedAt: z.string(),
    }),
  ),
});

export function toStatus(raw: unknown, text: UntrustedText) {
  const r = raw as {
    state: string;
    sha: string;
    total_count: number;
    statuses: {
      context: string;
      state: string;
      description: string | null;
      target_url: string | null;
      updated_at: string;
    }[];
  };
  return {
    state: r.state,
    sha: r.sha,
    totalCount: r.total_count,
    statuses: r.statuses.map((s) => ({
      context: text.line(s.context),
      state: s.state,
      description: s.description === null ? null : text.line(s.description),
      targetUrl: s.target_url,
      updatedAt: s.updated_at,
    })),
  };
}
