/**
 * zod v4 building blocks for tool arguments. (JSON Schema checks of what comes from outside live in
 * ./json-schema.ts, so that servers never load ajv at startup.)
 */

import * as z from 'zod';

// A missing argument reads "query: required (string)", not zod's "Invalid input: expected string,
// received undefined": the model (and a person reading the error) sees at once what to add. Every
// schema built with this zod instance reports so; other messages are zod's own.
z.config({
  customError: (issue) =>
    issue.code === 'invalid_type' && issue.input === undefined ? `required (${issue.expected})` : undefined,
});

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
  return safeString({ max: 4096 }).describe('nextCursor of the previous page');
}

/**
 * The JSON Schema key under which {@link advertisedAs} stores a schema's advertised form;
 * `leanJsonSchema` (server/lean-schema.ts) puts that form in place of zod's conversion.
 */
export const ADVERTISED = 'x-advertised';

/**
 * `schema`, advertised in `tools/list` as `json` instead of zod's conversion of it. For arguments
 * whose accepted forms need a union that hosts refuse (DESIGN.md §2): the server keeps accepting
 * every form `schema` parses, the model is shown the one portable form `json` (which must be a
 * subset of what `schema` accepts). The description of `schema` is kept when `json` has none.
 */
export function advertisedAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  return schema.meta({ [ADVERTISED]: json }) as T;
}
