/**
 * Postgres MCP Pro's answers (crystaldba/postgres-mcp, a PyPI package that cannot be installed
 * here), rebuilt from its published source at commit 07eb329 against the seeded insight database:
 * get_top_queries runs its SQL and prints `str(rows)` after its header (top_queries_calc.py);
 * analyze_query_indexes / analyze_workload_indexes answer, without HypoPG available, with
 * check_hypopg_installation_status's message (sql/extension_utils.py); analyze_db_health('all')
 * joins the lines its *_calc.py modules print for this database's facts (database_health.py).
 */
import { queryRows } from '../../../servers/postgres/test/insight-seed.js';

/** Python's repr of str/int/float/dict/list, as str(list_of_dicts) prints them. */
function py(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    return q + v.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll(q, `\\${q}`) + q;
  }
  if (Array.isArray(v)) return `[${v.map(py).join(', ')}]`;
  return `{${Object.entries(v as object)
    .map(([k, x]) => `${py(k)}: ${py(x)}`)
    .join(', ')}}`;
}

const SORTS = {
  total_time: ['total_exec_time', 'total execution time'],
  mean_time: ['mean_exec_time', 'mean execution time per call'],
} as const;

/** get_top_queries(sort_by, limit): its SQL on pg_stat_statements, `str(rows)` after a header. */
export async function theirTopQueries(
  url: string,
  order: keyof typeof SORTS,
  limit: number,
): Promise<{ text: string; queryids: string[] }> {
  const [col, criteria] = SORTS[order];
  const rows = await queryRows(
    url,
    `SELECT query, calls, total_exec_time, mean_exec_time, rows, queryid::text AS queryid FROM pg_stat_statements ORDER BY ${col} DESC LIMIT ${limit}`,
  );
  // The queryid is not in their answer: only the check that both found the same statements uses it.
  const ids = rows.map((r) => String(r.queryid));
  for (const r of rows) delete r.queryid;
  return {
    text: `Top ${rows.length} slowest queries by ${criteria}:\n${py(rows)}`,
    queryids: ids,
  };
}

/** analyze_query_indexes / analyze_workload_indexes without HypoPG, PostgreSQL 18. */
export function theirIndexAdvice(): string {
  return (
    'The **hypopg** extension is not available on this PostgreSQL server.\n\n' +
    'To install HypoPG:\n' +
    '1. For Debian/Ubuntu: `sudo apt-get install postgresql-18-hypopg`\n' +
    '2. For RHEL/CentOS: `sudo yum install postgresql18-hypopg`\n' +
    '3. For MacOS with Homebrew: `brew install hypopg`\n' +
    '4. For other systems, build from source: `git clone https://github.com/HypoPG/hypopg`\n\n' +
    'After installing the extension packages, connect to your database and run: `CREATE EXTENSION hypopg;`'
  );
}

/**
 * analyze_db_health('all'): each line as its *_calc.py prints it for the seeded database's facts
 * (the invalid and duplicate indexes, the rarely used ones, connections and cache hit rates read live).
 */
export async function theirHealth(url: string): Promise<string> {
  const idx = await queryRows(
    url,
    `SELECT t.relname AS table, ix.relname AS name, pg_relation_size(i.indexrelid)::float8 AS size, coalesce(ui.idx_scan, 0)::int AS scans
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class ix ON ix.oid = i.indexrelid
       LEFT JOIN pg_stat_user_indexes ui ON ui.indexrelid = i.indexrelid
      WHERE NOT i.indisunique AND coalesce(ui.idx_scan, 0) <= 50 AND ui.schemaname IS NOT NULL ORDER BY 3 DESC, 1`,
  );
  const [conns] = await queryRows(
    url,
    "SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'idle in transaction')::int AS idle FROM pg_stat_activity",
  );
  const [hit] = await queryRows(
    url,
    'SELECT (SELECT sum(idx_blks_hit) / nullif(sum(idx_blks_hit + idx_blks_read), 0) FROM pg_statio_user_indexes)::float8 AS i, (SELECT sum(heap_blks_hit) / nullif(sum(heap_blks_hit + heap_blks_read), 0) FROM pg_statio_user_tables)::float8 AS t',
  );
  const pct = (x: unknown) => `${(Number(x) * 100).toFixed(1)}%`;
  return `${[
    'Invalid index check: Invalid indexes found: dupes_v_idx on dupes is invalid.',
    "Duplicate index check: Duplicate indexes found:\nIndex 'orders_id_copy_idx' on table 'orders' is covered by index 'orders_pkey'\nIndex 'orders_status_idx' on table 'orders' is covered by index 'orders_status_created_idx'",
    'Index bloat: No bloated indexes found.',
    `Unused index check: Rarely used indexes found:\n${idx.map((r) => `Index '${r.name}' on table '${r.table}' has only been scanned ${r.scans} times and uses ${(Number(r.size) / 1048576).toFixed(1)}MB of space`).join('\n')}`,
    `Connection health: Connections healthy: ${conns?.total} total, ${conns?.idle} idle`,
    'Vacuum health: All tables have healthy transaction ID age.',
    'Sequence health: All sequences have healthy usage levels.',
    'Replication health: This is a primary database.\nNo active replicas connected.\n\nNo replication slots found.',
    `Buffer health for indexes: Index cache hit rate: ${pct(hit?.i)} (above 95.0% threshold)`,
    `Buffer health for tables: Table cache hit rate: ${pct(hit?.t)} (above 95.0% threshold)`,
    'Constraint health: No invalid constraints found.',
  ].join('\n')}\n`;
}
