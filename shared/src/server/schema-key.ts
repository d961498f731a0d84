/**
 * A key that names a zod schema's JSON Schema conversion without doing it (used by
 * schema-cache.ts). It hashes everything zod's `toJSONSchema` reads: each node's class, its
 * definition (types, shapes, checks with their bounds and patterns, enum values, defaults) and
 * its metadata in zod's global registry (descriptions, titles, `advertisedAs` forms). Two schemas
 * with the same key convert to the same JSON Schema under one zod build (the cache keeps keys per
 * bundle). Each node is hashed once (a WeakMap, as zod schemas are immutable), so the argument
 * helpers and result shapes tools share cost one walk; measured on GitHub's 57 tools, ~8 ms
 * against ~100 ms for converting them.
 *
 * Functions in a definition are not read (a refinement's or a transform's code is not in the JSON
 * Schema), except where zod's conversion calls one: a lazy schema is keyed through its inner
 * schema, and a node of a type whose conversion runs other user code (`catch`: its JSON default
 * is its handler's answer), a type not known here or a cycle makes the schema unkeyable
 * (undefined): it is then converted every time, as without a cache.
 */
import { createHash } from 'node:crypto';
import { globalRegistry } from 'zod';

/** zod v4 definition types whose JSON Schema depends on the definition's data alone. */
const KEYABLE = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'symbol',
  'null',
  'undefined',
  'void',
  'never',
  'any',
  'unknown',
  'date',
  'nan',
  'literal',
  'enum',
  'template_literal',
  'object',
  'array',
  'tuple',
  'record',
  'map',
  'set',
  'union',
  'intersection',
  'optional',
  'nullable',
  'nonoptional',
  'default',
  'prefault',
  'readonly',
  'success',
  'pipe',
  'transform',
  'custom',
  'lazy',
  'promise',
  'file',
  'function',
]);

class Unkeyable extends Error {}

interface ZodNode {
  _zod: { def?: Record<string, unknown>; innerType?: unknown };
  constructor?: { name?: string };
}

const isZodNode = (value: object): value is ZodNode =>
  '_zod' in value && typeof (value as ZodNode)._zod === 'object' && (value as ZodNode)._zod !== null;

/** Each schema or check node's text (what its key hashes), once computed. */
const keys = new WeakMap<object, string>();

/**
 * The key of `schema`'s conversion (a SHA-256 hex digest), or undefined when it cannot be keyed
 * (see the module comment). Never throws.
 */
export function schemaKey(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || !isZodNode(schema)) return undefined;
  try {
    return createHash('sha256').update(keyOf(schema, new Set())).digest('hex');
  } catch {
    return undefined;
  }
}

function keyOf(node: ZodNode, open: Set<object>): string {
  const known = keys.get(node);
  if (known) return known;
  if (open.has(node)) throw new Unkeyable();
  open.add(node);
  const def = node._zod.def ?? {};
  // A schema's definition has a type; a check's has a `check` kind instead.
  const type = 'check' in def ? undefined : def.type;
  if (type !== undefined && !KEYABLE.has(String(type))) throw new Unkeyable();
  // Text, not a hash: hashing each node was most of the walk's cost. A node's text inside another
  // (a shared argument or result shape) is the same string, embedded as is.
  const key = `{${JSON.stringify(node.constructor?.name ?? '')}:[${text(def, open)},${text(
    globalRegistry.get(node as never),
    open,
  )}${type === 'lazy' ? `,${text(node._zod.innerType, open)}` : ''}]}`;
  open.delete(node);
  keys.set(node, key);
  return key;
}

/** `value` as text: JSON, with zod nodes as their key texts and what JSON has no form for named. */
function text(value: unknown, open: Set<object>): string {
  switch (typeof value) {
    case 'function':
      return '"$fn"';
    case 'undefined':
      return '"$undefined"';
    case 'bigint':
      return `"$${value}n"`;
    case 'symbol':
      return JSON.stringify(`$${String(value)}`);
    case 'number':
      return Number.isFinite(value) ? String(value) : `"$${value}"`;
    case 'object':
      break;
    default:
      return JSON.stringify(value);
  }
  if (value === null) return 'null';
  if (isZodNode(value)) return keyOf(value, open);
  if (value instanceof RegExp) return JSON.stringify(`$re/${value.source}/${value.flags}`);
  if (value instanceof Date) return `"$date:${value.getTime()}"`;
  if (open.has(value)) throw new Unkeyable();
  open.add(value);
  let out: string;
  if (Array.isArray(value)) out = `[${value.map((v) => text(v, open)).join(',')}]`;
  else if (value instanceof Map || value instanceof Set)
    out = `{"$${value.constructor.name}":[${[...value].map((v) => text(v, open)).join(',')}]}`;
  else {
    const fields: string[] = [];
    for (const key of Object.keys(value))
      fields.push(`${JSON.stringify(key)}:${text((value as Record<string, unknown>)[key], open)}`);
    out = `{${fields.join(',')}}`;
  }
  open.delete(value);
  return out;
}
