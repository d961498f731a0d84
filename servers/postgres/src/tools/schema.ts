/**
 * Schema insight tools: list_schemas, list_tables, describe_table, explain_query. All read-only
 * (catalog reads and EXPLAIN run in READ ONLY transactions), listings paged by keyset cursors.
 */
import { cursorString, safeString, z } from '@refmcp/shared/schema';
import {
  counted,
  decodeCursor,
  defineTool,
  encodeCursor,
  LOCAL_HINTS,
  structuredResult,
  ToolError,
  truncationMarker,
  withResourceLinks,
} from '@refmcp/shared/server';
import { describeTable, describeText, listSchemas, listTables } from '../catalog.js';
import type { Config } from '../config.js';
import { tableUri } from '../resources.js';
import { explain } from '../run.js';
import type { PostgresTool } from '../toolsets.js';
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
    .describe(`Entries per page (default ${Math.min(200, max)})`);

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

export function schemaTools(config: Config): PostgresTool[] {
  const pageMax = Math.min(1000, config.maxRows);
  const defaultLimit = Math.min(200, pageMax);
  const modeNote = config.writes ? 'Server mode: writes enabled (execute tool).' : 'Server mode: read-only.';

  const listSchemasTool = defineTool({
    name: 'list_schemas',
    title: 'List schemas',
    toolset: 'schema',
    description: `List the schemas with their owner, table count and comment. Paged: follow nextCursor. ${modeNote}`,
    inputSchema: z.strictObject({
      includeSystem: z.boolean().optional().describe('Include pg_* and information_schema'),
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
        (s) =>
          `${s.name} (owner ${s.owner}, ${counted(s.tables, 'tables')})${s.comment ? ` — ${s.comment}` : ''}`,
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
    toolset: 'schema',
    description:
      'List tables, views and foreign tables with kind, planner row estimate and total size. ' +
      `Paged: follow nextCursor. ${modeNote}`,
    inputSchema: z.strictObject({
      schema: nameArg('Only this schema').optional(),
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
          truncationMarker(
            `${counted(page.length, 'tables')} shown, more exist`,
            `pass cursor="${nextCursor}"`,
          ),
        );
      // Each table's schema resource (the first MAX_RESOURCE_LINKS), for the host to open or attach.
      return withResourceLinks(
        structuredResult({ tables: page, ...(nextCursor ? { nextCursor } : {}) }, lines.join('\n')),
        page.map((t) => tableLink(config, t.schema, t.name)),
      );
    },
  });

  const describeTool = defineTool({
    name: 'describe_table',
    title: 'Describe a table',
    toolset: 'schema',
    description:
      'Describe a table or view: columns, keys, constraints, foreign keys, indexes, size, view definition. ' +
      `${modeNote}`,
    inputSchema: z.strictObject({
      table: nameArg('Exact name, e.g. users or sales.orders'),
      schema: nameArg('Schema (default: search path, then any)').optional(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const table = await describeTable(config, args.table, args.schema, signal);
      return withResourceLinks(structuredResult({ ...table }, describeText(table)), [
        tableLink(config, table.schema, table.name),
      ]);
    },
  });

  const explainTool = defineTool({
    name: 'explain_query',
    title: 'Explain a query plan',
    toolset: 'schema',
    description:
      "Show PostgreSQL's plan for one statement (EXPLAIN (FORMAT JSON)); analyze: true also runs it, in a " +
      `READ ONLY transaction rolled back, within ${config.statementTimeoutMs} ms. ` +
      (config.writes ? '' : 'Writes and SELECT … FOR UPDATE are refused (planning takes their locks). ') +
      modeNote,
    inputSchema: z.strictObject({
      sql: sqlArg('The statement, without EXPLAIN'),
      params: paramsArg,
      analyze: z.boolean().optional().describe('Also run it, for actual timings'),
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

/** The `resource_link` to a table's schema resource (`postgres://host:port/db/{schema}/{table}/schema`). */
function tableLink(config: Config, schema: string, name: string) {
  return {
    uri: tableUri(config.target, schema, name),
    name: `${schema}.${name}`,
    title: `Schema of ${schema}.${name}`,
    mimeType: 'application/json',
  };
}
