/**
 * Schema tools: list_tables (paginated) and describe_table (columns, indexes, foreign keys, the
 * CREATE statement). Table names are looked up with bound parameters in fixed SQL (sqlite_schema,
 * pragma_table_xinfo(?) …) and never become SQL text.
 */
import { cursorString, safeString, z } from '@refmcp/shared/schema';
import {
  defineTool,
  LOCAL_HINTS,
  makeCursor,
  queryKey,
  readCursor,
  structuredResult,
  type ToolDefinition,
  ToolError,
  withResourceLinks,
} from '@refmcp/shared/server';
import type { Config } from '../config.js';
import type { EnginePool } from '../engine/pool.js';
import type { TableDescription, TableEntry } from '../engine/protocol.js';
import { type ErrorContext, toToolError } from '../errors.js';
import { visibleJson } from '../render.js';
import { schemaUri } from '../schema-uri.js';
import { modeSentence } from './read.js';
import { SAME_QUERY } from './schemas.js';

/** Longest table name accepted, in characters. */
export const MAX_NAME_CHARS = 10_000;

/** One page of table/view names after `after` (by name, binary order). */
export async function listTablesPage(
  pool: EnginePool,
  after: string | undefined,
  limit: number,
  signal?: AbortSignal,
): Promise<{ tables: TableEntry[]; more: boolean }> {
  const result = await pool.read({ op: 'tables', after, limit }, signal);
  if (result.op !== 'tables') throw new Error(`unexpected ${result.op} result`);
  return { tables: result.tables, more: result.more };
}

/** The description of table or view `name` (case-insensitive, like SQLite), or null when there is none. */
export async function describeTable(
  pool: EnginePool,
  name: string,
  signal?: AbortSignal,
): Promise<TableDescription | null> {
  const result = await pool.read({ op: 'describe', name }, signal);
  if (result.op !== 'describe') throw new Error(`unexpected ${result.op} result`);
  return result.table;
}

/** describe_table's text: names JSON-quoted (they are data), one line per column/index/key. */
export function renderDescription(t: TableDescription): string {
  const q = visibleJson;
  const lines = [`${t.type === 'view' ? 'View' : 'Table'} ${q(t.name)}`, 'Columns:'];
  for (const c of t.columns) {
    const parts = [q(c.name), c.type || '(no type)'];
    if (c.primaryKey) parts.push(`PRIMARY KEY${c.primaryKey > 1 ? ` (part ${c.primaryKey})` : ''}`);
    if (c.notNull) parts.push('NOT NULL');
    if (c.defaultValue !== null) parts.push(`DEFAULT ${q(c.defaultValue)}`);
    if (c.hidden === 2 || c.hidden === 3) parts.push(`GENERATED ${c.hidden === 2 ? 'VIRTUAL' : 'STORED'}`);
    lines.push(`  ${parts.join(' ')}`);
  }
  if (t.indexes.length) {
    lines.push('Indexes:');
    for (const i of t.indexes) {
      const origin =
        i.origin === 'pk' ? 'primary key' : i.origin === 'u' ? 'unique constraint' : 'CREATE INDEX';
      lines.push(
        `  ${q(i.name)}${i.unique ? ' UNIQUE' : ''} on ${q(i.columns.map((c) => c ?? '<expression>'))} (${origin}${i.partial ? ', partial' : ''})`,
      );
    }
  }
  if (t.foreignKeys.length) {
    lines.push('Foreign keys:');
    for (const f of t.foreignKeys) {
      lines.push(
        `  ${q(f.from)} → ${q(f.table)}${q(f.to.map((c) => c ?? '<primary key>'))} ON UPDATE ${f.onUpdate} ON DELETE ${f.onDelete}`,
      );
    }
  }
  if (t.sql) lines.push(`SQL: ${q(t.sql)}`);
  return lines.join('\n');
}

