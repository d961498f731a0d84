/**
 * Table schemas as MCP resources, the completions for schema and table names, and the
 * query_schema prompt.
 *
 * URIs: `postgres://<host>:<port>/<database>/<schema>/<table>/schema` — they name the database
 * but never the user or password (the official server's carried the user and dropped the database).
 * resources/list pages through every table of the non-system schemas; resources/read returns the
 * describe_table description as JSON.
 */
import { type McpServer, type ReadResourceResult, UriTemplate } from '@modelcontextprotocol/server';
import { z } from '@refmcp/shared/schema';
import {
  type ConnectionContext,
  completionCacheFor,
  describeError,
  invalidParams as invalid,
  parseResourceUri,
  type ResourcePage,
  registerPrompt,
  registerResourceSet,
  ToolError,
} from '@refmcp/shared/server';
import { describeTable, describeText, listSchemas, listTables, type TableDescription } from './catalog.js';
import type { Config } from './config.js';
import type { Target } from './target.js';

/** Resources per resources/list page. */
const PAGE = 200;
/** Most completion values returned (the MCP spec caps a completion at 100). */
const MAX_COMPLETIONS = 100;

/** `postgres://host:port/database` (a Unix-socket directory is percent-encoded as the host). */
export function resourceBase(t: Target): string {
  const host = t.host.startsWith('/')
    ? encodeURIComponent(t.host)
    : t.host.includes(':')
      ? `[${t.host}]`
      : t.host;
  return `postgres://${host}:${t.port}/${encodeURIComponent(t.database)}`;
}

export function tableUri(t: Target, schema: string, table: string): string {
  return `${resourceBase(t)}/${encodeURIComponent(schema)}/${encodeURIComponent(table)}/schema`;
}

/**
 * A valid SQL identifier as written in a query: quoted unless plain lower case, a quoted one with
 * its double quotes doubled (docs sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS; what pg's
 * escapeIdentifier does, without loading the driver for a prompt).
 */
