/**
 * What every GitLab tool shares: project tools confined to --projects (shared `scopedTool`),
 * `/projects/<id>` paths from validated ids, scope and content notes, and lockdown gating of
 * authored content.
 */
import { scopedTool, type ToolDefinition } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import { Lockdown } from '../lockdown.js';
import { projectPath } from '../names.js';

/**
 * A project tool: `definition` (with a `project_id` argument) confined to --projects before its
 * handler runs. The server refuses to start with a project_id tool not made by it.
 */
export function projectTool<
  I extends z.ZodType<{ project_id: string }> & z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  S extends string = string,
>(config: Config, definition: ToolDefinition<I, O, S>): ToolDefinition<I, O, S> {
  return scopedTool(config.scope, (args: { project_id: string }): [string] => [args.project_id], definition);
}

/** True for a tool with a `project_id` argument: it must be a {@link projectTool}. */
export function hasProjectArgument(tool: ToolDefinition): boolean {
  return 'project_id' in tool.inputSchema.shape;
}

/** `/projects/<id>` after the --projects check (again, for callers outside a projectTool). */
export function projectBase(config: Config, projectId: string): string {
  config.scope?.check(projectId);
  return projectPath(projectId);
}

/** Sentence appended to descriptions of tools that read user-authored content. */
export function contentNote(config: Config): string {
  return config.lockdown.enabled
    ? ' Lockdown: on public projects, text by users below Developer access is withheld.'
    : '';
}

/** Sentence appended to every project tool's description when --projects is set. */
export function scopeNote(config: Config): string {
  return config.scope ? ` Limited to ${config.scope.description} (--projects).` : '';
}

/** The text shown instead of an item's body when --lockdown withholds its author, or undefined. */
export async function withheldFor(
  config: Config,
  base: string,
  raw: unknown,
  signal: AbortSignal,
): Promise<string | undefined> {
  const author = (raw as { author?: { id?: number; username?: string } | null } | null)?.author;
  return (await config.lockdown.allows(base, author, signal)) ? undefined : Lockdown.withheld(author);
}

/** Each of `items` formatted with the text that replaces its body under --lockdown (or undefined). */
export function formatAuthored<T>(
  config: Config,
  base: string,
  items: unknown[],
  signal: AbortSignal,
  format: (raw: unknown, withheld: string | undefined) => T,
): Promise<T[]> {
  return Promise.all(items.map(async (raw) => format(raw, await withheldFor(config, base, raw, signal))));
}

const logins = new WeakMap<Config, Promise<string>>();

/** The token's username (GET /user, cached for the process). */
export function currentUsername(config: Config, signal: AbortSignal): Promise<string> {
  let known = logins.get(config);
  if (!known) {
    known = config.gitlab
      .get<{ username?: string }>('/user', undefined, signal)
      .then((u) => u?.username ?? '');
    known.catch(() => logins.delete(config));
    logins.set(config, known);
  }
  return known;
}
