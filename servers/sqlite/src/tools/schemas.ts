/** Argument and result schemas shared by the SQL tools. */
import { safeString, z } from '@refmcp/shared/schema';
import type { Config } from '../config.js';
import type { Budget } from '../engine/protocol.js';
import { int64Problem } from '../sql/params.js';
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

const paramValue = z.union([
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
]);

export const paramsArg = z
  .union([
    z.array(paramValue).max(MAX_PARAMS),
    z.record(z.string().min(1).max(200), paramValue).refine((o) => Object.keys(o).length <= MAX_PARAMS, {
      message: `at most ${MAX_PARAMS} parameters`,
    }),
  ])
  .optional()
  .describe(
    'Values bound to the placeholders, never spliced into the SQL: an array for ? (or ?1, ?2 …), an object for ' +
      ':name/@name/$name (keys without the prefix). Values: string, number, boolean (1/0), null, {"base64": …} ' +
      'for a BLOB, {"integer": "…"} for an integer beyond ±2^53.',
  );

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
