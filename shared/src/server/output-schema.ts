import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import { leanJsonSchema } from './lean-schema.js';
import { cachedJsonSchema } from './schema-cache.js';

type JsonSchemaOf = (options: { target: string }) => Record<string, unknown>;

/** The Standard Schema JSON hook of a zod schema (`~standard.jsonSchema`), which the SDK calls for `tools/list`. */
type JsonSchemaHook = { input: JsonSchemaOf; output: JsonSchemaOf };

/**
 * `std.jsonSchema` with each conversion done once, and made lean and portable for the model
 * ({@link leanJsonSchema}: no `$schema`, no meaningless bounds, no type arrays, no `const`). The SDK derives a tool's JSON Schema from its
 * zod schema on every `tools/list` (tens of ms for a server with many tools; the conformance
 * harness lists tools after every hostile call); the JSON derives from an immutable schema, so it
 * cannot go stale. A copy is handed out each time: the SDK spreads or wraps what it gets.
 */
function memoised(schema: z.ZodObject): JsonSchemaHook {
  const jsonSchema = jsonSchemaOf(schema);
  const memo = new Map<string, string>();
  const convert =
    (io: 'input' | 'output'): JsonSchemaOf =>
    (options) => {
      const key = `${io} ${options.target}`;
      let json = memo.get(key);
      if (json === undefined) {
        // From an earlier start of this bundle when it converted the same schema (schema-cache.ts).
        json = cachedJsonSchema(schema, io, options.target, () =>
          JSON.stringify(leanJsonSchema(jsonSchema[io](options))),
        );
        memo.set(key, json);
      }
      // A fresh copy (JSON.parse is ~3× faster than structuredClone on these plain objects).
      return JSON.parse(json) as Record<string, unknown>;
    };
  return { input: convert('input'), output: convert('output') };
}

function jsonSchemaOf(schema: z.ZodObject): JsonSchemaHook {
  return (schema['~standard'] as unknown as { jsonSchema: JsonSchemaHook }).jsonSchema;
}

/**
 * One wrapper (and so one conversion) per zod schema for the whole process, not per server
 * instance: over HTTP's 2026-07-28 era every request gets a new McpServer, and the SDK converts
 * the called tool's input and output schemas on each (its memo lives on the instance) — 11% of a
 * search call's CPU before. The wrappers hold nothing per request or client.
 */
const inputWrappers = new WeakMap<z.ZodObject, StandardSchemaWithJSON>();
const outputWrappers = new WeakMap<z.ZodObject, StandardSchemaWithJSON>();

/**
 * `args` without the top-level keys whose value is `null` where the argument is optional and does
 * not itself accept null: OpenAI's strict mode makes every optional argument required and
 * nullable, so a strict host sends `"cursor": null` for "no cursor" (issue 14). Anything else —
 * non-objects, nulls the schema accepts or refuses for a required argument — is left as is, for
 * zod to judge. Shapes: the call's arguments in, a shallow copy (or `args` itself) out.
 */
export function dropNullOptionals(schema: z.ZodObject, args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (value !== null) continue;
    const field = schema.shape[key] as z.ZodType | undefined;
    if (!field?.safeParse(undefined).success || field.safeParse(null).success) continue;
    out ??= { ...(args as Record<string, unknown>) };
    delete out[key];
  }
  return out ?? args;
}

/**
 * A tool's inputSchema as handed to the SDK: zod validation of every call's arguments unchanged
 * (after {@link dropNullOptionals}), the JSON Schema for `tools/list` converted once.
 */
export function memoisedInputSchema(schema: z.ZodObject): StandardSchemaWithJSON {
  let wrapper = inputWrappers.get(schema);
  if (!wrapper) {
    const std = schema['~standard'];
    wrapper = {
      '~standard': {
        ...std,
        validate: (value: unknown) => std.validate(dropNullOptionals(schema, value)),
        jsonSchema: memoised(schema),
      },
    } as StandardSchemaWithJSON;
    inputWrappers.set(schema, wrapper);
  }
  return wrapper;
}

/**
 * A tool's outputSchema as handed to the SDK: the same JSON Schema in `tools/list` (converted once),
 * but no second validation of every result on the server. The SDK would otherwise zod-parse each
 * `structuredContent` our own typed handlers built (~8% of a small read's CPU); clients validate it
 * against the listed schema anyway, and the servers' tests validate every structured result they
 * receive, so a handler that drifts from its schema still fails there.
 */
export function trustedOutputSchema(schema: z.ZodObject): StandardSchemaWithJSON {
  let wrapper = outputWrappers.get(schema);
  if (!wrapper) {
    wrapper = {
      '~standard': {
        version: 1,
        vendor: 'refmcp-trusted',
        validate: (value: unknown) => ({ value }),
        jsonSchema: memoised(schema),
      },
    } as StandardSchemaWithJSON;
    outputWrappers.set(schema, wrapper);
  }
  return wrapper;
}
