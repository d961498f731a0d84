/**
 * Compact repositories, commits, branches, tags, releases, contents entries, trees and search
 * hits.
 */
import { compact, count } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { UntrustedText } from '@refmcp/shared/untrusted';
import { login } from './common.js';
import { fileShape, toChangedFile } from './pulls.js';

export const repoShape = z.object({
  fullName: z.string(),
  description: z.string().nullable(),
  private: z.boolean(),
  fork: z.boolean(),
  archived: z.boolean().optional(),
  defaultBranch: z.string().optional(),
  language: z.string().nullable().optional(),
  stars: count().optional(),
  forks: count().optional(),
  openIssues: count().optional(),
  pushedAt: z.string().nullable().optional(),
  url: z.string(),
  canPush: z.boolean().optional(),
});
export type Repo = z.infer<typeof repoShape>;

export function toRepo(raw: unknown, text: UntrustedText): Repo {
  const r = raw as Record<string, unknown> & { permissions?: { push?: boolean } };
  return compact({
    fullName: r.full_name as string,
    description: r.description ? text.line(r.description as string, 2048) : null,
    private: r.private as boolean,
    fork: r.fork as boolean,
    archived: r.archived as boolean | undefined,
    defaultBranch: r.default_branch as string | undefined,
    language: r.language as string | null | undefined,
    stars: r.stargazers_count as number | undefined,
    forks: r.forks_count as number | undefined,
    openIssues: r.open_issues_count as number | undefined,
    pushedAt: r.pushed_at as string | null | undefined,
    url: r.html_url as string,
    canPush: r.permissions?.push,
  });
}

export function renderRepo(r: Repo): string {
  const facts = [
    r.private ? 'private' : 'public',
    r.fork ? 'fork' : '',
    r.archived ? 'archived' : '',
    r.language ?? '',
    r.stars !== undefined ? `★${r.stars}` : '',
    r.defaultBranch ? `default ${r.defaultBranch}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${r.fullName} (${facts})${r.description ? ` — ${r.description}` : ''}\n  ${r.url}`;
}

export const commitShape = z.object({
  sha: z.string(),
  message: z.string(),
  author: z.string().nullable().describe('GitHub login, else the git author name'),
  date: z.string().nullable(),
  parents: z.array(z.string()),
  url: z.string(),
});
export type Commit = z.infer<typeof commitShape>;

export function toCommit(raw: unknown, text: UntrustedText, messageBytes: number): Commit {
  const r = raw as {
    sha: string;
    html_url: string;
    author: unknown;
    parents: { sha: string }[];
    commit: { message: string; author: { name?: string; date?: string } | null };
  };
  return {
    sha: r.sha,
    message: text.clean(r.commit.message, messageBytes, 'get_commit returns the whole message'),
    author: login(r.author) ?? r.commit.author?.name ?? null,
    date: r.commit.author?.date ?? null,
    parents: r.parents.map((p) => p.sha),
    url: r.html_url,
  };
}

export function renderCommit(c: Commit): string {
  const [first, ...rest] = c.message.split('\n');
  const more = rest.join('\n').trim();
  return `${c.sha.slice(0, 12)} ${c.date ?? ''} @${c.author ?? '?'}: ${first}${
    more
      ? `\n${more
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}`
      : ''
  }`;
}

export const commitDetailShape = commitShape.extend({
  stats: z.object({ additions: count(), deletions: count(), total: count() }).optional(),
  files: z.array(fileShape),
});

export function toCommitDetail(raw: unknown, text: UntrustedText, messageBytes: number, patchBytes: number) {
  const r = raw as { stats?: { additions: number; deletions: number; total: number }; files?: unknown[] };
  return compact({
    ...toCommit(raw, text, messageBytes),
    stats: r.stats,
    files: (r.files ?? []).map((f) => toChangedFile(f, text, patchBytes)),
  });
}

export const branchShape = z.object({ name: z.string(), sha: z.string(), protected: z.boolean() });
export function toBranch(raw: unknown, text: UntrustedText) {
  const r = raw as { name: string; commit: { sha: string }; protected: boolean };
  return { name: text.line(r.name), sha: r.commit.sha, protected: r.protected };
}

export const tagShape = z.object({ name: z.string(), sha: z.string() });
export function toTag(raw: unknown, text: UntrustedText) {
  const r = raw as { name: string; commit: { sha: string } };
  return { name: text.line(r.name), sha: r.commit.sha };
}

export const releaseShape = z.object({
  id: count(),
  tag: z.string(),
  name: z.string().nullable(),
  draft: z.boolean(),
  prerelease: z.boolean(),
  author: z.string().nullable(),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  url: z.string(),
  body: z.string(),
});
export function toRelease(raw: unknown, text: UntrustedText, bodyBytes: number) {
  const r = raw as {
    id: number;
    tag_name: string;
    name: string | null;
    draft: boolean;
    prerelease: boolean;
    author: unknown;
    created_at: string;
    published_at: string | null;
    html_url: string;
    body?: string | null;
  };
  return {
    id: r.id,
    tag: text.line(r.tag_name),
    name: r.name === null ? null : text.line(r.name),
    draft: r.draft,
    prerelease: r.prerelease,
    author: login(r.author),
    createdAt: r.created_at,
    publishedAt: r.published_at,
    url: r.html_url,
    body: text.clean(r.body, bodyBytes, 'open the release url'),
  };
}

export const entryShape = z.object({
  type: z.string(),
  name: z.string(),
  path: z.string(),
  sha: z.string(),
  size: count(),
});
export function toEntry(raw: unknown) {
  const r = raw as { type: string; name: string; path: string; sha: string; size: number };
  return { type: r.type, name: r.name, path: r.path, sha: r.sha, size: r.size };
}

export const treeEntryShape = z.object({
  path: z.string(),
  type: z.string(),
  mode: z.string(),
  sha: z.string(),
  size: count().optional(),
});

export const userShape = z.object({ login: z.string(), type: z.string(), url: z.string() });
export function toUser(raw: unknown) {
  const r = raw as { login: string; type: string; html_url: string };
  return { login: r.login, type: r.type, url: r.html_url };
}

export const codeHitShape = z.object({
  repository: z.string(),
  path: z.string(),
  sha: z.string(),
  url: z.string(),
});
export function toCodeHit(raw: unknown, text: UntrustedText) {
  const r = raw as { path: string; sha: string; html_url: string; repository: { full_name: string } };
  return { repository: r.repository.full_name, path: text.line(r.path), sha: r.sha, url: r.html_url };
}
