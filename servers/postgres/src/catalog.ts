/**
 * Schema insight from the system catalogs (docs catalogs.html, functions-info.html): schemas,
 * tables with approximate sizes, and one table's full description. Every read is one of our own
 * catalog queries, run like any other call (read-only transaction, statement timeout). Names are
 * exact, case-sensitive catalog names (not SQL identifiers: no quoting, no folding).
 */
import { ToolError } from '@refmcp/shared/server';
import { catalog, type RunConfig } from './run.js';

/** Schemas hidden unless asked for: PostgreSQL's own. */
const SYSTEM_SCHEMA = `(n.nspname LIKE 'pg\\_%' OR n.nspname = 'information_schema')`;

export interface SchemaRow extends Record<string, unknown> {
  name: string;
  owner: string;
  tables: number;
  comment: string | null;
}

/** Schemas after `after` (by name), `limit` + 1 of them (the extra one proves there is more). */
export function listSchemas(
  config: RunConfig,
  opts: { after?: string; limit: number; includeSystem: boolean; prefix?: string },
  signal: AbortSignal,
): Promise<SchemaRow[]> {
  return catalog<SchemaRow>(
    config,
    `SELECT n.nspname AS name, pg_get_userbyid(n.nspowner) AS owner,
            (SELECT count(*)::int FROM pg_class c WHERE c.relnamespace = n.oid AND c.relkind IN ('r','p','v','m','f')) AS tables,
            obj_description(n.oid, 'pg_namespace') AS comment
       FROM pg_namespace n
      WHERE ($1::text IS NULL OR n.nspname::text COLLATE "C" > $1::text)
        AND ($2::boolean OR NOT ${SYSTEM_SCHEMA})
        AND ($4::text IS NULL OR starts_with(n.nspname::text, $4::text))
      ORDER BY n.nspname::text COLLATE "C"
      LIMIT $3`,
    [opts.after ?? null, opts.includeSystem, opts.limit + 1, opts.prefix ?? null],
    signal,
  );
}

export interface TableRow extends Record<string, unknown> {
  schema: string;
  name: string;
  kind: string;
  approx_rows: string | null;
  total_bytes: string;
  size: string;
  comment: string | null;
}

/** Tables, views, materialized views and foreign tables, by (schema, name) after `after`. */
export function listTables(
  config: RunConfig,
  opts: { schema?: string; after?: [string, string]; limit: number; prefix?: string },
  signal: AbortSignal,
): Promise<TableRow[]> {
  return catalog<TableRow>(
    config,
    `SELECT n.nspname AS schema, c.relname AS name,
            CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'partitioned table' WHEN 'v' THEN 'view'
                           WHEN 'm' THEN 'materialized view' WHEN 'f' THEN 'foreign table' END AS kind,
            CASE WHEN c.reltuples < 0 OR c.relkind IN ('v','f') THEN NULL ELSE c.reltuples::bigint END AS approx_rows,
            pg_total_relation_size(c.oid) AS total_bytes,
            pg_size_pretty(pg_total_relation_size(c.oid)) AS size,
            obj_description(c.oid, 'pg_class') AS comment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r','p','v','m','f')
        AND ($1::text IS NULL AND NOT ${SYSTEM_SCHEMA} OR n.nspname = $1)
        AND ($2::text IS NULL OR n.nspname::text COLLATE "C" > $2::text
             OR (n.nspname::text = $2::text AND c.relname::text COLLATE "C" > $3::text))
        AND ($5::text IS NULL OR starts_with(c.relname::text, $5::text))
      ORDER BY n.nspname::text COLLATE "C", c.relname::text COLLATE "C"
      LIMIT $4`,
    [
      opts.schema ?? null,
      opts.after?.[0] ?? null,
      opts.after?.[1] ?? null,
      opts.limit + 1,
      opts.prefix ?? null,
    ],
    signal,
  );
}

