/**
 * Completion of owners, repositories, paths, branches and pull request numbers (for the
 * repo:// template and the prompts), fenced by --repos: a repository outside the scope is never
 * offered, and nothing inside one is looked up. Each answer that needs the API makes one request
 * (searches, a directory listing, a page of branches or pull requests), cut off and cached by the
 * shared completion mechanism (completion.ts).
 */
import { encodePath } from '@refmcp/shared';
import { type Completer, type CompletionQuery, completeFrom } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { OWNER_PATTERN, REPO_PATTERN } from './names.js';
import { currentLogin, repoPath } from './tools/common.js';

/** The --repos entries as given: exact repositories and owners whose every repository is allowed. */
function scopeEntries(config: Config): { repos: [string, string][]; owners: string[] } {
  const repos: [string, string][] = [];
  const owners: string[] = [];
  for (const entry of config.scope?.description.split(',') ?? []) {
    const [owner, name] = entry.split('/');
    if (!owner || !name) continue;
    if (name === '*') owners.push(owner);
    else repos.push([owner, name]);
  }
  return { repos, owners };
}

/** owner and repo from the other chosen arguments (`owner` and `repo`, or `repo` as owner/name). */
export function chosenRepo(args: Readonly<Record<string, string>>): [string, string] | undefined {
  const [owner, repo] = args.owner ? [args.owner, args.repo] : (args.repo ?? '').split('/');
  if (!owner || !repo || !OWNER_PATTERN.test(owner) || !REPO_PATTERN.test(repo)) return undefined;
  return [owner, repo];
}

/** The chosen repository, when it is one a call could reach (inside --repos). */
function reachable(config: Config, args: Readonly<Record<string, string>>): [string, string] | undefined {
  const chosen = chosenRepo(args);
  return chosen && (!config.scope || config.scope.allows(...chosen)) ? chosen : undefined;
}

async function get<T>(
  config: Config,
  q: CompletionQuery,
  path: string,
  query: Record<string, string | number>,
) {
  return (await config.github.request<T>({ path, query, signal: q.signal })).data;
}

/** Repositories named `value`… of `owner` (a search: private ones the token can read too), full names. */
async function searchRepos(config: Config, q: CompletionQuery, owner: string | undefined, value: string) {
  const terms = [value && `${value} in:name`, owner ? `user:${owner}` : ''].filter(Boolean).join(' ');
  if (!terms) return [];
  const data = await get<{ items: { full_name: string }[] }>(config, q, '/search/repositories', {
    q: terms,
    per_page: 100,
  });
  return data.items.map((r) => r.full_name).filter((n) => !config.scope || config.scope.allowsFullName(n));
}

/** Owners: the scope's, else the token's login and users or organizations named `value`…. */
const owner =
  (config: Config): Completer =>
  async (q) => {
    if (config.scope) {
      const { repos, owners } = scopeEntries(config);
      return completeFrom([...owners, ...repos.map(([o]) => o)], q.value);
    }
    if (!q.value) return [await currentLogin(config, q.signal)];
    const data = await get<{ items: { login: string }[] }>(config, q, '/search/users', {
      q: `${q.value} in:login`,
      per_page: 100,
    });
    return completeFrom(
      data.items.map((u) => u.login),
      q.value,
    );
  };

/** Repository names of the chosen owner (separate `owner` argument). */
const repoName =
  (config: Config): Completer =>
  async (q) => {
    const chosen = q.arguments.owner;
    if (!chosen || !OWNER_PATTERN.test(chosen)) return [];
    const { repos, owners } = scopeEntries(config);
    const exact = repos.filter(([o]) => o.toLowerCase() === chosen.toLowerCase()).map(([, r]) => r);
    const searched =
      !config.scope || owners.some((o) => o.toLowerCase() === chosen.toLowerCase())
        ? await searchRepos(config, q, chosen, q.value)
        : [];
    return completeFrom([...exact, ...searched.map((n) => n.split('/')[1] ?? n)], q.value);
  };

/** "owner/name" in one argument: the scope's repositories, else a search. */
const fullName =
  (config: Config): Completer =>
  async (q) => {
    const [o, r = ''] = q.value.split('/');
    const { repos, owners } = scopeEntries(config);
    const exact = repos.map(([a, b]) => `${a}/${b}`);
    if (config.scope && !q.value.includes('/'))
      return completeFrom([...exact, ...owners.map((a) => `${a}/`)], q.value);
    const searchable = o && (!config.scope || owners.some((a) => a.toLowerCase() === o.toLowerCase()));
    const searched = searchable
      ? await searchRepos(config, q, q.value.includes('/') ? o : undefined, r || o || '')
      : [];
    return completeFrom([...exact, ...searched], q.value);
  };

/** Paths in the chosen repository: the entries of the directory typed so far (default branch). */
const path =
  (config: Config): Completer =>
  async (q) => {
    const chosen = reachable(config, q.arguments);
    if (!chosen) return [];
    const cut = q.value.lastIndexOf('/');
    const dir = cut < 0 ? '' : q.value.slice(0, cut);
    const entries = await get<{ path: string; type: string }[] | { type: string }>(
      config,
      q,
      `${repoPath(config, ...chosen)}/contents/${encodePath(dir, 'path')}`,
      {},
    );
    if (!Array.isArray(entries)) return [];
    return completeFrom(
      entries.map((e) => e.path),
      q.value,
    );
  };

/** Branch names of the chosen repository (one page of 100). */
const branch =
  (config: Config): Completer =>
  async (q) => {
    const chosen = reachable(config, q.arguments);
    if (!chosen) return [];
    const data = await get<{ name: string }[]>(config, q, `${repoPath(config, ...chosen)}/branches`, {
      per_page: 100,
    });
    return completeFrom(
      data.map((b) => b.name),
      q.value,
    );
  };

/** Open pull request numbers of the chosen repository, newest first (one page of 100). */
const pullNumber =
  (config: Config): Completer =>
  async (q) => {
    const chosen = reachable(config, q.arguments);
    if (!chosen) return [];
    const data = await get<{ number: number }[]>(config, q, `${repoPath(config, ...chosen)}/pulls`, {
      state: 'open',
      per_page: 100,
    });
    return completeFrom(
      data.map((p) => String(p.number)),
      q.value,
    );
  };

/** The completers of one server config. */
export function githubCompleters(config: Config) {
  return {
    owner: owner(config),
    repo: repoName(config),
    fullName: fullName(config),
    path: path(config),
    branch: branch(config),
    pullNumber: pullNumber(config),
  };
}
