// Arguments made up from a tool's JSON inputSchema: a "valid-ish" set (every required property
// gets a plausible value) and the per-property facts the hostile-argument check needs.

/** A JSON Schema object (as found in tools/list). */
export type JsonSchema = Record<string, unknown>;

/** A JSON type name a property accepts, as the checks see it. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** One top-level property of a tool's inputSchema. */
export interface PropertyInfo {
  name: string;
  /** Every type the property accepts (after $ref/anyOf/oneOf resolution); empty = any. */
  types: JsonType[];
  required: boolean;
  schema: JsonSchema;
}

const MAX_DEPTH = 6;
const STRING_CANDIDATES = [
  'harness',
  'a',
  'A',
  '1',
  'abc123',
  'a-b',
  'a_b',
  'owner/repo',
  'x.txt',
  '/tmp',
  'ab',
];

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows a local `$ref` ("#/$defs/x", "#/definitions/x") within `root`; other refs resolve to {}. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 16 && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#')) return {};
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isObject(target) ? target[key] : undefined;
    }
    if (!isObject(target)) return {};
    const { $ref: _ignored, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

/** The types a schema accepts, looking through `type`, `anyOf`/`oneOf`, `const`, `enum`. */
export function schemaTypes(schema: JsonSchema, root: JsonSchema): JsonType[] {
  const s = resolveRef(schema, root);
  if (typeof s.type === 'string') return [s.type as JsonType];
  if (Array.isArray(s.type)) return s.type as JsonType[];
  const options = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(options)) {
    const all = new Set<JsonType>();
    for (const option of options) {
      if (!isObject(option)) continue;
      const types = schemaTypes(option, root);
      if (types.length === 0) return [];
      for (const t of types) all.add(t);
    }
    return [...all];
  }
  const values = 'const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  if (values) return [...new Set(values.map(jsonTypeOf))];
  if (isObject(s.properties)) return ['object'];
  return [];
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** The top-level properties of an object schema, in declaration order. */
export function topLevelProperties(inputSchema: JsonSchema): PropertyInfo[] {
  const root = resolveRef(inputSchema, inputSchema);
  const props = isObject(root.properties) ? root.properties : {};
  const required = new Set(Array.isArray(root.required) ? (root.required as string[]) : []);
  return Object.entries(props)
    .filter((entry): entry is [string, JsonSchema] => isObject(entry[1]))
    .map(([name, schema]) => ({
      name,
      types: schemaTypes(schema, inputSchema),
      required: required.has(name),
      schema: resolveRef(schema, inputSchema),
    }));
}

/**
 * True when the schema deliberately accepts keys beyond `properties`: `additionalProperties` (or
 * `unevaluatedProperties`) is `true` or a schema, or `patternProperties` is set. An absent
 * `additionalProperties` does not count: hosts and models read that as "these are the arguments".
 */
export function allowsExtraKeys(inputSchema: JsonSchema): boolean {
  const root = resolveRef(inputSchema, inputSchema);
  const open = (v: unknown) => v === true || isObject(v);
  return (
    open(root.additionalProperties) || open(root.unevaluatedProperties) || isObject(root.patternProperties)
  );
}

/**
 * A valid-ish arguments object for a tool: every required property (recursively) gets a value from
 * its const/enum/default/examples, else one made up by type (string "harness" or one matching its
 * pattern/format/length bounds, number at its minimum or 1, boolean false, one-item arrays).
 * Optional properties are left out. Never throws; unknown shapes get "harness".
 */
export function synthesizeArgs(inputSchema: JsonSchema): Record<string, unknown> {
  const value = synthesizeValue(inputSchema, inputSchema, 0);
  return isObject(value) ? value : {};
}

/** A plausible value for `schema` (see {@link synthesizeArgs}); `root` resolves `$ref`s. */
export function synthesizeValue(schema: JsonSchema, root: JsonSchema, depth: number): unknown {
  if (depth > 4 * MAX_DEPTH) return null; // a self-referencing anyOf/allOf chain
  const s = resolveRef(schema, root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  const options = (s.anyOf ?? s.oneOf) as unknown;
  if (Array.isArray(options)) {
    const choice = options.find((o) => isObject(o) && !schemaTypes(o, root).every((t) => t === 'null'));
    if (isObject(choice))
      return synthesizeValue({ ...s, anyOf: undefined, oneOf: undefined, ...choice }, root, depth + 1);
  }
  if (Array.isArray(s.allOf)) {
    const merged: JsonSchema = { ...s, allOf: undefined };
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const part of [s, ...(s.allOf as unknown[]).filter(isObject)]) {
      const p = resolveRef(part, root);
      Object.assign(merged, p, { allOf: undefined });
      Object.assign(properties, p.properties);
      if (Array.isArray(p.required)) required.push(...(p.required as string[]));
    }
    return synthesizeValue({ ...merged, properties, required }, root, depth + 1);
  }
  const types = schemaTypes(s, root);
  const type =
    types.find((t) => t !== 'null') ??
    (types.includes('null') ? 'null' : isObject(s.properties) ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth >= MAX_DEPTH) return out;
      const props = isObject(s.properties) ? s.properties : {};
      for (const name of Array.isArray(s.required) ? (s.required as string[]) : []) {
        const prop = props[name];
        out[name] = isObject(prop) ? synthesizeValue(prop, root, depth + 1) : 'harness';
      }
      return out;
    }
    case 'array': {
      if (depth >= MAX_DEPTH) return [];
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, 1);
      const count = Math.min(Math.max(min, 1), max);
      const items = isObject(s.items) ? s.items : {};
      return Array.from({ length: count }, () => synthesizeValue(items, root, depth + 1));
    }
    case 'number':
    case 'integer':
      return synthesizeNumber(s, type === 'integer');
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return synthesizeString(s);
  }
}

function synthesizeNumber(s: JsonSchema, integer: boolean): number {
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  const exclusiveMin = num(s.exclusiveMinimum);
  let value = num(s.minimum) ?? (exclusiveMin === undefined ? 1 : exclusiveMin + (integer ? 1 : 0.5));
  const max = num(s.maximum) ?? num(s.exclusiveMaximum);
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

const FORMAT_EXAMPLES: Record<string, string> = {
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  email: 'user@example.com',
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
};

function synthesizeString(s: JsonSchema): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY;
  const fits = (v: string) => v.length >= min && v.length <= max;
  const format = typeof s.format === 'string' ? FORMAT_EXAMPLES[s.format] : undefined;
  let pattern: RegExp | undefined;
  try {
    pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  } catch {
    pattern = undefined;
  }
  const candidates = format ? [format, ...STRING_CANDIDATES] : STRING_CANDIDATES;
  const found = candidates.find((c) => fits(c) && (!pattern || pattern.test(c)));
  if (found !== undefined) return found;
  const padded = 'harness'.padEnd(min, 'a');
  return Number.isFinite(max) ? padded.slice(0, max) : padded;
}