/** The relation `schema.table` (or `table` on the search path, else in exactly one schema). */
async function resolveTable(
  config: RunConfig,
  table: string,
  schema: string | undefined,
  signal: AbortSignal,
): Promise<{ oid: number; schema: string; name: string; kind: string }> {
  const rows = await catalog<{ oid: number; schema: string; name: string; kind: string; visible: boolean }>(
    config,
    `SELECT c.oid::int AS oid, n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
            pg_table_is_visible(c.oid) AS visible
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relname = $1 AND c.relkind IN ('r','p','v','m','f') AND ($2::text IS NULL OR n.nspname = $2)
      ORDER BY pg_table_is_visible(c.oid) DESC, n.nspname
      LIMIT 20`,
    [table, schema ?? null],
    signal,
  );
  const [first] = rows;
  if (!first) {
    if (schema === undefined && table.includes('.')) {
      const dot = table.indexOf('.');
      return resolveTable(config, table.slice(dot + 1), table.slice(0, dot), signal);
    }
    throw new ToolError(
      `table: no table or view named "${table}"${schema ? ` in schema "${schema}"` : ''}; names are exact and case-sensitive — use list_tables to see them`,
    );
  }
  if (!first.visible && rows.length > 1)
    throw new ToolError(
      `table: "${table}" exists in several schemas (${rows.map((r) => r.schema).join(', ')}); pass schema`,
    );
  return first;
}

export interface TableDescription {
  schema: string;
  name: string;
  kind: string;
  comment: string | null;
  approxRows: string | null;
  size: string;
  columns: {
    name: string;
    type: string;
    nullable: boolean;
    default: string | null;
    identity: string | null;
    generated: string | null;
    comment: string | null;
  }[];
  primaryKey: string[];
  constraints: { name: string; type: string; definition: string }[];
  foreignKeys: {
    name: string;
    columns: string[];
    references: string;
    referencedColumns: string[];
    definition: string;
  }[];
  referencedBy: { name: string; table: string; columns: string[]; definition: string }[];
  indexes: { name: string; unique: boolean; primary: boolean; definition: string }[];
  viewDefinition?: string;
}

const CONSTRAINT_TYPES: Record<string, string> = {
  p: 'primary key',
  u: 'unique',
  f: 'foreign key',
  c: 'check',
  x: 'exclusion',
  t: 'trigger',
};

