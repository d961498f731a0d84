/**
 * Existing indexes worth a DBA's look, with their sizes (docs catalog-pg-index.html,
 * monitoring-stats.html#MONITORING-PG-STAT-ALL-INDEXES-VIEW):
 * - invalid: `indisvalid` false (a failed CREATE INDEX CONCURRENTLY: maintained on writes, never
 *   used for reads; docs sql-createindex.html#SQL-CREATEINDEX-CONCURRENTLY);
 * - unused: never scanned (`idx_scan` = 0) since the statistics were reset, and not enforcing a
 *   constraint (unique, primary key, exclusion) — usage on standbys is counted there, not here;
 * - duplicate: same table, method, expressions and predicate, and its key columns are a leading
 *   part of another index's (the other serves every lookup it does), and not enforcing a constraint.
 */
import type { Query } from '../run.js';

export interface IndexRow extends Record<string, unknown> {
  schema: string;
  table: string;
  index: string;
  bytes: number;
  scans: number | null;
  valid: boolean;
  constraint: boolean;
  method: string;
  key: string;
  opclasses: string;
  exprs: string;
  pred: string;
}

export interface IndexProblem {
  kind: 'invalid' | 'unused' | 'duplicate';
  index: string;
  table: string;
  bytes: number;
  detail: string;
}

/** Indexes outside PostgreSQL's own schemas, and when the statistics were reset. */
async function userIndexes(query: Query): Promise<{ rows: IndexRow[]; statsSince: string | null }> {
  const rows = await query<IndexRow>(
    `SELECT n.nspname AS schema, t.relname AS table, i.relname AS index,
            pg_relation_size(i.oid)::float8 AS bytes, s.idx_scan::float8 AS scans, x.indisvalid AS valid,
            (x.indisunique OR x.indisprimary OR x.indisexclusion) AS constraint, am.amname::text AS method,
            x.indkey::text AS key, x.indclass::text AS opclasses,
            COALESCE(pg_get_expr(x.indexprs, x.indrelid), '') AS exprs,
            COALESCE(pg_get_expr(x.indpred, x.indrelid), '') AS pred
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_am am ON am.oid = i.relam
       LEFT JOIN pg_stat_all_indexes s ON s.indexrelid = x.indexrelid
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
      ORDER BY pg_relation_size(i.oid) DESC, n.nspname, i.relname`,
  );
  const [since] = await query<{ reset: string | null }>(
    `SELECT stats_reset::text AS reset FROM pg_stat_database WHERE datname = current_database()`,
  );
  return { rows, statsSince: since?.reset ?? null };
}

/** Invalid, unused and duplicate indexes, largest first. */
export async function indexProblems(
  query: Query,
): Promise<{ problems: IndexProblem[]; statsSince: string | null }> {
  const { rows, statsSince } = await userIndexes(query);
  const problems: IndexProblem[] = [];
  const name = (r: IndexRow) => `${r.schema}.${r.index}`;
  const table = (r: IndexRow) => `${r.schema}.${r.table}`;
  for (const r of rows) {
    if (!r.valid)
      problems.push({
        kind: 'invalid',
        index: name(r),
        table: table(r),
        bytes: r.bytes,
        detail:
          'indisvalid = false: updated on every write, never used; drop it or REINDEX INDEX CONCURRENTLY',
      });
  }
  for (const r of rows) {
    if (r.valid && !r.constraint && r.scans === 0)
      problems.push({
        kind: 'unused',
        index: name(r),
        table: table(r),
        bytes: r.bytes,
        detail: `0 scans since ${statsSince ?? 'statistics began'}`,
      });
  }
  for (const r of rows) {
    if (!r.valid || r.constraint) continue;
    const keys = r.key.split(' ');
    const classes = r.opclasses.split(' ');
    const cover = rows.find((o) => {
      if (o === r || !o.valid || o.schema !== r.schema || o.table !== r.table) return false;
      if (o.method !== r.method || o.exprs !== r.exprs || o.pred !== r.pred) return false;
      const ok = o.key.split(' ');
      const oc = o.opclasses.split(' ');
      if (ok.length < keys.length) return false;
      if (!keys.every((k, i) => ok[i] === k && oc[i] === classes[i])) return false;
      // Identical keys: report only one of the pair (the one whose name sorts later), unless the other enforces a constraint.
      return ok.length > keys.length || o.constraint || o.index < r.index;
    });
    if (cover)
      problems.push({
        kind: 'duplicate',
        index: name(r),
        table: table(r),
        bytes: r.bytes,
        detail: `covered by ${cover.schema}.${cover.index}`,
      });
  }
  return { problems, statsSince };
}
