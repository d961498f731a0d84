/**
 * A prompt (MCP spec 2025-11-25, "Prompts") registered with its argument completions in one call:
 * the SDK serves prompts/list and prompts/get (arguments validated by `argsSchema`: a missing or bad
 * one is JSON-RPC -32602), completion.ts serves completion/complete of the arguments in `complete`.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import { type Completer, type CompletionOptions, registerCompletions } from './completion.js';

type PromptArgs = z.ZodObject<Record<string, z.ZodType<string | undefined>>>;

/** What a prompt's callback returns: prompts/get's result. */
export interface PromptResult {
  description?: string;
  messages: { role: 'user' | 'assistant'; content: { type: 'text'; text: string } }[];
}

/** prompts/get's result of one user message holding `text`. */
export const userPrompt = (text: string): PromptResult => ({
  messages: [{ role: 'user', content: { type: 'text', text } }],
});

/** `steps` numbered 1., 2., … in order (a step a caller left out leaves no gap). */
export const numberedSteps = (steps: readonly string[]): string[] =>
  steps.map((step, i) => `${i + 1}. ${step}`);

/** A prompt as data: what prompts/list shows, the arguments' schema and completers, and its text. */
export interface PromptDefinition<A extends PromptArgs> {
  name: string;
  title: string;
  /** One line for the user picking a slash command. */
  description: string;
  /** Every argument a string (the spec's prompt arguments are strings); optional ones `.optional()`. */
  argsSchema: A;
  /** Completion per argument, fenced by the operator's scope (see completion.ts). */
  complete?: { [K in keyof z.infer<A>]?: Completer };
  render(args: z.infer<A>): PromptResult | Promise<PromptResult>;
}

/** Registers `definition` on `server` (prompts capability) and its completions. */
export function registerPrompt<A extends PromptArgs>(
  server: McpServer,
  definition: PromptDefinition<A>,
  options?: CompletionOptions,
): void {
  const { name, title, description, argsSchema, render } = definition;
  server.registerPrompt(name, { title, description, argsSchema }, ((args: z.infer<A>) =>
    render(args)) as never);
  registerCompletions(
    server,
    { prompts: { [name]: (definition.complete ?? {}) as Record<string, Completer> } },
    options,
  );
}
