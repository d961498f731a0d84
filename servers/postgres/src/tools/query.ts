/**
 * The SQL tools: query (the official server's tool and argument, read-only, paged) and execute
 * (writes; only with --allow-writes, never with --read-only).
 */
import { createHash } from 'node:crypto';
import { advertisedAs, cursorString, safeString, z } from '@refmcp/shared/schema';
import {
  decodeCursor,
  defineTool,
  encodeCursor,
  LOCAL_HINTS,
  structuredResult,
  ToolError,
  truncationMarker,
  withHeartbeat,
} from '@refmcp/shared/server';
import type { Config } from '../config.js';
import type { Page } from '../fetch.js';
import { renderTable } from '../render.js';
import { execute, readPage, type Statement } from '../run.js';
import type { PostgresTool } from '../toolsets.js';

/** The heartbeat's message while a statement runs (progress counts the beats, one a second). */
const running = (seconds: number) => `statement running, ${seconds} s`;

/** Largest SQL text accepted, in characters. */
export const MAX_SQL = 1_000_000;

export const sqlArg = (what: string) => safeString({ max: MAX_SQL, min: 1 }).describe(what);

/**
 * The $n parameters. Advertised as strings, the one form every host accepts without a union:
 * PostgreSQL reads each as text in the type the statement gives its placeholder, exactly as the
 * driver sends numbers and booleans anyway. JSON numbers, booleans and null are still accepted.
 */
export const paramsArg = advertisedAs(
  z.array(z.union([safeString({ max: MAX_SQL }), z.number(), z.boolean(), z.null()])).max(1000),
  { type: 'array', items: { type: 'string' } },
)
  .optional()
  .describe(
    "Values for $1, $2, … in order, as text, never spliced into the SQL (cast where the type is unclear: $1::int). For NULL write NULL or NULLIF($1, '').",
  );

/** Any JSON value, spelled with a type on every branch (Inspector --strict warns on a bare {}). */
const jsonValue = advertisedAs(z.unknown(), {
  anyOf: ['string', 'number', 'boolean', 'null', 'object', 'array'].map((type) => ({ type })),
});

const column = z.object({
  name: z.string(),
  type: z.string().describe('PostgreSQL type, e.g. bigint, numeric(10,2).'),
});

const pageOutput = z.object({
  columns: z.array(column),
  rows: z
    .array(z.array(jsonValue))
    .describe(
      'Rows as arrays in column order. bigint/numeric/money: strings; dates and times: PostgreSQL text; bytea: base64; json/jsonb: JSON values.',
    ),
  rowsShown: z.number(),
  firstRow: z.number().describe('1-based position of the first row of this page in the whole result.'),
  truncated: z.boolean().describe('True when more rows exist than this page shows.'),
  moreRows: z
    .number()
    .optional()
    .describe('Rows after this page (a lower bound when moreRowsExact is false).'),
  moreRowsExact: z.boolean().optional(),
  nextCursor: z
    .string()
    .optional()
    .describe('Pass as cursor (with the same sql and params) for the next page.'),
  command: z.string().optional().describe('Command tag, e.g. SELECT, INSERT, UPDATE.'),
  rowCount: z.number().optional().describe('Rows returned (reads) or affected (writes), when complete.'),
  cellsCut: z.number().optional().describe('Cells shortened because one row alone exceeded the byte budget.'),
});

export type PageOutput = z.infer<typeof pageOutput>;

/** Identifies a statement in a cursor, so a cursor is only followed with the same sql and params. */
function statementKey(s: Statement): string {
  return createHash('sha256')
    .update(JSON.stringify([s.sql, s.params]))
    .digest('base64url')
    .slice(0, 16);
}

/** The page as structured content plus its text table and markers. */
export function pageResult(page: Page, firstRow: number, nextCursor: string | undefined, mode: string) {
  const shown = page.rows.length;
  const data: PageOutput = {
    columns: page.columns,
    rows: page.rows,
    rowsShown: shown,
    firstRow,
    truncated: page.more !== undefined,
    ...(page.more ? { moreRows: page.more.rows, moreRowsExact: page.more.exact } : {}),
    ...(nextCursor ? { nextCursor } : {}),
    ...(page.command ? { command: page.command } : {}),
    ...(page.rowCount === undefined ? {} : { rowCount: page.rowCount }),
    ...(page.cellsCut ? { cellsCut: page.cellsCut } : {}),
  };
  const lines = [renderTable(page.columns, page.rows)];
  const range = shown ? `rows ${firstRow}–${firstRow + shown - 1}` : 'no rows';
  const status = [...(page.command ? [page.command] : []), `${range} shown`];
  if (page.rowCount !== undefined && (page.columns.length === 0 || page.command !== 'SELECT'))
    status.push(`${page.rowCount} row(s) affected`);
  lines.push(`(${status.join(', ')}; ${mode})`);
  if (page.cellsCut) lines.push(`(${page.cellsCut} long cell(s) cut to fit the byte budget)`);
  if (page.more) {
    const more = page.more.exact
      ? `${page.more.rows} more`
      : `at least ${page.more.rows} more (counting stopped)`;
    lines.push(
      truncationMarker(
        `${range} shown, ${more}`,
        nextCursor
          ? `call again with the same sql and params and cursor="${nextCursor}" for the next page (it re-runs the query; ORDER BY a unique key keeps pages stable), or narrow the query (WHERE, LIMIT, aggregates)`
          : 'the rest is not returned; narrow the statement (WHERE, LIMIT) to see specific rows',
      ),
    );
  }
  return structuredResult(data, lines.join('\n'));
}

