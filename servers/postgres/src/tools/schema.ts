/**
 * Schema insight tools: list_schemas, list_tables, describe_table, explain_query. All read-only
 * (catalog reads and EXPLAIN run in READ ONLY transactions), listings paged by keyset cursors.
 */
import { cursorString, safeString, z } from '@refmcp/shared/schema';
import {
  decodeCursor,
  defineTool,
  encodeCursor,
  LOCAL_HINTS,
  structuredResult,
  type ToolDefinition,
  ToolError,
  truncationMarker,
} from '@refmcp/shared/server';
import { describeTable, describeText, listSchemas, listTables } from '../catalog.js';
import type { Config } from '../config.js';
import { explain } from '../run.js';
import { paramsArg, sqlArg } from './query.js';

/** A schema or table name: exact catalog spelling (PostgreSQL identifiers are at most 63 bytes). */
const nameArg = (what: string) => safeString({ max: 256, min: 1 }).describe(what);
const limitArg = (max: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(max)
    .optional()
    .describe(`Entries per page (default ${Math.min(200, max)}, most ${max}).`);

/** Reads a listing cursor; `kind` keeps a list_tables cursor out of list_schemas and back. */
function readListCursor<T extends Record<string, unknown>>(
  cursor: string | undefined,
  kind: string,
  scope: string,
): T | undefined {
  if (cursor === undefined) return undefined;
  const state = decodeCursor<T & { k?: string; s?: string }>(cursor);
  if (state.k !== kind || state.s !== scope)
    throw new ToolError(
      `cursor: not a ${kind} cursor for these arguments; pass nextCursor from the previous ${kind} call`,
    );
  return state;
}

export function schemaTools(config: Config): ToolDefinition[] {
  const pageMax = Math.min(1000, config.maxRows);
  const defaultLimit = Math.min(200, pageMax);
  const modeNote = config.writes ? 'Server mode: writes enabled (execute tool).' : 'Server mode: read-only.';

  const listSchemasTool = defineTool({
    name: 'list_schemas',
    title: 'List schemas',
    description:
      'List the schemas of the connected database with their owner, number of tables and comment. ' +
      `PostgreSQL's own schemas (pg_*, information_schema) only with includeSystem. Paged: follow nextCursor. ${modeNote}`,
    inputSchema: z.strictObject({
      includeSystem: z
        .boolean()
        .optional()
        .describe('Include pg_catalog, information_schema and other pg_* schemas.'),
      cursor: cursorString().optional(),
      limit: limitArg(pageMax),
    }),
    outputSchema: z.object({
      schemas: z.array(
        z.object({ name: z.string(), owner: z.string(), tables: z.number(), comment: z.string().nullable() }),
      ),
      nextCursor: z.string().optional(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const scope = String(args.includeSystem === true);
      const position = readListCursor<{ a: string }>(args.cursor, 'list_schemas', scope);
      const limit = args.limit ?? defaultLimit;
      const rows = await listSchemas(
        config,
        { limit, includeSystem: args.includeSystem === true, ...(position ? { after: position.a } : {}) },
        signal,
      );
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const nextCursor =
        rows.length > limit && last ? encodeCursor({ k: 'list_schemas', s: scope, a: last.name }) : undefined;
      const lines = page.map(
        (s) => `${s.name} (owner ${s.owner}, ${s.tables} tables)${s.comment ? ` — ${s.comment}` : ''}`,
      );
      if (page.length === 0) lines.push('(no schemas)');
      if (nextCursor)
        lines.push(
          truncationMarker(`${page.length} schemas shown, more exist`, `pass cursor="${nextCursor}"`),
        );
      return structuredResult({ schemas: page, ...(nextCursor ? { nextCursor } : {}) }, lines.join('\n'));
    },
  });

  const listTablesTool = defineTool({
    name: 'list_tables',
    title: 'List tables',
    description:
      'List tables, views, materialized views and foreign tables with their kind, approximate row count ' +
      '(from planner statistics: run ANALYZE for fresh numbers; null when never analyzed) and total size ' +
      '(table + indexes + TOAST). All non-system schemas unless schema is given. Paged: follow nextCursor. ' +
      modeNote,
    inputSchema: z.strictObject({
      schema: nameArg('Only this schema (exact name, e.g. public).').optional(),
      cursor: cursorString().optional(),
      limit: limitArg(pageMax),
    }),
    outputSchema: z.object({
      tables: z.array(
        z.object({
          schema: z.string(),
          name: z.string(),
          kind: z.string(),
          approx_rows: z.string().nullable().describe('Planner estimate (pg_class.reltuples), as a string.'),
          total_bytes: z.string().describe('pg_total_relation_size, bytes, as a string.'),
          size: z.string(),
          comment: z.string().nullable(),
        }),
      ),
      nextCursor: z.string().optional(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const scope = args.schema ?? '';
      const position = readListCursor<{ a: [string, string] }>(args.cursor, 'list_tables', scope);
      const limit = args.limit ?? defaultLimit;
      const rows = await listTables(
        config,
        {
          limit,
          ...(args.schema ? { schema: args.schema } : {}),
          ...(position ? { after: position.a } : {}),
        },
        signal,
      );
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const nextCursor =
        rows.length > limit && last
          ? encodeCursor({ k: 'list_tables', s: scope, a: [last.schema, last.name] })
          : undefined;
      const lines = page.map(
        (t) =>
          `${t.schema}.${t.name} (${t.kind}, ~${t.approx_rows ?? '?'} rows, ${t.size})${t.comment ? ` — ${t.comment}` : ''}`,
      );
      if (page.length === 0)
        lines.push(args.schema ? `(no tables in schema "${args.schema}")` : '(no tables)');
      if (nextCursor)
        lines.push(
          truncationMarker(`${page.length} tables shown, more exist`, `pass cursor="${nextCursor}"`),
        );
      return structuredResult({ tables: page, ...(nextCursor ? { nextCursor } : {}) }, lines.join('\n'));
    },
  });

  const describeTool = defineTool({
    name: 'describe_table',
    title: 'Describe a table',
    description:
      'Describe a table or view before writing SQL against it: columns (type, nullability, default, identity, ' +
      'generated, comment), primary key, constraints, foreign keys (both directions), indexes, approximate ' +
      'size and, for views, the definition. table is the exact name ("schema.table" also works); without ' +
      `schema it is looked up on the search path, then in every schema. ${modeNote}`,
    inputSchema: z.strictObject({
      table: nameArg('Table or view name, exact and case-sensitive (e.g. users or sales.orders).'),
      schema: nameArg('Schema of the table (e.g. public).').optional(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const table = await describeTable(config, args.table, args.schema, signal);
      return structuredResult({ ...table }, describeText(table));
    },
  });

  const explainTool = defineTool({
    name: 'explain_query',
    title: 'Explain a query plan',
    description:
      "Show PostgreSQL's plan for one statement as JSON (EXPLAIN (FORMAT JSON)): node types, estimated " +
      'costs and rows, indexes used. analyze: true also runs the statement (EXPLAIN ANALYZE, BUFFERS) for ' +
      'actual times and row counts — always inside a READ ONLY transaction that is rolled back, so a write ' +
      `can never happen — within the ${config.statementTimeoutMs} ms statement timeout. ` +
      (config.writes
        ? ''
        : 'Writes (INSERT, UPDATE, DELETE, MERGE) and SELECT … FOR UPDATE/SHARE are refused: planning them takes ' +
          'their table locks, which needs --allow-writes. ') +
      modeNote,
    inputSchema: z.strictObject({
      sql: sqlArg('The statement to explain (one statement; $n placeholders with params).'),
      params: paramsArg,
      analyze: z
        .boolean()
        .optional()
        .describe('Run it for actual timings (read-only transaction). Default false.'),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const plan = await explain(
        config,
        { sql: args.sql, params: args.params ?? [] },
        { analyze: args.analyze === true, signal },
      );
      const top = (Array.isArray(plan) ? plan[0] : undefined) as
        | { Plan?: Record<string, unknown>; 'Execution Time'?: number }
        | undefined;
      const node = top?.Plan ?? {};
      const summary = [
        `${node['Node Type'] ?? '?'}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}`,
        `estimated cost ${node['Startup Cost'] ?? '?'}..${node['Total Cost'] ?? '?'}, rows ${node['Plan Rows'] ?? '?'}`,
        ...(top?.['Execution Time'] !== undefined ? [`execution ${top['Execution Time']} ms`] : []),
      ].join('; ');
      return structuredResult({ plan }, `${summary}\n${JSON.stringify(plan, null, 1)}`);
    },
  });

  return [listSchemasTool, listTablesTool, describeTool, explainTool];
}
