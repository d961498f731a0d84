/**
 * Completion of project paths, branches and merge request iids for the prompts, fenced by
 * --projects: a project outside the scope is never offered and nothing inside one is looked up
 * (under a scope a project is named by its path, never a numeric id). One API request per answer,
 * cut off and cached by the shared completion mechanism (completion.ts).
 */
import { type Completer, type CompletionQuery, completeFrom } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { isProjectId } from './names.js';
import { projectBase } from './tools/common.js';

/** The --projects entries as given: exact project paths, and groups ("grp/") whose projects are allowed. */
function scopeEntries(config: Config): string[] {
  return (config.scope?.description.split(',') ?? []).map((e) => (e.endsWith('/*') ? e.slice(0, -1) : e));
}

/** The chosen project, when a call could reach it. */
function reachable(config: Config, q: CompletionQuery): string | undefined {
  const id = q.arguments.project_id;
  if (!id || !isProjectId(id)) return undefined;
  try {
    config.scope?.check(id);
    return id;
  } catch {
    return undefined;
  }
}

/** Project paths: those the token's user is a member of whose path contains `value`, within --projects. */
const project =
  (config: Config): Completer =>
  async (q) => {
    const fixed = scopeEntries(config).filter((e) => !e.endsWith('/'));
    const found = await config.gitlab.get<{ path_with_namespace: string }[]>(
      '/projects',
      {
        membership: true,
        simple: true,
        per_page: 100,
        order_by: 'last_activity_at',
        ...(q.value ? { search: q.value, search_namespaces: true } : {}),
      },
      q.signal,
    );
    const paths = found
      .map((p) => p.path_with_namespace)
      .filter((p) => !config.scope || config.scope.allows(p));
    return completeFrom([...fixed, ...paths], q.value);
  };

/** Branch names of the chosen project whose name contains `value`. */
const branch =
  (config: Config): Completer =>
  async (q) => {
    const id = reachable(config, q);
    if (!id) return [];
    const data = await config.gitlab.get<{ name: string }[]>(
      `${projectBase(config, id)}/repository/branches`,
      { per_page: 100, ...(q.value ? { search: q.value } : {}) },
      q.signal,
    );
    return completeFrom(
      data.map((b) => b.name),
      q.value,
    );
  };

/** Open merge request iids of the chosen project, newest first. */
const mergeRequest =
  (config: Config): Completer =>
  async (q) => {
    const id = reachable(config, q);
    if (!id) return [];
    const data = await config.gitlab.get<{ iid: number }[]>(
      `${projectBase(config, id)}/merge_requests`,
      { state: 'opened', per_page: 100 },
      q.signal,
    );
    return completeFrom(
      data.map((m) => String(m.iid)),
      q.value,
    );
  };

/** The completers of one server config. */
export function gitlabCompleters(config: Config) {
  return { project: project(config), branch: branch(config), mergeRequest: mergeRequest(config) };
}
