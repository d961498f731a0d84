import { describe, expect, it } from 'vitest';
import { advertisedAs, z } from '../src/schema.js';
import { schemaKey } from '../src/server/schema-key.js';

/** Built fresh each call: equal keys must come from equal content, not from one object. */
const tool = (limit = 100, note = 'Rows per page.') =>
  z.strictObject({
    query: z.string().min(1).max(500).describe('Search words.'),
    state: z.enum(['open', 'closed']).optional(),
    per_page: z.int().min(1).max(limit).default(30).describe(note),
    labels: z.array(z.string().regex(/^[\w-]+$/)).optional(),
  });

describe('schemaKey (the key of a schema’s JSON Schema conversion, schema-cache.ts)', () => {
  it('is the same for schemas built alike, in separate objects', () => {
    expect(schemaKey(tool())).toMatch(/^[0-9a-f]{64}$/);
    expect(schemaKey(tool())).toBe(schemaKey(tool()));
  });

  it('changes with anything the JSON Schema shows: a bound, a description, an enum value, a default, a pattern, metadata', () => {
    const base = schemaKey(tool());
    const variants = [
      tool(50),
      tool(100, 'Rows per page (at most 100).'),
      z.strictObject({ ...tool().shape, state: z.enum(['open', 'all']).optional() }),
      z.strictObject({
        ...tool().shape,
        per_page: z.int().min(1).max(100).default(20).describe('Rows per page.'),
      }),
      z.strictObject({ ...tool().shape, labels: z.array(z.string().regex(/^[\w.-]+$/)).optional() }),
      z.strictObject({ ...tool().shape, query: advertisedAs(z.string(), { type: 'string', minLength: 2 }) }),
      z.object(tool().shape),
    ];
    const keys = variants.map(schemaKey);
    for (const key of keys) expect(key).not.toBe(base);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keys a lazy schema through its inner schema', () => {
    const lazy = (max: number) => z.strictObject({ depth: z.lazy(() => z.int().max(max)) });
    expect(schemaKey(lazy(3))).toBe(schemaKey(lazy(3)));
    expect(schemaKey(lazy(3))).not.toBe(schemaKey(lazy(4)));
  });

  it('leaves unkeyed what it cannot vouch for (undefined: converted every time): catch, recursion, non-zod', () => {
    expect(schemaKey(z.strictObject({ n: z.int().catch(3) }))).toBeUndefined();
    type Node = { children: Node[] };
    const node: z.ZodType<Node> = z.lazy(() => z.object({ children: z.array(node) }));
    expect(schemaKey(z.object({ root: node }))).toBeUndefined();
    expect(schemaKey({ type: 'object' })).toBeUndefined();
  });
});
