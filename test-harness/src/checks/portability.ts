// PORT: every tool's schemas are accepted by the field's pickiest clients (DESIGN.md §2, "Context
// is the model's budget"; issue 14). Input schemas: plain, closed objects with a type on every
// node (Gemini's function declarations, LangChain's MCP adapter, RE2-style pattern engines) that
// convert to OpenAI strict function schemas. Output schemas: what
// `@modelcontextprotocol/inspector --strict` warns about (modelcontextprotocol/inspector#1005:
// type arrays, boolean schemas, nodes with no type).
import type { Tool } from '@modelcontextprotocol/client';
import type { CheckContext, CheckResult } from './context.js';

type Json = Record<string, unknown>;

/** Keywords no portable input schema uses (each has a host that refuses or drops it). */
const BANNED_IN_INPUT = [
  '$schema',
  '$ref',
  '$defs',
  'definitions',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'const',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedProperties',
  'unevaluatedItems',
  // OpenAI's strict mode refuses it on some deployments ("'default' is not permitted"); the
  // server's own lean schema says a default in the description instead.
  'default',
] as const;

/** Bounds at or beyond ±(2^31 − 1) are sentinels (zod's ±2^53 − 1, int32 limits), not limits. */
const MEANINGLESS_BOUND = 2 ** 31 - 1;
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
/** Lookahead and lookbehind, which RE2-style engines (Go, Rust, Gemini) do not support. */
const LOOKAROUND = /\(\?<?[=!]/;

/** Subschemas of a node, each with the JSON-pointer-ish step that reaches it. */
function children(node: Json): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const key of ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'] as const)
    if (typeof node[key] === 'object' && node[key] !== null) out.push([key, node[key]]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const list = node[key];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) out.push([`${key}/${i}`, sub]);
  }
  for (const key of ['properties', '$defs', 'definitions', 'patternProperties'] as const) {
    const map = node[key];
    if (typeof map === 'object' && map !== null)
      for (const [name, sub] of Object.entries(map)) out.push([`${key}/${name}`, sub]);
  }
  return out;
}

/**
 * The portability problems of one tool's inputSchema, each "path: problem" (empty when portable):
 * the root and every nested object `type: "object"` with `additionalProperties: false`; every node
 * a schema object with one string `type` (no type arrays, no boolean schemas); none of
 * {@link BANNED_IN_INPUT}; no lookaround in a `pattern`; no bound at or beyond ±(2^31 − 1).
 */
export function inputSchemaPortabilityProblems(schema: unknown): string[] {
  const problems: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      problems.push(`${path}: ${JSON.stringify(node)} is not a schema object`);
      return;
    }
    const n = node as Json;
    for (const key of BANNED_IN_INPUT) if (key in n) problems.push(`${path}: uses ${key}`);
    if (Array.isArray(n.type)) problems.push(`${path}: type array ${JSON.stringify(n.type)}`);
    else if (typeof n.type !== 'string') problems.push(`${path}: no type`);
    if (n.type === 'object') {
      if (n.additionalProperties !== false)
        problems.push(`${path}: object not closed (additionalProperties is not false)`);
      if (typeof n.properties !== 'object' || n.properties === null)
        problems.push(`${path}: object without properties`);
    }
    if (typeof n.pattern === 'string' && LOOKAROUND.test(n.pattern))
      problems.push(`${path}: pattern ${JSON.stringify(n.pattern)} uses lookaround`);
    for (const key of BOUNDS) {
      const v = n[key];
      if (typeof v === 'number' && Math.abs(v) >= MEANINGLESS_BOUND)
        problems.push(`${path}: meaningless bound ${key}: ${v}`);
    }
    for (const [step, sub] of children(n)) walk(sub, `${path}/${step}`);
  };
  walk(schema, '#');
  if (typeof schema === 'object' && schema !== null && (schema as Json).type !== 'object')
    problems.push('#: root is not type "object"');
  return problems;
}

/**
 * The problems `@modelcontextprotocol/inspector --strict` warns about in an outputSchema, each
 * "path: problem" (empty when clean): boolean schemas (`true`/`false` as a subschema), type arrays
 * (`type: ["string", "null"]`: spell it `anyOf: [{type: "string"}, {type: "null"}]`) and nodes
 * with no validation keyword (no `type`, and not a `$ref`, `enum` or combinator of typed nodes).
 */
export function outputSchemaStrictProblems(schema: unknown): string[] {
  const problems: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === 'boolean') {
      problems.push(`${path}: boolean schema ${node}`);
      return;
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      problems.push(`${path}: ${JSON.stringify(node)} is not a schema`);
      return;
    }
    const n = node as Json;
    if (Array.isArray(n.type)) problems.push(`${path}: type array ${JSON.stringify(n.type)}`);
    const typed =
      typeof n.type === 'string' ||
      typeof n.$ref === 'string' ||
      Array.isArray(n.enum) ||
      'const' in n ||
      Array.isArray(n.anyOf) ||
      Array.isArray(n.oneOf) ||
      Array.isArray(n.allOf);
    if (!typed && !Array.isArray(n.type)) problems.push(`${path}: no validation keyword (no type)`);
    for (const [step, sub] of children(n)) walk(sub, `${path}/${step}`);
  };
  walk(schema, '#');
  return problems;
}

/** Keywords an OpenAI strict function schema may carry (platform.openai.com, "Structured Outputs": supported schemas). */
const OPENAI_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  '$ref',
  '$defs',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);
