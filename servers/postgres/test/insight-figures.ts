/**
 * Figures for issue 33, not a test (run on demand: `npx vitest run -c vitest.figures.config.ts`):
 * the bytes a model reads from our insight tools against Postgres MCP Pro (crystaldba/postgres-mcp,
 * a PyPI package that cannot be installed here) on the same seeded database (insight-seed.ts).
 * Its answers are rebuilt from its published source at commit 07eb329, against this database:
 * get_top_queries runs its SQL and prints `str(rows)` after its header (top_queries_calc.py);
 * analyze_query_indexes / analyze_workload_indexes answer, without HypoPG available, with
 * check_hypopg_installation_status's message (sql/extension_utils.py); analyze_db_health('all')
 * joins the lines its *_calc.py modules print for this database's facts (database_health.py).
 */
import { callChecked, resultText, startBuiltServer } from '@refmcp/test-harness';
import pg from 'pg';
import { afterAll, beforeAll, it } from 'vitest';
import { type InsightCluster, runWorkload, SLOW_BY_CUSTOMER, startInsightCluster } from './insight-seed.js';

let cluster: InsightCluster;
beforeAll(async () => {
  cluster = await startInsightCluster({ preload: true });
  await runWorkload(cluster);
}, 120_000);
afterAll(() => cluster?.stop());

/** Python's repr of str/int/float/dict/list, as str(list_of_dicts) prints them. */
function py(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === 'string') {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    return q + v.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll(q, `\\${q}`) + q;
  }
  if (Array.isArray(v)) return `[${v.map(py).join(', ')}]`;
  return `{${Object.entries(v as object)
    .map(([k, x]) => `${py(k)}: ${py(x)}`)
    .join(', ')}}`;
}
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

