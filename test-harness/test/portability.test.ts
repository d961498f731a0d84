// PORT's rules, one schema per rule: portable input schemas, OpenAI strict conversion, and the
// output-schema problems Inspector --strict warns about.
import { describe, expect, it } from 'vitest';
import {
  inputSchemaPortabilityProblems,
  outputSchemaStrictProblems,
  toOpenAiStrict,
  toolPortabilityProblems,
} from '../src/index.js';

const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

describe('inputSchemaPortabilityProblems', () => {
  it('passes a plain closed object with a type on every node', () => {
    const schema = closed(
      {
        path: { type: 'string', minLength: 1, pattern: '^[A-Za-z0-9._-]{1,100}$', description: 'File' },
        limit: { type: 'integer', minimum: 1, maximum: 1000 },
        edits: { type: 'array', items: closed({ oldText: { type: 'string' } }, ['oldText']) },
        mode: { type: 'string', enum: ['a', 'b'] },
      },
      ['path'],
    );
    expect(inputSchemaPortabilityProblems(schema)).toEqual([]);
  });

  it('names each non-portable construct with its path', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        params: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object' }] },
        author: { type: ['string', 'null'] },
        repo: { type: 'string', pattern: '^(?!\\.\\.?$)[A-Za-z0-9._-]{1,100}$' },
        id: { type: 'integer', maximum: 9007199254740991, minimum: -9007199254740991 },
        kind: { type: 'string', const: 'x' },
        map: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } },
        any: {},
        ref: { $ref: '#/$defs/x' },
      },
      additionalProperties: false,
    };
    expect(inputSchemaPortabilityProblems(schema)).toEqual([
      '#: uses $schema',
      '#/properties/params: uses anyOf',
      '#/properties/params: no type',
      '#/properties/params/anyOf/1: object not closed (additionalProperties is not false)',
      '#/properties/params/anyOf/1: object without properties',
      '#/properties/author: type array ["string","null"]',
      '#/properties/repo: pattern "^(?!\\\\.\\\\.?$)[A-Za-z0-9._-]{1,100}$" uses lookaround',
      '#/properties/id: meaningless bound minimum: -9007199254740991',
      '#/properties/id: meaningless bound maximum: 9007199254740991',
      '#/properties/kind: uses const',
      '#/properties/map: uses propertyNames',
      '#/properties/map: object not closed (additionalProperties is not false)',
      '#/properties/map: object without properties',
      '#/properties/any: no type',
      '#/properties/ref: uses $ref',
      '#/properties/ref: no type',
    ]);
  });

  it('refuses a root that is not an object, and a boolean subschema', () => {
    expect(inputSchemaPortabilityProblems({ type: 'string' })).toContain('#: root is not type "object"');
    expect(inputSchemaPortabilityProblems(closed({ x: true }))).toEqual([
      '#/properties/x: true is not a schema object',
    ]);
  });
});

describe('inputSchemaPortabilityProblems: default', () => {
  it('names a default keyword (OpenAI strict refuses it on some deployments; say it in the description)', () => {
    expect(inputSchemaPortabilityProblems(closed({ depth: { type: 'integer', default: 8 } }))).toEqual([
      '#/properties/depth: uses default',
    ]);
  });
});

describe('toOpenAiStrict', () => {
  it('lists every property in required and makes the optional ones nullable, as OpenAI documents', () => {
    const result = toOpenAiStrict(
      closed(
        {
          sql: { type: 'string', minLength: 1, description: 'SQL' },
          cursor: { type: 'string', default: '' },
          mode: { type: 'string', enum: ['a', 'b'] },
          opts: closed({ deep: { type: 'boolean' } }),
        },
        ['sql'],
      ),
    );
    expect(result).toEqual({
      ok: true,
      dropped: ['default', 'minLength'],
      schema: {
        type: 'object',
        properties: {
          sql: { type: 'string', description: 'SQL' },
          cursor: { type: ['string', 'null'] },
          mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
          opts: {
            type: ['object', 'null'],
            properties: { deep: { type: ['boolean', 'null'] } },
            required: ['deep'],
            additionalProperties: false,
          },
        },
        required: ['sql', 'cursor', 'mode', 'opts'],
        additionalProperties: false,
      },
    });
  });

  it('fails on an open object, a node without type, and unsupported composition', () => {
    const result = toOpenAiStrict({
      type: 'object',
      properties: {
        open: { type: 'object', properties: {} },
        any: {},
        both: { allOf: [{ type: 'string' }] },
      },
    });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems).toEqual([
      '#: object not closed (strict mode needs additionalProperties: false)',
      '#/properties/open: object not closed (strict mode needs additionalProperties: false)',
      '#/properties/any: no type',
      '#/properties/both: allOf is not supported in strict mode',
      '#/properties/both: no type',
    ]);
  });

  it('fails past 10 levels of nesting', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 11; i++) schema = closed({ x: schema }, ['x']);
    const result = toOpenAiStrict(schema);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.join('\n')).toContain('nested deeper than 10 levels');
  });
});

describe('outputSchemaStrictProblems (Inspector --strict)', () => {
  it('passes typed nodes, anyOf with null, enums and $ref', () => {
    const schema = {
      type: 'object',
      properties: {
        author: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        kind: { enum: ['a'] },
        tree: { type: 'array', items: { $ref: '#/$defs/node' } },
      },
      $defs: { node: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(outputSchemaStrictProblems(schema)).toEqual([]);
  });

  it('warns on type arrays, boolean schemas and nodes with no validation keyword', () => {
    const schema = {
      type: 'object',
      properties: { author: { type: ['string', 'null'] }, any: {}, yes: true, cell: { description: 'x' } },
    };
    expect(outputSchemaStrictProblems(schema)).toEqual([
      '#/properties/author: type array ["string","null"]',
      '#/properties/any: no validation keyword (no type)',
      '#/properties/yes: boolean schema true',
      '#/properties/cell: no validation keyword (no type)',
    ]);
  });
});

describe('toolPortabilityProblems', () => {
  it('prefixes each problem with the schema it is in', () => {
    const problems = toolPortabilityProblems({
      name: 't',
      inputSchema: { type: 'object', properties: { a: {} } },
      outputSchema: { type: 'object', properties: { b: { type: ['string', 'null'] } } },
    } as never);
    expect(problems).toEqual([
      'inputSchema #: object not closed (additionalProperties is not false)',
      'inputSchema #/properties/a: no type',
      'OpenAI strict: #: object not closed (strict mode needs additionalProperties: false)',
      'OpenAI strict: #/properties/a: no type',
      'outputSchema #/properties/b: type array ["string","null"]',
    ]);
  });
});
