import { describe, expect, it, vi } from 'vitest';
import { z } from '../src/schema.js';
import { leanJsonSchema } from '../src/server/lean-schema.js';
import { memoisedInputSchema, trustedOutputSchema } from '../src/server/output-schema.js';

const output = z.object({
  path: z.string(),
  size: z.number().describe('Bytes.'),
  kind: z.enum(['file', 'directory']),
  next: z.string().optional(),
});

describe('trustedOutputSchema', () => {
  it("lists the zod schema's JSON Schema, made lean (issue 14: no $schema, bounds or type arrays)", () => {
    const target = 'draft-2020-12';
    const std = trustedOutputSchema(output)['~standard'];
    for (const io of ['input', 'output'] as const) {
      expect(std.jsonSchema[io]({ target })).toEqual(leanJsonSchema(z.toJSONSchema(output, { target, io })));
      expect(std.jsonSchema[io]({ target })).not.toHaveProperty('$schema');
    }
  });

  it('hands out copies: a caller that mutates one does not change the next', () => {
    const std = trustedOutputSchema(output)['~standard'];
    const first = std.jsonSchema.output({ target: 'draft-2020-12' });
    first.type = 'changed';
    expect(std.jsonSchema.output({ target: 'draft-2020-12' }).type).toBe('object');
  });

  it('does not re-validate what our own handlers built (clients and tests validate it)', () => {
    const value = { path: 'x', size: 1, kind: 'file' };
    expect(trustedOutputSchema(output)['~standard'].validate(value)).toEqual({ value });
  });
});

describe('memoisedInputSchema', () => {
  const input = z.strictObject({
    path: z.string(),
    cursor: z.string().optional(),
    note: z.string().nullable().optional(),
  });
  const validate = (value: unknown) =>
    memoisedInputSchema(input)['~standard'].validate(value) as { value?: unknown; issues?: unknown[] };

  it('takes null for an optional argument as omitted (what OpenAI strict hosts send)', () => {
    expect(validate({ path: 'a', cursor: null })).toEqual({ value: { path: 'a' } });
  });
  it('keeps null where the argument accepts it, and refuses it for a required one', () => {
    expect(validate({ path: 'a', note: null })).toEqual({ value: { path: 'a', note: null } });
    expect(validate({ path: null }).issues?.length).toBeGreaterThan(0);
  });
});

describe('one conversion per schema for the process', () => {
  it('every server instance (HTTP makes one per request) gets the same wrapper: zod converts once', () => {
    const input = z.strictObject({ query: z.string().describe('Words.') });
    const result = z.object({ hits: z.array(z.string()) });
    const hooks = (s: z.ZodObject) =>
      (s['~standard'] as unknown as { jsonSchema: { input: () => unknown; output: () => unknown } })
        .jsonSchema;
    const toInput = vi.spyOn(hooks(input), 'input');
    const toOutput = vi.spyOn(hooks(result), 'output');
    const target = 'draft-2020-12';
    for (let instance = 0; instance < 3; instance++) {
      expect(memoisedInputSchema(input)).toBe(memoisedInputSchema(input));
      expect(memoisedInputSchema(input)['~standard'].jsonSchema.input({ target })).toEqual(
        leanJsonSchema(z.toJSONSchema(input, { target, io: 'input' })),
      );
      trustedOutputSchema(result)['~standard'].jsonSchema.output({ target });
    }
    expect(toInput).toHaveBeenCalledTimes(1);
    expect(toOutput).toHaveBeenCalledTimes(1);
    expect(trustedOutputSchema(result)).toBe(trustedOutputSchema(result));
  });
});