it('figures', async () => {
  const conn = await startBuiltServer('postgres', [cluster.url, '--toolsets', 'all'], { env: {} });
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  client.setTypeParser(20, (x: string) => Number(x));
  const out: Record<string, { ours: number; oursStructured: number; theirs: number }> = {};
  const ours = async (tool: string, args: Record<string, unknown>) => {
    const r = await callChecked(conn, tool, args);
    const text = resultText(r);
    return { text, all: bytes(text) + bytes(JSON.stringify(r.structuredContent ?? {})) };
  };
  try {
    // Their get_top_queries(sort_by) — top_queries_calc.py: str(list of row dicts) after a header.
    for (const [sort, col, criteria, order, limit] of [
      ['total', 'total_exec_time', 'total execution time', 'total_time', 3],
      ['mean', 'mean_exec_time', 'mean execution time per call', 'mean_time', 3],
      ['total', 'total_exec_time', 'total execution time', 'total_time', 10],
      ['mean', 'mean_exec_time', 'mean execution time per call', 'mean_time', 10],
    ] as const) {
      const { rows } = await client.query(
        `SELECT query, calls, total_exec_time, mean_exec_time, rows FROM pg_stat_statements ORDER BY ${col} DESC LIMIT ${limit}`,
      );
      const theirs = `Top ${rows.length} slowest queries by ${criteria}:\n${py(rows)}`;
      const o = await ours('top_queries', { orderBy: order, limit });
      out[`top_queries ${sort} ${limit}`] = {
        ours: bytes(o.text),
        oursStructured: o.all,
        theirs: bytes(theirs),
      };
      if (limit === 3) console.log(`---- theirs ${sort}\n${theirs}\n---- ours\n${o.text}`);
      const theirTop = rows.slice(0, 3).map((r) => r.query);
      console.log('their top 3:', theirTop);
    }
    // Their analyze_query_indexes / analyze_workload_indexes without HypoPG available: the
    // check_hypopg_installation_status markdown message (extension_utils.py), PostgreSQL 18.
    const hypopg =
      'The **hypopg** extension is not available on this PostgreSQL server.\n\n' +
      'To install HypoPG:\n' +
      '1. For Debian/Ubuntu: `sudo apt-get install postgresql-18-hypopg`\n' +
      '2. For RHEL/CentOS: `sudo yum install postgresql18-hypopg`\n' +
      '3. For MacOS with Homebrew: `brew install hypopg`\n' +
      '4. For other systems, build from source: `git clone https://github.com/HypoPG/hypopg`\n\n' +
      'After installing the extension packages, connect to your database and run: `CREATE EXTENSION hypopg;`';
    const q = await ours('index_advice', { sql: SLOW_BY_CUSTOMER, params: ['3'] });
    out['index_advice sql'] = { ours: bytes(q.text), oursStructured: q.all, theirs: bytes(hypopg) };
    const w = await ours('index_advice', {});
    out['index_advice workload'] = { ours: bytes(w.text), oursStructured: w.all, theirs: bytes(hypopg) };
    console.log(`---- ours workload\n${w.text}`);
    // Their analyze_db_health('all'), database_health.py, each line from its *_calc.py with this database's facts.
    const idx = await client.query(
      `SELECT t.relname AS table, ix.relname AS name, pg_relation_size(i.indexrelid)::float8 AS size, coalesce(ui.idx_scan, 0)::int AS scans
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class ix ON ix.oid = i.indexrelid
         LEFT JOIN pg_stat_user_indexes ui ON ui.indexrelid = i.indexrelid
        WHERE NOT i.indisunique AND coalesce(ui.idx_scan, 0) <= 50 AND ui.schemaname IS NOT NULL ORDER BY 3 DESC, 1`,
    );
    const conns = await client.query(
      "SELECT count(*)::int AS total, count(*) FILTER (WHERE state = 'idle in transaction')::int AS idle FROM pg_stat_activity",
    );
    const hit = await client.query(
      'SELECT (SELECT sum(idx_blks_hit) / nullif(sum(idx_blks_hit + idx_blks_read), 0) FROM pg_statio_user_indexes)::float8 AS i, (SELECT sum(heap_blks_hit) / nullif(sum(heap_blks_hit + heap_blks_read), 0) FROM pg_statio_user_tables)::float8 AS t',
    );
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const theirsHealth = `${[
      'Invalid index check: Invalid indexes found: dupes_v_idx on dupes is invalid.',
      "Duplicate index check: Duplicate indexes found:\nIndex 'orders_id_copy_idx' on table 'orders' is covered by index 'orders_pkey'\nIndex 'orders_status_idx' on table 'orders' is covered by index 'orders_status_created_idx'",
      'Index bloat: No bloated indexes found.',
      `Unused index check: Rarely used indexes found:\n${idx.rows.map((r) => `Index '${r.name}' on table '${r.table}' has only been scanned ${r.scans} times and uses ${(r.size / 1048576).toFixed(1)}MB of space`).join('\n')}`,
      `Connection health: Connections healthy: ${conns.rows[0].total} total, ${conns.rows[0].idle} idle`,
      'Vacuum health: All tables have healthy transaction ID age.',
      'Sequence health: All sequences have healthy usage levels.',
      'Replication health: This is a primary database.\nNo active replicas connected.\n\nNo replication slots found.',
      `Buffer health for indexes: Index cache hit rate: ${pct(hit.rows[0].i)} (above 95.0% threshold)`,
      `Buffer health for tables: Table cache hit rate: ${pct(hit.rows[0].t)} (above 95.0% threshold)`,
      'Constraint health: No invalid constraints found.',
    ].join('\n')}\n`;
    const h = await ours('db_health', {});
    out.db_health = { ours: bytes(h.text), oursStructured: h.all, theirs: bytes(theirsHealth) };
    console.log(`---- theirs health\n${theirsHealth}\n---- ours\n${h.text}`);
    const a = await ours('analyze_query', { sql: SLOW_BY_CUSTOMER, params: ['3'], analyze: true });
    console.log(`---- ours analyze ${bytes(a.text)} text bytes`);
    console.log(JSON.stringify(out, null, 1));
  } finally {
    await client.end();
    await conn.close();
  }
}, 120_000);
