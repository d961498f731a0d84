/**
 * What every GitHub tool shares: annotation presets, scope checks, repository URL paths built
 * from validated, encoded segments, page-numbered list calls that report `hasMore` from the Link
 * header, lockdown gating and the result envelope (structuredContent + compact text, with the
 * untrusted-content notice and what was neutralised).
 */
import { encodeSegment, structuredResult, type ToolHints, type ToolResult } from '@refmcp/shared';
import { z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import { UNTRUSTED_NOTICE, type UntrustedText } from '../content.js';
import { type GitHubRequest, type PageInfo, pageInfo } from '../github/client.js';
import { Lockdown } from '../lockdown.js';

export const READ: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
/** A write that adds something new (issue, comment, PR, branch, commit). */
export const CREATE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};
/** A write that changes or replaces existing state. */
export const UPDATE: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};
/** An update whose repetition changes nothing more. */
export const SET: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: true,
};

/** `/repos/{owner}/{repo}` with both segments encoded, after the --repos check. */
export function repoPath(config: Config, owner: string, repo: string): string {
  config.scope?.check(owner, repo);
  return `/repos/${encodeSegment(owner, 'owner')}/${encodeSegment(repo, 'repo')}`;
}

/**
 * Sentence appended to descriptions of tools that read user-authored content: the lockdown notice
 * when it is on, else nothing (that the text is untrusted is said where the model reads it: in
 * the result, which labels it as data).
 */
export function contentNote(config: Config): string {
  return config.lockdown.enabled
    ? ' Lockdown is on: on public repositories, content by users without push access is withheld.'
    : '';
}

/** Sentence appended to every repository tool's description when --repos is set. */
export function scopeNote(config: Config): string {
  return config.scope ? ` Limited to ${config.scope.description} (--repos).` : '';
}

export interface Page<T> {
  items: T[];
  info: PageInfo;
}

/**
 * GET of a page-numbered list. `pick` extracts the array when GitHub wraps it (search results,
 * workflow runs); the Link header decides `hasMore` (never a silent stop at 30).
 */
export async function listPage<T = unknown>(
  config: Config,
  req: GitHubRequest,
  page = 1,
  perPage = 30,
  pick: (data: unknown) => unknown[] = (d) => d as unknown[],
): Promise<Page<T> & { data: unknown }> {
  const res = await config.github.request({ ...req, query: { ...req.query, page, per_page: perPage } });
  return { items: pick(res.data) as T[], info: pageInfo(res.headers.link, page, perPage), data: res.data };
}

/** The text shown instead of content `author` may not contribute under --lockdown, or undefined. */
export async function withheldFor(
  config: Config,
  owner: string,
  repo: string,
  author: string | null,
  signal: AbortSignal,
): Promise<string | undefined> {
  return (await config.lockdown.allows(owner, repo, author, signal))
    ? undefined
    : Lockdown.withheld(author, owner, repo);
}

/** The login of an item's author (`user.login` of issues, pull requests, comments, reviews), or null. */
export function authorOf(raw: unknown): string | null {
  return (raw as { user?: { login?: string } | null }).user?.login ?? null;
}

/**
 * Each of `items` formatted by `format`, which also gets the text shown instead of the item's body when
 * --lockdown withholds its author's content (undefined when it does not).
 */
export function formatAuthored<T>(
  config: Config,
  owner: string,
  repo: string,
  items: unknown[],
  signal: AbortSignal,
  format: (raw: unknown, withheld: string | undefined) => T,
): Promise<T[]> {
  return Promise.all(
    items.map(async (raw) => format(raw, await withheldFor(config, owner, repo, authorOf(raw), signal))),
  );
}

/** owner/repo of an API URL such as https://api.github.com/repos/acme/demo[/…]. */
export function repoOfApiUrl(url: string): [string, string] | undefined {
  const m = /\/repos\/([^/]+)\/([^/?#]+)/.exec(url);
  return m?.[1] && m[2] ? [decodeURIComponent(m[1]), decodeURIComponent(m[2])] : undefined;
}

/**
 * The result envelope: `structured` as structuredContent, and text = `lines` joined, headed by
 * the untrusted-content notice when `untrusted` carried user text, and followed by what was
 * neutralised.
 */
export function respond(
  structured: Record<string, unknown>,
  lines: string[],
  untrusted?: UntrustedText,
): ToolResult {
  const note = untrusted?.note();
  const text = [untrusted ? UNTRUSTED_NOTICE : '', ...lines, note ?? ''].filter(Boolean).join('\n');
  return structuredResult(note ? { ...structured, neutralized: note } : structured, text);
}

/** Output-schema field for {@link respond}'s note. */
export const neutralizedField = {
  neutralized: z
    .string()
    .optional()
    .describe(
      'What the sanitiser neutralised in upstream text (hidden characters, HTML comments, unsafe links)',
    ),
};

const logins = new WeakMap<Config, Promise<string>>();

/** The token's login (GET /user, cached for the process). Errors: GitHubApiError (401 without a valid token). */
export function currentLogin(config: Config, signal?: AbortSignal): Promise<string> {
  let known = logins.get(config);
  if (!known) {
    known = config.github
      .request<{ login: string }>({ path: '/user', ...(signal ? { signal } : {}) })
      .then((r) => r.data.login);
    known.catch(() => logins.delete(config));
    logins.set(config, known);
  }
  return known;
}
