/** Argument and result schemas shared by the SQL tools. */

import { advertisedAs, safeString, z } from '@refmcp/shared/schema';
import { ToolError } from '@refmcp/shared/server';
import type { Config } from '../config.js';
import type { Budget, Params } from '../engine/protocol.js';
import { int64Problem, type ParamValue } from '../sql/params.js';
import { VALUE_ENCODING } from '../values.js';

/** What a cursor issued for another query tells the caller to repeat (shared readCursor). */
export const SAME_QUERY = 'the exact same query and params';

/** Longest SQL text accepted, in characters. */
export const MAX_SQL_CHARS = 100_000;
/** Most bound parameters (SQLite's SQLITE_MAX_VARIABLE_NUMBER in better-sqlite3 is 32766). */
export const MAX_PARAMS = 32_766;

export function sqlArg(what: string) {
  return safeString({ max: MAX_SQL_CHARS, min: 1 }).describe(what);
}

const wellFormed = z
  .string()
  .max(1_000_000, { message: 'too long: at most 1000000 characters' })
  .refine((s) => s.isWellFormed(), { message: 'contains a lone surrogate (ill-formed Unicode)' });

/** A 64-bit integer as decimal digits: a wrong form and a value out of range are told apart. */
const int64String = z
  .string()
  .max(1000, { message: 'too long: at most 1000 characters' })
  .superRefine((text, ctx) => {
    const problem = int64Problem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * One bound value. Advertised as a string, the one form every host's schema dialect and OpenAI's
 * strict mode accept without a union: SQLite converts text by the column's affinity (so
 * `WHERE id = ?` with "42" matches the integer 42); where no column decides, the SQL says it:
 * CAST(? AS INTEGER) (also exact beyond ±2^53), unhex(?) for a BLOB, NULL or NULLIF(?, '') for
 * NULL. The typed forms (number, boolean, null, {"base64"}, {"integer"}) are still accepted.
 */
const paramValue = advertisedAs(
  z.union([
    wellFormed,
    z.number(),
    z.boolean(),
    z.null(),
    z.strictObject({
      base64: z
        .string()
        .max(2_000_000)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'not base64' }),
    }),
    z.strictObject({ integer: int64String }),
  ]),
  { type: 'string' },
);

/** Positional values for ? and ?NNN (also still accepted: an object of named values, the old form). */
export const paramsArg = advertisedAs(
  z.union([
    z.array(paramValue).max(MAX_PARAMS),
    z.record(z.string().min(1).max(200), paramValue).refine((o) => Object.keys(o).length <= MAX_PARAMS, {
      message: `at most ${MAX_PARAMS} parameters`,
    }),
  ]),
  { type: 'array', items: { type: 'string' } },
)
  .optional()
  .describe(
    'Values for ? or ?N, bound as text (converted by column affinity; elsewhere CAST(? AS INTEGER), unhex(?) for ' +
      "a BLOB, NULLIF(?, '') for NULL)",
  );

/** Named values for :name, @name and $name, as a list of pairs (a map would be an open object). */
export const namedParamsArg = z
  .array(
    z.strictObject({
      name: z.string().min(1).max(200).describe('Without the prefix'),
      value: paramValue,
    }),
  )
  .max(MAX_PARAMS)
  .optional()
  .describe('Instead of params: values for :name, @name or $name');

/**
 * The values to bind for a call's `params` and `named_params`: `params` as given (an array, or the
 * old object form), or `named_params` as an object by name. Throws ToolError when both are given
 * or a name repeats.
 */
export function bindings(args: {
  params?: Params;
  named_params?: { name: string; value: ParamValue }[];
}): Params | undefined {
  if (args.named_params === undefined) return args.params;
  if (args.params !== undefined)
    throw new ToolError('named_params: give params (for ?) or named_params (for :name), not both');
  const named: Record<string, ParamValue> = {};
  for (const { name, value } of args.named_params) {
    if (Object.hasOwn(named, name)) throw new ToolError(`named_params: ${JSON.stringify(name)} given twice`);
    named[name] = value;
  }
  return named;
}

export const cellSchema = z.union([
  z.null(),
  z.number(),
  z.string(),
  z.object({ base64: z.string(), truncated: z.boolean().optional(), bytes: z.number().optional() }),
  z.object({ text: z.string(), truncated: z.boolean(), bytes: z.number() }),
]);

export const rowsShape = {
  columns: z.array(z.string()).describe('Column names in order (names may repeat).'),
  rows: z.array(z.array(cellSchema)).describe('Rows as arrays of values in column order.'),
  rowCount: z.number().describe('Rows in this page.'),
  truncated: z.boolean().describe('True when more rows exist after this page.'),
  storageClasses: z
    .array(z.string())
    .describe('Per column, the SQLite storage classes seen in this page, e.g. "integer" or "text|null".'),
  valueEncoding: z.string().describe('How values are written.'),
};

/** The page budget of a config: rows, bytes, and the per-value cut (an eighth of the bytes). */
export function budgetOf(config: Config): Budget {
  return {
    maxRows: config.maxRows,
    maxBytes: config.maxBytes,
    maxCellBytes: Math.max(256, Math.floor(config.maxBytes / 8)),
  };
}

export { VALUE_ENCODING };
