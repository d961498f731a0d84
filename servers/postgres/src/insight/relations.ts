/**
 * The catalog facts plan analysis needs about the relations a plan names: estimated rows, size,
 * columns and valid B-tree indexes (docs catalog-pg-class.html, catalog-pg-index.html).
 */
import type { Query } from '../run.js';
import type { RelationInfo } from './candidates.js';
import { type PlanRoot, type RelationSize, relationKey, walkPlan } from './plan.js';

/** RelationInfo for every relation of `plans`, by "schema.table". */
export async function planRelations(query: Query, plans: PlanRoot[]): Promise<Map<string, RelationInfo>> {
  const keys = new Map<string, [string, string]>();
  for (const plan of plans)
    for (const { node } of walkPlan(plan.Plan)) {
      const key = relationKey(node);
      if (key && node['Relation Name']) keys.set(key, [node.Schema ?? 'public', node['Relation Name']]);
    }
  const out = new Map<string, RelationInfo>();
  if (!keys.size) return out;
  const pairs = [...keys.values()];
  const rows = await query<{
    schema: string;
    name: string;
    rows: number;
    bytes: number;
    qualified: string;
    columns: [string, string][];
    indexes: { name: string; columns: (string | null)[]; partial: boolean }[];
  }>(
    `SELECT n.nspname AS schema, c.relname AS name, c.reltuples::float8 AS rows,
            quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS qualified,
            pg_relation_size(c.oid)::float8 AS bytes,
            COALESCE((SELECT json_agg(json_build_array(a.attname, quote_ident(a.attname))) FROM pg_attribute a
                       WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]') AS columns,
            COALESCE((SELECT json_agg(json_build_object(
                        'name', i.relname, 'partial', x.indpred IS NOT NULL,
                        'columns', ARRAY(SELECT a.attname::text
                                           FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                                           LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                                          WHERE k.ord <= x.indnkeyatts ORDER BY k.ord)))
                        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am am ON am.oid = i.relam
                       WHERE x.indrelid = c.oid AND x.indisvalid AND am.amname = 'btree'), '[]') AS indexes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE (n.nspname::text, c.relname::text) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
  for (const r of rows)
    out.set(`${r.schema}.${r.name}`, {
      schema: r.schema,
      name: r.name,
      qualified: r.qualified,
      rows: r.rows,
      bytes: r.bytes,
      columns: new Map(r.columns),
      indexes: r.indexes,
    });
  return out;
}

/** The sizes planFindings reads. */
export function sizesOf(relations: Map<string, RelationInfo>): Map<string, RelationSize> {
  return new Map([...relations].map(([k, r]) => [k, { rows: r.rows, bytes: r.bytes }]));
}
