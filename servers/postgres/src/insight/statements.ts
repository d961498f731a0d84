/**
 * Top statements from pg_stat_statements (docs pgstatstatements.html): the statements of this
 * database by total or mean execution time, calls, rows or shared blocks read, with their
 * normalised text, and when the statistics were last reset. When the extension is missing, one
 * line says what to turn on: `shared_preload_libraries` (a restart) and `CREATE EXTENSION`.
 * PostgreSQL 14+ (the `toplevel` column and pg_stat_statements_info); 13 without the reset time.
 */
import type { Query } from '../run.js';

export const ORDERS = {
  total_time: 'total_exec_time',
  mean_time: 'mean_exec_time',
  calls: 'calls',
  rows: 'rows',
  shared_blks_read: 'shared_blks_read',
} as const;
export type StatementOrder = keyof typeof ORDERS;

export interface StatementRow extends Record<string, unknown> {
  queryid: string;
  query: string;
  calls: number;
  total_ms: number;
  mean_ms: number;
  rows: number;
  shared_blks_read: number;
  shared_blks_hit: number;
  temp_blks_written: number;
}

/** Where pg_stat_statements lives in this database, or why it cannot be read. */
export type StatementsSource =
  | { ok: true; schema: string; version: string; serverVersion: number }
  | { ok: false; message: string };

/**
 * Transaction control and session statements (ours among them: every call is a BEGIN … ROLLBACK)
 * are left out: they cost nothing an index or a rewrite could save.
 */
const SESSION_STATEMENTS = String.raw`^\s*(BEGIN|START|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|DEALLOCATE|DISCARD|CLOSE|SET|RESET|SHOW|UNLISTEN|SELECT pg_advisory_unlock_all)\y`;

/** Finds the extension, and says how to enable it when it is not usable. */
export async function statementsSource(query: Query): Promise<StatementsSource> {
  const [row] = await query<{
    schema: string | null;
    version: string | null;
    preload: string;
    server: number;
    db: string;
  }>(
    `SELECT (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
              WHERE e.extname = 'pg_stat_statements') AS schema,
            (SELECT extversion FROM pg_extension WHERE extname = 'pg_stat_statements') AS version,
            current_setting('shared_preload_libraries') AS preload,
            current_setting('server_version_num')::int AS server,
            current_database() AS db`,
  );
  if (!row) return { ok: false, message: 'could not read the extension catalog' };
  const loaded = row.preload
    .split(',')
    .map((s) => s.trim().replace(/^"|"$/g, ''))
    .includes('pg_stat_statements');
  const steps = [
    ...(loaded
      ? []
      : ['add pg_stat_statements to shared_preload_libraries (postgresql.conf; needs a restart)']),
    ...(row.schema ? [] : [`run CREATE EXTENSION pg_stat_statements in database "${row.db}"`]),
  ];
  if (steps.length)
    return {
      ok: false,
      message: `pg_stat_statements is not ${loaded ? 'installed in this database' : 'loaded'}: ask a DBA to ${steps.join(', then ')} (docs pgstatstatements.html). analyze_query, explain_query and index_advice with sql work without it.`,
    };
  if (row.server < 130000)
    return {
      ok: false,
      message: 'top_queries needs PostgreSQL 13 or later (pg_stat_statements 1.8 columns)',
    };
  return {
    ok: true,
    schema: row.schema as string,
    version: row.version as string,
    serverVersion: row.server,
  };
}

/** `limit` + 1 statements after `offset` in `order`, and the reset time (null when unknown). */
export async function topStatements(
  query: Query,
  source: Extract<StatementsSource, { ok: true }>,
  opts: { order: StatementOrder; limit: number; offset: number; minCalls: number },
): Promise<{ rows: StatementRow[]; reset: string | null; total: number }> {
  const view = `${quoteIdent(source.schema)}.pg_stat_statements`;
  const toplevel = source.serverVersion >= 140000 ? 'AND s.toplevel' : '';
  const where = `s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ${toplevel}
        AND s.calls >= $1 AND s.query !~* $2`;
  const rows = await query<StatementRow>(
    `SELECT s.queryid::text AS queryid, s.query, s.calls::float8 AS calls,
            s.total_exec_time::float8 AS total_ms, s.mean_exec_time::float8 AS mean_ms, s.rows::float8 AS rows,
            s.shared_blks_read::float8 AS shared_blks_read, s.shared_blks_hit::float8 AS shared_blks_hit,
            s.temp_blks_written::float8 AS temp_blks_written
       FROM ${view} s
      WHERE ${where}
      ORDER BY s.${ORDERS[opts.order]} DESC NULLS LAST, s.queryid
      LIMIT $3 OFFSET $4`,
    [opts.minCalls, SESSION_STATEMENTS, opts.limit + 1, opts.offset],
  );
  const [count] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${view} s WHERE ${where}`, [
    opts.minCalls,
    SESSION_STATEMENTS,
  ]);
  let reset: string | null = null;
  if (source.serverVersion >= 140000) {
    const [info] = await query<{ reset: string | null }>(
      `SELECT stats_reset::text AS reset FROM ${quoteIdent(source.schema)}.pg_stat_statements_info`,
    );
    reset = info?.reset ?? null;
  }
  return { rows, reset, total: count?.n ?? rows.length };
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
