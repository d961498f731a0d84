// leanJsonSchema: what tools/list shows the model of each zod schema (issue 14).
import { describe, expect, it } from 'vitest';
import { advertisedAs, z } from '../src/schema.js';
import { leanJsonSchema } from '../src/server/lean-schema.js';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'input') =>
  leanJsonSchema(z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Record<string, unknown>);

describe('leanJsonSchema', () => {
  it('drops $schema, sentinel bounds, zero floors and abuse guards; keeps real limits and closed objects', () => {
    expect(
      json(
        z.strictObject({
          n: z.int(),
          id: z.number().int().min(1).max(2_147_483_647),
          page: z.number().int().min(1).max(100),
          name: z.string().min(0).max(4096),
          code: z.string().min(1).max(10),
          tags: z.array(z.string()).max(5000),
        }),
      ),
    ).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer' },
        id: { type: 'integer', minimum: 1 },
        page: { type: 'integer', minimum: 1, maximum: 100 },
        name: { type: 'string' },
        code: { type: 'string', minLength: 1, maxLength: 10 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['n', 'id', 'page', 'name', 'code', 'tags'],
      additionalProperties: false,
    });
  });

  it('spells nullable as anyOf [T, null] with the description outside, and const as a typed enum', () => {
    const out = json(
      z.object({ author: z.string().nullable().describe('Login'), flag: z.literal(true).optional() }),
      'output',
    );
    expect(out.properties).toEqual({
      author: { description: 'Login', anyOf: [{ type: 'string' }, { type: 'null' }] },
      flag: { type: 'boolean', enum: [true] },
    });
  });

  it('puts the advertised form of an advertisedAs node in place of its conversion, keeping its description', () => {
    const params = advertisedAs(z.array(z.union([z.string(), z.number()])), {
      type: 'array',
      items: { type: 'string' },
    })
      .optional()
      .describe('Values');
    expect(json(z.strictObject({ params })).properties).toEqual({
      params: { description: 'Values', type: 'array', items: { type: 'string' } },
    });
    // The zod schema still accepts every form.
    expect(params.parse([1, 'a'])).toEqual([1, 'a']);
  });

  it('says a default in the description instead of the default keyword, unless omission implies it', () => {
    const out = json(
      z.strictObject({
        depth: z.number().int().min(1).max(64).default(8).describe('Levels to descend'),
        sort: z.enum(['name', 'size']).default('name'),
        button: z.enum(['left', 'right']).default('left').describe('Mouse button (default left)'),
        dryRun: z.boolean().default(false).describe('Only show the diff'),
        exclude: z.array(z.string()).default([]),
      }),
    );
    expect(out.properties).toEqual({
      depth: { type: 'integer', minimum: 1, maximum: 64, description: 'Levels to descend (default 8)' },
      sort: { type: 'string', enum: ['name', 'size'], description: 'Default name' },
      button: { type: 'string', enum: ['left', 'right'], description: 'Mouse button (default left)' },
      dryRun: { type: 'boolean', description: 'Only show the diff' },
      exclude: { type: 'array', items: { type: 'string' } },
    });
  });

  it('does not modify its input', () => {
    const input = { $schema: 'x', type: 'object', properties: { a: { type: ['string', 'null'] } } };
    const copy = structuredClone(input);
    leanJsonSchema(input);
    expect(input).toEqual(copy);
  });
});