function modeLine(config: Config): string {
  return config.writes
    ? 'Server mode: writes enabled (execute tool); this tool is still read-only.'
    : 'Server mode: read-only — writes are refused by PostgreSQL.';
}

export function queryTools(config: Config): PostgresTool[] {
  const query = defineTool({
    name: 'query',
    title: 'Run a read-only SQL query',
    toolset: 'sql',
    description:
      'Run one read-only SQL statement (SELECT, WITH, VALUES, TABLE, SHOW, EXPLAIN) in a READ ONLY ' +
      `transaction, stopped after ${config.statementTimeoutMs} ms. At most ${config.maxRows} rows and ` +
      `${config.maxResultBytes} bytes a call; when cut, call again with the same sql and params and the returned ` +
      'nextCursor as cursor. SQL that reaches outside the database (COPY, files, dblink, SET ROLE, DO) or locks ' +
      `tables is refused. ${modeLine(config)}`,
    inputSchema: z.strictObject({
      sql: sqlArg('One SQL statement, e.g. SELECT * FROM users WHERE id = $1'),
      params: paramsArg,
      cursor: cursorString().optional(),
      maxRows: z
        .number()
        .int()
        .min(1)
        .max(config.maxRows)
        .optional()
        .describe(`Rows per page (default and most: ${config.maxRows}).`),
    }),
    outputSchema: pageOutput,
    annotations: LOCAL_HINTS.readOnly,
    // The context goes down as the call's cancellation: its signal is made only if a call runs long
    // enough to watch for it (db.ts).
    handler: async (args, context) => {
      const statement: Statement = { sql: args.sql, params: args.params ?? [] };
      let offset = 0;
      if (args.cursor) {
        const state = decodeCursor<{ q?: string; o?: number }>(args.cursor);
        if (
          state.q !== statementKey(statement) ||
          typeof state.o !== 'number' ||
          !Number.isSafeInteger(state.o) ||
          state.o < 0
        )
          throw new ToolError(
            'cursor: it belongs to a different statement; pass it with the same sql and params as the call that returned it',
          );
        offset = state.o;
      }
      // A heartbeat while the statement runs, when the call carried a progressToken (none otherwise).
      const page = await withHeartbeat(
        context.progress,
        readPage(config, statement, { offset, maxRows: args.maxRows ?? config.maxRows, signal: context }),
        running,
      );
      const next = page.more
        ? encodeCursor({ q: statementKey(statement), o: offset + page.rows.length })
        : undefined;
      return pageResult(page, offset + 1, next, 'read-only transaction, rolled back');
    },
  });
  if (!config.writes) return [query];

  const executeTool = defineTool({
    name: 'execute',
    title: 'Execute a SQL statement that writes',
    toolset: 'sql',
    description:
      'Run one SQL statement that changes the database (INSERT, UPDATE, DELETE, MERGE, DDL, GRANT) in its own ' +
      `transaction, committed on success, stopped after ${config.statementTimeoutMs} ms. RETURNING rows come ` +
      `back like query results (the first ${config.maxRows}). SQL that reaches outside the database is refused. ` +
      'Server mode: writes enabled (--allow-writes).',
    inputSchema: z.strictObject({
      sql: sqlArg('One SQL statement, e.g. UPDATE users SET name = $1 WHERE id = $2.'),
      params: paramsArg,
    }),
    outputSchema: pageOutput,
    annotations: LOCAL_HINTS.destructive,
    handler: async (args, { signal, progress }) => {
      const page = await withHeartbeat(
        progress,
        execute(config, { sql: args.sql, params: args.params ?? [] }, signal),
        running,
      );
      return pageResult(page, 1, undefined, 'committed');
    },
  });
  return [query, executeTool];
}