/** Everything about one table an agent needs before writing SQL. Errors: ToolError. */
export async function describeTable(
  config: RunConfig,
  table: string,
  schema: string | undefined,
  signal: AbortSignal,
): Promise<TableDescription> {
  const rel = await resolveTable(config, table, schema, signal);
  const [info] = await catalog<{
    comment: string | null;
    approx_rows: string | null;
    size: string;
    view: string | null;
  }>(
    config,
    `SELECT obj_description($1::oid, 'pg_class') AS comment,
            CASE WHEN c.reltuples < 0 OR c.relkind IN ('v','f') THEN NULL ELSE c.reltuples::bigint END AS approx_rows,
            pg_size_pretty(pg_total_relation_size(c.oid)) AS size,
            CASE WHEN c.relkind IN ('v','m') THEN pg_get_viewdef(c.oid, true) END AS view
       FROM pg_class c WHERE c.oid = $1::oid`,
    [rel.oid],
    signal,
  );
  const columns = await catalog<TableDescription['columns'][number]>(
    config,
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
            pg_get_expr(d.adbin, d.adrelid) AS default,
            CASE a.attidentity WHEN 'a' THEN 'always' WHEN 'd' THEN 'by default' END AS identity,
            CASE a.attgenerated WHEN 's' THEN 'stored' WHEN 'v' THEN 'virtual' END AS generated,
            col_description(a.attrelid, a.attnum) AS comment
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum`,
    [rel.oid],
    signal,
  );
  const constraints = await catalog<{
    name: string;
    contype: string;
    definition: string;
    columns: string[] | null;
    references: string | null;
    referenced_columns: string[] | null;
    conrelid: number;
    source: string;
  }>(
    config,
    `SELECT c.conname AS name, c.contype::text AS contype, pg_get_constraintdef(c.oid, true) AS definition,
            c.conrelid::int AS conrelid, c.conrelid::regclass::text AS source,
            ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(num, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.num ORDER BY k.ord) AS columns,
            CASE WHEN c.contype = 'f' THEN c.confrelid::regclass::text END AS references,
            ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(num, ord)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.num ORDER BY k.ord) AS referenced_columns
       FROM pg_constraint c
      WHERE (c.conrelid = $1::oid OR (c.confrelid = $1::oid AND c.contype = 'f')) AND c.contype <> 'n'
      ORDER BY c.contype, c.conname`,
    [rel.oid],
    signal,
  );
  const indexes = await catalog<TableDescription['indexes'][number]>(
    config,
    `SELECT i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary,
            pg_get_indexdef(x.indexrelid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::oid ORDER BY i.relname`,
    [rel.oid],
    signal,
  );
  const own = constraints.filter((c) => c.conrelid === rel.oid);
  return {
    schema: rel.schema,
    name: rel.name,
    kind:
      { r: 'table', p: 'partitioned table', v: 'view', m: 'materialized view', f: 'foreign table' }[
        rel.kind
      ] ?? rel.kind,
    comment: info?.comment ?? null,
    approxRows: info?.approx_rows ?? null,
    size: info?.size ?? '',
    columns,
    primaryKey: own.find((c) => c.contype === 'p')?.columns ?? [],
    constraints: own
      .filter((c) => c.contype !== 'f')
      .map((c) => ({
        name: c.name,
        type: CONSTRAINT_TYPES[c.contype] ?? c.contype,
        definition: c.definition,
      })),
    foreignKeys: own
      .filter((c) => c.contype === 'f')
      .map((c) => ({
        name: c.name,
        columns: c.columns ?? [],
        references: c.references ?? '',
        referencedColumns: c.referenced_columns ?? [],
        definition: c.definition,
      })),
    referencedBy: constraints
      .filter((c) => c.contype === 'f' && c.conrelid !== rel.oid)
      .map((c) => ({ name: c.name, table: c.source, columns: c.columns ?? [], definition: c.definition })),
    indexes,
    ...(info?.view ? { viewDefinition: info.view } : {}),
  };
}

/** The description as readable text. */
export function describeText(t: TableDescription): string {
  const lines = [`${t.kind} ${t.schema}.${t.name}${t.comment ? ` — ${t.comment}` : ''}`];
  lines.push(`approx. ${t.approxRows ?? '?'} rows, ${t.size}`);
  lines.push('', 'Columns:');
  for (const c of t.columns) {
    const extras = [
      c.nullable ? 'null' : 'not null',
      c.default !== null ? `default ${c.default}` : '',
      c.identity ? `identity ${c.identity}` : '',
      c.generated ? `generated ${c.generated}` : '',
      t.primaryKey.includes(c.name) ? 'primary key' : '',
    ].filter(Boolean);
    lines.push(`  ${c.name} ${c.type} (${extras.join(', ')})${c.comment ? ` — ${c.comment}` : ''}`);
  }
  if (t.constraints.length) {
    lines.push('', 'Constraints:');
    for (const c of t.constraints) lines.push(`  ${c.name}: ${c.definition}`);
  }
  if (t.foreignKeys.length) {
    lines.push('', 'Foreign keys:');
    for (const f of t.foreignKeys) lines.push(`  ${f.name}: ${f.definition}`);
  }
  if (t.referencedBy.length) {
    lines.push('', 'Referenced by:');
    for (const f of t.referencedBy) lines.push(`  ${f.table}.${f.name}: ${f.definition}`);
  }
  if (t.indexes.length) {
    lines.push('', 'Indexes:');
    for (const i of t.indexes) lines.push(`  ${i.definition}`);
  }
  if (t.viewDefinition) lines.push('', 'Definition:', t.viewDefinition.trim());
  return lines.join('\n');
}