/** OpenAI's limits on a strict schema: nesting depth and properties in all. */
const OPENAI_MAX_DEPTH = 10;
const OPENAI_MAX_PROPERTIES = 5000;
const OPENAI_MAX_ENUM = 1000;

/** Outcome of {@link toOpenAiStrict}: the strict schema, or why the conversion fails. */
export type StrictConversion =
  | { ok: true; schema: Json; dropped: string[] }
  | { ok: false; problems: string[] };

/**
 * Converts a tool's inputSchema to an OpenAI strict function schema by OpenAI's rule (Structured
 * Outputs, "All fields must be required" and "Emulating optional parameters"): every object lists
 * every property in `required`, a property that was optional becomes nullable
 * (`type: [T, "null"]`), every object has `additionalProperties: false`, the root is an object.
 * Keywords strict mode does not support (`default`, `minLength`, `title`, …) are dropped and
 * named in `dropped` (a client drops or rejects them; the server still enforces them). Fails with
 * `problems` for what no client can fix: an open object, a node with no type, a composition other
 * than `anyOf`, more than 10 levels of nesting or 5000 properties, an enum of more than 1000.
 */
export function toOpenAiStrict(schema: unknown): StrictConversion {
  const problems: string[] = [];
  const dropped = new Set<string>();
  let properties = 0;
  const convert = (node: unknown, path: string, depth: number): Json => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) {
      problems.push(`${path}: not a schema object`);
      return {};
    }
    const n = node as Json;
    if (depth > OPENAI_MAX_DEPTH) problems.push(`${path}: nested deeper than ${OPENAI_MAX_DEPTH} levels`);
    const out: Json = {};
    for (const [key, value] of Object.entries(n)) {
      if (!OPENAI_KEYWORDS.has(key)) {
        if (['allOf', 'oneOf', 'not', 'if', 'then', 'else', 'patternProperties'].includes(key))
          problems.push(`${path}: ${key} is not supported in strict mode`);
        else dropped.add(key);
        continue;
      }
      out[key] = value;
    }
    if (out.type === undefined && out.anyOf === undefined && out.$ref === undefined && out.enum === undefined)
      problems.push(`${path}: no type`);
    if (Array.isArray(out.enum) && out.enum.length > OPENAI_MAX_ENUM)
      problems.push(`${path}: enum of ${out.enum.length} values (at most ${OPENAI_MAX_ENUM})`);
    if (Array.isArray(out.anyOf))
      out.anyOf = out.anyOf.map((sub, i) => convert(sub, `${path}/anyOf/${i}`, depth));
    if (out.items !== undefined) out.items = convert(out.items, `${path}/items`, depth + 1);
    if (typeof out.$defs === 'object' && out.$defs !== null)
      out.$defs = Object.fromEntries(
        Object.entries(out.$defs).map(([k, v]) => [k, convert(v, `${path}/$defs/${k}`, depth)]),
      );
    const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
    if (isObject) {
      if (out.additionalProperties !== false)
        problems.push(`${path}: object not closed (strict mode needs additionalProperties: false)`);
      const props = (
        typeof out.properties === 'object' && out.properties !== null ? out.properties : {}
      ) as Json;
      const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
      const converted: Json = {};
      for (const [name, sub] of Object.entries(props)) {
        properties++;
        const strict = convert(sub, `${path}/properties/${name}`, depth + 1);
        converted[name] = required.has(name) ? strict : nullable(strict);
      }
      out.properties = converted;
      out.required = Object.keys(converted);
      out.additionalProperties = false;
    }
    return out;
  };
  const root = convert(schema, '#', 1);
  if (root.type !== 'object') problems.push('#: root is not type "object"');
  if (properties > OPENAI_MAX_PROPERTIES)
    problems.push(`#: ${properties} properties in all (at most ${OPENAI_MAX_PROPERTIES})`);
  return problems.length ? { ok: false, problems } : { ok: true, schema: root, dropped: [...dropped].sort() };
}

/** `schema` that also accepts null, as OpenAI documents it: a type array, or anyOf plus null. */
function nullable(schema: Json): Json {
  if (typeof schema.type === 'string') {
    const out: Json = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type))
    return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

/** Every portability problem of one tool, each "inputSchema #/…: …" or "outputSchema #/…: …". */
export function toolPortabilityProblems(tool: Tool): string[] {
  const problems = inputSchemaPortabilityProblems(tool.inputSchema).map((p) => `inputSchema ${p}`);
  const strict = toOpenAiStrict(tool.inputSchema);
  if (!strict.ok) problems.push(...strict.problems.map((p) => `OpenAI strict: ${p}`));
  if (tool.outputSchema !== undefined)
    problems.push(...outputSchemaStrictProblems(tool.outputSchema).map((p) => `outputSchema ${p}`));
  return problems;
}

/** PORT: runs {@link toolPortabilityProblems} on every listed tool. */
export async function checkPortability(ctx: CheckContext): Promise<CheckResult> {
  const tools = await ctx.tools();
  const details: string[] = [];
  for (const tool of tools)
    for (const problem of toolPortabilityProblems(tool)) details.push(`${tool.name}: ${problem}`);
  const ok = details.length === 0;
  details.push(tools.length === 0 ? 'server lists no tools' : `${tools.length} tool(s) checked`);
  return { id: 'PORT', name: 'portable schemas (any host, OpenAI strict, Inspector --strict)', ok, details };
}
