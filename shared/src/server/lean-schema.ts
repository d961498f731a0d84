/**
 * The JSON Schema a host sends the model, made lean and portable (DESIGN.md §2, "Context is the
 * model's budget"). zod's conversion is correct but verbose and uses keywords some hosts refuse;
 * every tool's input and output schema passes through {@link leanJsonSchema} once, before
 * `tools/list` serves it. Validation is unaffected: the server still parses every call with the
 * strict zod schema, so a bound or a lookaround dropped here is still enforced there.
 */

import { ADVERTISED } from '../schema.js';

type Json = Record<string, unknown>;

/**
 * Bounds at or beyond ±(2^31 − 1) tell a model nothing (zod's `z.int()` writes ±2^53 − 1, int32
 * columns and ids ±2^31 − 1); the server still refuses values outside them.
 */
const MEANINGLESS_BOUND = 2 ** 31 - 1;
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
/** Lower bounds of zero on lengths and counts: every length already is ≥ 0. */
const ZERO_FLOORS = ['minLength', 'minItems', 'minProperties'] as const;
/**
 * Upper bounds no model call comes near (a 100-character name, a 4096-character path, 1000
 * items): guards against abuse, enforced by the server, noise to the model.
 */
const GUARDS: Record<string, number> = { maxLength: 100, maxItems: 1000, maxProperties: 1000 };

/** Keywords whose value is one subschema, and those whose value is a list or a map of them. */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'] as const;
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const MAP = ['properties', '$defs', 'definitions', 'patternProperties'] as const;

const typeOfValue = (value: unknown): string | undefined => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    default:
      return undefined;
  }
};

/**
 * A lean, portable copy of a tool's JSON Schema (zod's draft-2020-12 output), for `tools/list`:
 * - a node marked with `advertisedAs` (shared/schema) replaced by its advertised form;
 * - no `$schema` (MCP's default dialect is 2020-12; Gemini refuses the keyword);
 * - no bounds that mean nothing to a model: `minimum`/`maximum` at or beyond ±(2^31 − 1), zero
 *   floors on `minLength`/`minItems`/`minProperties`, abuse guards (`maxLength` of 100 or more,
 *   `maxItems`/`maxProperties` of 1000 or more) — the server enforces all of them;
 * - `const: v` spelled `enum: [v]` with the value's `type` (hosts that drop `const` keep `enum`);
 * - `default: v` said in the description instead, "(default v)" — OpenAI's strict mode refuses the
 *   keyword on some deployments ("'default' is not permitted"), and a model reads the description;
 *   nothing is said for the defaults an omitted argument implies (false, null, "", [], {}) or when
 *   the description already names a default;
 * - a type array `type: [T, "null"]` spelled `anyOf: [{type: T, …}, {type: "null"}]`, the
 *   description staying outside — the form `@modelcontextprotocol/inspector --strict` accepts
 *   (it warns on type arrays). Input schemas should not be nullable at all (see the harness
 *   portability check); the rewrite applies to both so the check reports the union, not the array.
 * `additionalProperties: false` is kept everywhere (OpenAI's strict mode needs closed objects).
 * The input is not modified. Shapes: a JSON object in, a JSON object out.
 */
export function leanJsonSchema(schema: Json): Json {
  const out = lean(schema);
  return typeof out === 'object' && out !== null ? (out as Json) : schema;
}

function lean(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  let src = node as Json;
  const advertised = src[ADVERTISED];
  if (typeof advertised === 'object' && advertised !== null) {
    const { description, title } = src;
    src = {
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(advertised as Json),
    };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(src)) {
    if (key === '$schema') continue;
    if ((BOUNDS as readonly string[]).includes(key) && typeof value === 'number') {
      if (Math.abs(value) >= MEANINGLESS_BOUND) continue;
    }
    if ((ZERO_FLOORS as readonly string[]).includes(key) && value === 0) continue;
    const guard = GUARDS[key];
    if (guard !== undefined && typeof value === 'number' && value >= guard) continue;
    if ((ONE as readonly string[]).includes(key)) out[key] = lean(value);
    else if ((LIST as readonly string[]).includes(key) && Array.isArray(value)) out[key] = value.map(lean);
    else if ((MAP as readonly string[]).includes(key) && typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lean(v)]));
    else out[key] = value;
  }
  if ('default' in out) {
    const said = defaultText(out.default);
    delete out.default;
    const { description } = out;
    if (said !== undefined && !(typeof description === 'string' && /\bdefault\b/i.test(description)))
      out.description =
        typeof description === 'string' ? `${description} (default ${said})` : `Default ${said}`;
  }
  if ('const' in out) {
    const value = out.const;
    delete out.const;
    out.enum = [value];
    const type = typeOfValue(value);
    if (out.type === undefined && type) out.type = type;
  }
  if (Array.isArray(out.type)) return splitTypeArray(out);
  return out;
}

/** How a description says default `value`; undefined for what omitting the argument implies. */
function defaultText(value: unknown): string | undefined {
  if (value === false || value === null || value === '' || value === undefined) return undefined;
  if (Array.isArray(value)) return value.length ? JSON.stringify(value) : undefined;
  if (typeof value === 'object') return Object.keys(value).length ? JSON.stringify(value) : undefined;
  return String(value);
}

/** `{type: [A, B], …rest}` → `{anyOf: [{type: A, …rest}, {type: B}]}`, null last and bare. */
function splitTypeArray(node: Json): Json {
  const { type, description, title, ...rest } = node as Json & { type: unknown[] };
  const types = (type as unknown[]).filter((t): t is string => typeof t === 'string');
  if (types.length === 1) return { ...node, type: types[0] };
  const branches = types.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...keywordsFor(t, rest) }));
  branches.sort((a, b) => Number(a.type === 'null') - Number(b.type === 'null'));
  return {
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    anyOf: branches,
  };
}

/** The keywords of `rest` that apply to JSON type `type` (all but `enum` for a non-null type). */
function keywordsFor(type: string, rest: Json): Json {
  if (!Array.isArray(rest.enum)) return rest;
  const { enum: values, ...others } = rest as Json & { enum: unknown[] };
  const kept = values.filter((v) => v !== null && typeOfValue(v) !== undefined && matches(type, v));
  return kept.length ? { ...others, enum: kept } : others;
}

function matches(type: string, value: unknown): boolean {
  const actual = typeOfValue(value);
  return actual === type || (type === 'number' && actual === 'integer');
}
