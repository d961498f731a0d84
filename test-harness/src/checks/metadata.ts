// META: every tool is fully described — title, description, valid input/output JSON Schemas and
// all four behaviour annotations as booleans — so hosts can show it and gate it.
import type { Tool } from '@modelcontextprotocol/client';
import { compileJsonSchema } from '@refmcp/shared/json-schema';
import type { CheckContext, CheckResult } from './context.js';

const ANNOTATIONS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
// MCP 2025-11-25 (SEP-986): 1–128 characters from this set.
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The metadata problems of one tool (empty when it is complete). */
export function toolMetadataProblems(tool: Tool): string[] {
  const problems: string[] = [];
  const title = tool.title ?? tool.annotations?.title;
  if (typeof title !== 'string' || title.trim() === '') problems.push('no title');
  if (typeof tool.description !== 'string' || tool.description.trim() === '') problems.push('no description');
  if (!TOOL_NAME.test(tool.name))
    problems.push(`name ${JSON.stringify(tool.name)} is not 1–128 of [A-Za-z0-9_.-]`);
  for (const [key, schema] of [
    ['inputSchema', tool.inputSchema],
    ['outputSchema', tool.outputSchema],
  ] as const) {
    if (schema === undefined) {
      if (key === 'inputSchema') problems.push('no inputSchema');
      continue;
    }
    if (schema.type !== 'object')
      problems.push(`${key}.type is ${JSON.stringify(schema.type)}, not "object"`);
    const verdict = compileJsonSchema(schema);
    if (!verdict.ok) problems.push(`${key} is not valid JSON Schema: ${verdict.error}`);
  }
  for (const hint of ANNOTATIONS) {
    const value = tool.annotations?.[hint];
    if (typeof value !== 'boolean')
      problems.push(`annotation ${hint} ${value === undefined ? 'missing' : 'not a boolean'}`);
  }
  return problems;
}

/** META tool metadata: runs {@link toolMetadataProblems} on every listed tool, and checks names are unique. */
export async function checkToolMetadata(ctx: CheckContext): Promise<CheckResult> {
  const tools = await ctx.tools();
  const details: string[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) details.push(`${tool.name}: listed more than once`);
    seen.add(tool.name);
    for (const problem of toolMetadataProblems(tool)) details.push(`${tool.name}: ${problem}`);
  }
  const ok = details.length === 0;
  details.push(tools.length === 0 ? 'server lists no tools' : `${tools.length} tool(s) checked`);
  return { id: 'META', name: 'tool metadata (title, description, schemas, annotations)', ok, details };
}
