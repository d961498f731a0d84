/**
 * The SDK derives each tool's JSON Schema from its zod schema on every tools/list (through the
 * Standard Schema `~standard.jsonSchema` hook): ~35 ms per call for this server's 41 tools once
 * warm, several times that cold — and the conformance harness asks for tools/list after every
 * hostile call. This memoises the conversion per schema (the JSON is derived from an immutable
 * schema, so it cannot go stale) and hands out a copy each time, so a caller that amends the
 * result cannot change the next one. Validation (`~standard.validate`) is untouched.
 */
import type { ToolDefinition } from '@refmcp/shared';

type Converter = (options?: Record<string, unknown>) => Record<string, unknown>;
interface StandardProps {
  jsonSchema?: { input: Converter; output: Converter };
  [key: string]: unknown;
}

/** `schema` with its `~standard.jsonSchema` conversions memoised (per direction and options). */
export function withCachedJsonSchema<T extends object>(schema: T): T {
  const std = (schema as { '~standard'?: StandardProps })['~standard'];
  const jsonSchema = std?.jsonSchema;
  if (!std || !jsonSchema) return schema;
  const cache = new Map<string, Record<string, unknown>>();
  const memo =
    (io: 'input' | 'output'): Converter =>
    (options) => {
      const key = `${io}:${JSON.stringify(options ?? {})}`;
      let json = cache.get(key);
      if (!json) {
        json = jsonSchema[io](options);
        cache.set(key, json);
      }
      return structuredClone(json);
    };
  Object.defineProperty(schema, '~standard', {
    value: { ...std, jsonSchema: { input: memo('input'), output: memo('output') } },
    configurable: true,
  });
  return schema;
}

/** The same tools with memoised schema conversions. */
export function withCachedSchemas(tools: ToolDefinition[]): ToolDefinition[] {
  for (const tool of tools) {
    withCachedJsonSchema(tool.inputSchema);
    if (tool.outputSchema) withCachedJsonSchema(tool.outputSchema);
  }
  return tools;
}