const descriptionSchema = z.object({
  name: z.string(),
  type: z.enum(['table', 'view']),
  sql: z.string().nullable(),
  columns: z.array(
    z.object({
      cid: z.number(),
      name: z.string(),
      type: z.string(),
      notNull: z.boolean(),
      defaultValue: z.string().nullable(),
      primaryKey: z.number(),
      hidden: z.number(),
    }),
  ),
  indexes: z.array(
    z.object({
      name: z.string(),
      unique: z.boolean(),
      origin: z.string(),
      partial: z.boolean(),
      columns: z.array(z.string().nullable()),
    }),
  ),
  foreignKeys: z.array(
    z.object({
      id: z.number(),
      table: z.string(),
      from: z.array(z.string()),
      to: z.array(z.string().nullable()),
      onUpdate: z.string(),
      onDelete: z.string(),
    }),
  ),
});

export function schemaTools(config: Config): ToolDefinition[] {
  const errorContext: ErrorContext = {
    argument: 'table_name',
    allowWrites: config.allowWrites,
    busyTimeoutMs: config.busyTimeoutMs,
    readPath: true,
  };

  const listTables = defineTool({
    name: 'list_tables',
    title: 'List Tables',
    description: `List the tables and views, ${config.maxRows} a page (pass nextCursor back as cursor). ${modeSentence(config)}`,
    inputSchema: z.strictObject({ cursor: cursorString().optional() }),
    outputSchema: z.object({
      tables: z.array(z.object({ name: z.string(), type: z.enum(['table', 'view']) })),
      nextCursor: z.string().optional(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const key = queryKey('list_tables', null);
      const after = readCursor<{ after?: unknown }>(args.cursor, key, SAME_QUERY)?.after;
      if (after !== undefined && typeof after !== 'string') {
        throw new ToolError('cursor: not a cursor this server issued; pass the exact nextCursor value');
      }
      let page: { tables: TableEntry[]; more: boolean };
      try {
        page = await listTablesPage(config.pool, after, config.maxRows, signal);
      } catch (error) {
        throw toToolError(error, { ...errorContext, argument: 'cursor' });
      }
      const last = page.tables.at(-1);
      const nextCursor = page.more && last ? makeCursor(key, { after: last.name }) : undefined;
      const lines = [
        page.tables.length === 0
          ? after === undefined
            ? 'The database has no tables or views.'
            : 'No more tables.'
          : `${page.tables.length} table(s)/view(s)${page.more ? ' (more follow)' : ''}; names are JSON-quoted:`,
        ...page.tables.map((t) => `${visibleJson(t.name)} ${t.type}`),
      ];
      if (nextCursor) {
        lines.push(
          `[truncated: more tables exist — call list_tables with "cursor": ${JSON.stringify(nextCursor)}]`,
        );
      }
      // Each table's schema resource (the first MAX_RESOURCE_LINKS), for the host to open or attach.
      return withResourceLinks(
        structuredResult({ tables: page.tables, ...(nextCursor ? { nextCursor } : {}) }, lines.join('\n')),
        page.tables.map(schemaLink),
      );
    },
  });

  const describe = defineTool({
    name: 'describe_table',
    title: 'Describe Table',
    description: "Show a table's or view's columns, indexes, foreign keys and CREATE statement.",
    inputSchema: z.strictObject({
      table_name: safeString({ max: MAX_NAME_CHARS, min: 1 }).describe('Exact name, unquoted, e.g. users'),
    }),
    outputSchema: descriptionSchema,
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      let table: TableDescription | null;
      try {
        table = await describeTable(config.pool, args.table_name, signal);
      } catch (error) {
        throw toToolError(error, errorContext);
      }
      if (!table) {
        throw new ToolError(
          `table_name: no such table or view: ${visibleJson(args.table_name)}. list_tables shows the tables and views.`,
        );
      }
      return withResourceLinks(structuredResult({ ...table }, renderDescription(table)), [
        schemaLink({ name: args.table_name }),
      ]);
    },
  });

  return [listTables, describe];
}

/** The `resource_link` to table `name`'s schema resource (sqlite://schema/{table}). */
function schemaLink({ name }: { name: string }) {
  return { uri: schemaUri(name), name, title: `Schema of ${name}`, mimeType: 'application/json' };
}
