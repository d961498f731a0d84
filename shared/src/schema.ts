/**
 * Schema helpers: zod v4 building blocks for tool arguments, and ajv for JSON Schema checks of what
 * comes from outside (registry files, tool schemas in tests).
 */

import AjvDraft7 from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as z from 'zod';

export { z };

/** Largest string argument accepted by `safeString` unless a caller says otherwise (characters). */
export const DEFAULT_MAX_STRING = 64 * 1024;

/**
 * A string argument that refuses what no sane value contains: NUL (`\u0000`) and ill-formed UTF-16
 * (lone surrogates, which cannot be encoded as UTF-8), and is bounded in length. Errors name the
 * argument via zod's issue path.
 */
export function safeString(opts: { max?: number; min?: number } = {}) {
  const max = opts.max ?? DEFAULT_MAX_STRING;
  return z
    .string()
    .min(opts.min ?? 0)
    .max(max, { message: `too long: at most ${max} characters` })
    .refine((s) => !s.includes('\u0000'), { message: 'must not contain NUL (\\u0000) characters' })
    .refine((s) => s.isWellFormed(), { message: 'contains a lone surrogate (ill-formed Unicode)' });
}

/** A filesystem path argument: non-empty, ≤ 4096 characters (Linux PATH_MAX), no NUL. */
export function pathString() {
  return safeString({ max: 4096, min: 1 });
}

/** An opaque pagination cursor from a previous result's `nextCursor`. */
export function cursorString() {
  return safeString({ max: 4096 }).describe(
    'Opaque cursor: the nextCursor value from a previous call. Omit to start.',
  );
}

type Validate = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv2020);
const ajv7 = new AjvDraft7.default({ strict: false, allErrors: true });
addFormats.default(ajv7);

/** The ajv instance for a schema's `$schema` dialect: draft-07 or (default) 2020-12. */
function ajvFor(schema: Record<string, unknown>) {
  return String(schema.$schema ?? '').includes('draft-07') ? ajv7 : ajv2020;
}

/** Throws with ajv's explanation unless `schema` is a valid JSON Schema (2020-12 or draft-07). */
export function assertValidJsonSchema(schema: unknown): void {
  if (!schema || typeof schema !== 'object') throw new Error('schema must be an object');
  const ajv = ajvFor(schema as Record<string, unknown>);
  if (!ajv.validateSchema(schema as object)) throw new Error(ajv.errorsText(ajv.errors));
  ajv.compile(schema as object);
}

/** Validates `data` against `schema`; returns a list of "path: message" problems (empty when valid). */
export function validateJson(schema: Record<string, unknown>, data: unknown): string[] {
  const ajv = ajvFor(schema);
  // Schemas with an $id are compiled once and reused (ajv refuses a second compile of the same $id).
  const id = typeof schema.$id === 'string' ? schema.$id : undefined;
  const validate = ((id && ajv.getSchema(id)) || ajv.compile(schema)) as Validate;
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}
