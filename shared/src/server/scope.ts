/**
 * Allowlists below the credentials (`--repos` today; GitLab projects, Slack channels, Drive folders
 * next): the operator names the upstream targets every tool is confined to, and a tool call naming
 * another is refused before its handler runs (case GH-03: a hostile issue in a public repository
 * must not steer the agent into a private one). The vendor part — parsing the flag, comparing
 * names, the refusal message — is the server's `Scope`; the part that cannot be forgotten is here.
 */
import type * as z from 'zod';
import { ToolError } from './errors.js';
import type { ToolContext, ToolDefinition } from './tool.js';

/**
 * An operator's allowlist. `T` is the target as a tuple of names, e.g. `[owner: string, repo: string]`
 * or `[channel: string]`.
 */
export interface Scope<T extends unknown[]> {
  /**
   * Throws (or rejects with) a ToolError written for the model when the target is outside the
   * allowlist. Async for allowlists that must ask the upstream (Drive folders: a file's ancestry).
   */
  check(...target: T): void | Promise<void>;
}

const scoped = new WeakSet<object>();

/**
 * `definition` confined to `scope`: before the handler runs, `target` picks the target out of the
 * validated arguments and `scope.check` refuses it when it is outside, so the handler never sees an
 * out-of-scope target (the refusal is an `isError` result with the scope's message). A tool that
 * asks for confirmation (`confirm`) has its target checked before the question: the user is never
 * asked about a call that would be refused. Without a scope
 * (no allowlist configured) the handler runs unguarded. Returns a new definition, which
 * {@link requireScoped} recognises.
 */
export function scopedTool<
  I extends z.ZodObject,
  O extends z.ZodObject,
  S extends string,
  T extends unknown[],
>(
  scope: Scope<T> | undefined,
  target: (args: z.infer<I>) => T,
  definition: ToolDefinition<I, O, S>,
): ToolDefinition<I, O, S> {
  const { handler, confirm } = definition;
  // Arguments whose target `confirm` already checked: the handler that follows need not ask again
  // (a Drive folder check is an upstream call). Keyed by the very arguments object run.ts passes to both.
  const checked = new WeakSet<object>();
  const guarded: ToolDefinition<I, O, S> = scope
    ? {
        ...definition,
        // The scope is checked before the user is asked: nobody is asked to confirm a call that is refused.
        ...(confirm
          ? {
              confirm: async (args: z.infer<I>) => {
                await scope.check(...target(args));
                checked.add(args);
                return confirm(args);
              },
            }
          : {}),
        handler: async (args: z.infer<I>, ctx: ToolContext) => {
          if (!checked.delete(args)) await scope.check(...target(args));
          return handler(args, ctx);
        },
      }
    : { ...definition };
  scoped.add(guarded);
  return guarded;
}

/** True when `definition` was made by {@link scopedTool}. */
export function isScopedTool(definition: object): boolean {
  return scoped.has(definition);
}

/**
 * `tools` unchanged, after checking that every tool `needsScope` picks (e.g. every tool with
 * owner and repo arguments) was made by {@link scopedTool}. Errors: an Error naming the unguarded
 * tools (a bug in the server, so it fails at startup).
 */
export function requireScoped<T extends ToolDefinition>(tools: T[], needsScope: (tool: T) => boolean): T[] {
  const unguarded = tools.filter((t) => needsScope(t) && !isScopedTool(t));
  if (unguarded.length)
    throw new Error(`tool(s) not confined to the scope: ${unguarded.map((t) => t.name).join(', ')}`);
  return tools;
}

/**
 * The refusal of a target outside an operator's allowlist, in the same words on every server:
 * `things` names what the flag lists ("repositories", "projects", "channels"), `flag` the flag.
 */
export function outOfScope(target: string, things: string, flag: string, description: string): ToolError {
  return new ToolError(
    `${target} is outside the ${things} this server may access (${flag} ${description}). ` +
      `This limit is set by the operator and cannot be changed by a tool call; work within the allowed ${things}.`,
  );
}
