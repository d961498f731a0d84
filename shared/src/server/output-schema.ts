import type * as z from 'zod';

/** The Standard Schema surface the SDK reads from a tool's outputSchema (`~standard`: validate + jsonSchema). */
interface StandardOutputSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): { value: unknown };
    readonly jsonSchema: {
      input(options: { target: string }): Record<string, unknown>;
      output(options: { target: string }): Record<string, unknown>;
    };
  };
}

type JsonSchemaOf = (options: { target: string }) => Record<string, unknown>;

/**
 * A tool's outputSchema as handed to the SDK: the same JSON Schema in `tools/list` (converted from the zod
 * schema once, then reused), but no second validation of every result on the server. The SDK would otherwise
 * zod-parse each `structuredContent` our own typed handlers built (~8% of a small read's CPU); clients validate
 * it against the listed schema anyway, and the tests validate every structured result they receive
 * (servers/filesystem/test/support.ts), so a handler that drifts from its schema still fails there.
 */
export function trustedOutputSchema(schema: z.ZodObject): StandardOutputSchema {
  const std = (
    schema as unknown as { '~standard': { jsonSchema: Record<'input' | 'output', JsonSchemaOf> } }
  )['~standard'];
  const memo = new Map<string, Record<string, unknown>>();
  const convert =
    (io: 'input' | 'output'): JsonSchemaOf =>
    (options) => {
      const key = `${io} ${options.target}`;
      let json = memo.get(key);
      if (!json) {
        json = std.jsonSchema[io](options);
        memo.set(key, json);
      }
      // The SDK spreads or wraps what it gets; hand out a copy so the memo stays pristine.
      return structuredClone(json);
    };
  return {
    '~standard': {
      version: 1,
      vendor: 'refmcp-trusted',
      validate: (value) => ({ value }),
      jsonSchema: { input: convert('input'), output: convert('output') },
    },
  };
}
