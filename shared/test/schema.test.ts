import { describe, expect, it } from 'vitest';
import { compileJsonSchema, validateJson } from '../src/json-schema.js';
import { pathString, safeString, z } from '../src/schema.js';

describe('safeString', () => {
  const args = z.object({ path: pathString(), note: safeString({ max: 10 }) }).strict();
  const issue = (input: unknown) => {
    const r = args.safeParse(input);
    return r.success ? undefined : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };

  it('accepts ordinary and emoji text', () => {
    expect(issue({ path: '/tmp/😀 a\u202Fb', note: 'ok' })).toBeUndefined();
  });

  it('refuses NUL, lone surrogates, over-long and unknown keys, naming the argument', () => {
    expect(issue({ path: 'a\u0000b', note: '' })).toMatch(/^path: must not contain NUL/);
    expect(issue({ path: '\ud800', note: '' })).toMatch(/^path: contains a lone surrogate/);
    expect(issue({ path: 'a', note: 'x'.repeat(11) })).toMatch(/^note: too long: at most 10/);
    expect(issue({ path: '', note: '' })).toMatch(/^path:/);
    expect(issue({ path: 'a', note: '', extra: 1 })).toMatch(/extra/);
  });
});

describe('JSON Schema checks', () => {
  it('compiles valid 2020-12 (default), 2019-09 and draft-07 schemas and refuses invalid ones', () => {
    expect(compileJsonSchema(z.toJSONSchema(z.object({ a: z.string() })))).toEqual({ ok: true });
    expect(compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })).toEqual(
      { ok: true },
    );
    expect(
      compileJsonSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' }),
    ).toEqual({
      ok: true,
    });
    expect(compileJsonSchema({ type: 'nonsense' }).ok).toBe(false);
    expect(compileJsonSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }).ok).toBe(
      false,
    );
    expect(compileJsonSchema({ $schema: 'https://example.com/mine', type: 'object' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unsupported \$schema dialect/),
    });
    expect(compileJsonSchema('x')).toEqual({ ok: false, error: 'not a JSON object' });
  });

  it('validateJson lists problems with their paths', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    expect(validateJson(schema, { n: 1 })).toEqual([]);
    expect(validateJson(schema, { n: 'x' })).toEqual(['/n: must be integer']);
  });
});