export function sqlName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** Where a resources/list page starts: after table `a` = [schema, name] (the cursor's position). */
const LIST_POSITION = z.object({ k: z.literal('resources'), a: z.tuple([z.string(), z.string()]) });
type ListPosition = z.infer<typeof LIST_POSITION>;

async function listResources(
  config: Config,
  start: ListPosition | undefined,
  signal: AbortSignal,
): Promise<ResourcePage<ListPosition>> {
  const after = start?.a;
  const rows = await listTables(config, { limit: PAGE, ...(after ? { after } : {}) }, signal);
  const page = rows.slice(0, PAGE);
  const last = page[page.length - 1];
  return {
    resources: page.map((t) => ({
      uri: tableUri(config.target, t.schema, t.name),
      name: `${t.schema}.${t.name}`,
      title: `${t.schema}.${t.name} (${t.kind})`,
      description: `Schema of ${t.kind} ${t.schema}.${t.name} (~${t.approx_rows ?? '?'} rows, ${t.size})`,
      mimeType: 'application/json',
    })),
    ...(rows.length > PAGE && last ? { next: { k: 'resources', a: [last.schema, last.name] } } : {}),
  };
}

/** The describe_table description of the table a schema URI names, as JSON; undefined when none. */
async function readTableSchema(
  config: Config,
  template: UriTemplate,
  uri: string,
  signal: AbortSignal,
): Promise<ReadResourceResult | undefined> {
  const href = parseResourceUri(uri).href;
  const variables = template.match(href);
  if (!variables) return undefined;
  const decode = (v: unknown) => decodeURIComponent(String(Array.isArray(v) ? v[0] : v));
  let table: TableDescription;
  try {
    table = await describeTable(config, decode(variables.table), decode(variables.schema), signal);
  } catch (error) {
    if (error instanceof ToolError && error.message.startsWith('table: no table')) return undefined;
    throw invalid(describeError(error));
  }
  return { contents: [{ uri: href, mimeType: 'application/json', text: JSON.stringify(table, null, 2) }] };
}

/** Example queries for a table, built from its columns. */
function exampleQueries(t: TableDescription): string[] {
  const table = `${sqlName(t.schema)}.${sqlName(t.name)}`;
  const key = t.primaryKey[0] ?? t.columns[0]?.name;
  const examples = [`SELECT * FROM ${table} LIMIT 10;`, `SELECT count(*) FROM ${table};`];
  if (key) examples.push(`SELECT * FROM ${table} WHERE ${sqlName(key)} = $1;  -- params: [<value>]`);
  const grouping = t.columns.find((c) => /char|text|bool|enum/.test(c.type) && c.name !== key);
  if (grouping)
    examples.push(
      `SELECT ${sqlName(grouping.name)}, count(*) FROM ${table} GROUP BY 1 ORDER BY 2 DESC LIMIT 20;`,
    );
  for (const fk of t.foreignKeys.slice(0, 1)) {
    examples.push(
      `SELECT * FROM ${table} t JOIN ${fk.references} r ON ${fk.columns
        .map((c, i) => `t.${sqlName(c)} = r.${sqlName(fk.referencedColumns[i] ?? c)}`)
        .join(' AND ')} LIMIT 10;`,
    );
  }
  return examples;
}

export function registerResources(server: McpServer, config: Config, context: ConnectionContext): void {
  const signal = context.shutdown;
  const base = resourceBase(config.target);
  const template = `${base}/{schema}/{table}/schema`;
  const description = `Schema (columns, keys, constraints, indexes) of one table or view of the database "${config.target.database}", as JSON.`;

  // A completion stops at its cut-off (completion.ts) or at shutdown, whichever comes first.
  const completeSchema = async (value: string, cut: AbortSignal) =>
    (
      await listSchemas(
        config,
        { limit: MAX_COMPLETIONS, includeSystem: false, prefix: value },
        AbortSignal.any([cut, signal]),
      )
    )
      .slice(0, MAX_COMPLETIONS)
      .map((s) => s.name);
  const completeTable = async (value: string, cut: AbortSignal, schema?: string) =>
    [
      ...new Set(
        (
          await listTables(
            config,
            { limit: MAX_COMPLETIONS, prefix: value, ...(schema ? { schema } : {}) },
            AbortSignal.any([cut, signal]),
          )
        ).map((t) => t.name),
      ),
    ].slice(0, MAX_COMPLETIONS);
  const quiet = (fn: () => Promise<string[]>) =>
    fn().catch((error: unknown) => {
      context.log.warn(`completion failed: ${describeError(error)}`);
      return [];
    });

  const uriTemplate = new UriTemplate(template);
  const completion = { cache: completionCacheFor(config) };
  registerResourceSet(server, {
    completion,
    templates: [
      {
        name: 'table-schema',
        uriTemplate: template,
        title: 'Table schema',
        description,
        mimeType: 'application/json',
        complete: {
          schema: ({ value, signal: cut }) => quiet(() => completeSchema(value, cut)),
          table: ({ value, arguments: chosen, signal: cut }) =>
            quiet(() => completeTable(value, cut, chosen.schema)),
        },
      },
    ],
    // Pages through the catalog (every table of the non-system schemas).
    list: { cursor: LIST_POSITION, page: (after) => listResources(config, after, signal) },
    read: (uri) => readTableSchema(config, uriTemplate, uri, signal),
    secrets: config.secrets,
  });

  registerPrompt(
    server,
    {
      name: 'query_schema',
      title: 'Query a table',
      description:
        'Describe one table (columns, keys, indexes) with example queries to start from, for writing SQL against it.',
      argsSchema: z.object({
        table_name: z.string().min(1).max(256).describe('Table or view name, or schema.table'),
      }),
      complete: { table_name: ({ value, signal: cut }) => quiet(() => completeTable(value, cut)) },
      render: async ({ table_name }) => {
        let described: TableDescription;
        try {
          // "table" or "schema.table" (describeTable resolves both).
          described = await describeTable(config, table_name, undefined, signal);
        } catch (error) {
          throw invalid(describeError(error));
        }
        const examples = exampleQueries(described);
        const text = [
          `Here is the ${described.kind} ${described.schema}.${described.name} of the PostgreSQL database "${config.target.database}".`,
          '',
          describeText(described),
          '',
          'Example queries (run them with the query tool; pass values as params, never inside the SQL):',
          ...examples.map((q) => `  ${q}`),
          '',
          `Help me query ${described.schema}.${described.name}: explain what each column holds, then suggest the query for my question.`,
        ].join('\n');
        return {
          description: `Schema of ${described.schema}.${described.name} with example queries`,
          messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
        };
      },
    },
    completion,
  );
}
