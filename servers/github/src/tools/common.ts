/**
 * What every GitHub tool shares: repository tools confined to --repos, scope notes, repository URL
 * paths built from validated, encoded segments, page-numbered list calls that report `hasMore`
 * from the Link header, and lockdown gating. (The result envelope, `respond`, and the annotation
 * presets come from @refmcp/shared.)
 */
import { encodeSegment, linkPageInfo, type Page, scopedTool, type ToolDefinition } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import type { GitHubRequest } from '../github/client.js';
import { Lockdown } from '../lockdown.js';

/** A repository tool's target arguments. */
export interface RepoArgs {
  owner: string;
  repo: string;
}

/**
 * A repository tool: `definition` (with `owner` and `repo` arguments) confined to --repos, its
 * owner/repo checked before the handler runs (shared `scopedTool`). The server refuses to start
 * with an owner/repo tool not made by it (see {@link hasRepoArguments}).
 */
export function repoTool<
  I extends z.ZodType<RepoArgs> & z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  S extends string = string,
>(config: Config, definition: ToolDefinition<I, O, S>): ToolDefinition<I, O, S> {
  return scopedTool(config.scope, (args: RepoArgs): [string, string] => [args.owner, args.repo], definition);
}

/** True for a tool with `owner` and `repo` arguments: it must be a {@link repoTool}. */
export function hasRepoArguments(tool: ToolDefinition): boolean {
  const shape = tool.inputSchema.shape;
  return 'owner' in shape && 'repo' in shape;
}

/**
 * `/repos/{owner}/{repo}` with both segments encoded, after the --repos check (repeated for tools,
 * which {@link repoTool} checked already; the only one for resources).
 */
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
  return {
    items: pick(res.data) as T[],
    info: linkPageInfo(res.headers.link, page, perPage),
    data: res.data,
  };
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
