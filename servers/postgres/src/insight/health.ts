/**
 * Database health checks, each read from the statistics views and catalogs (docs
 * monitoring-stats.html, catalogs.html) and judged against a stated threshold with its source:
 * check_postgres (bucardo.org/check_postgres, its actions' default --warning/--critical values),
 * the PostgreSQL documentation, or pganalyze's published defaults. Read-only: nothing is vacuumed,
 * analysed or signalled.
 */
import type { Query } from '../run.js';
import { seconds } from './listing.js';
import { formatBytes } from './plan.js';

export type Status = 'ok' | 'warning' | 'critical' | 'unknown';

export interface CheckResult {
  check: CheckName;
  status: Status;
  /** One line with the numbers. */
  summary: string;
  /** The offending (or notable) items, at most ITEMS. */
  items: string[];
  threshold: string;
  source: string;
}

export const CHECKS = [
  'connections',
  'long_running',
  'idle_in_transaction',
  'blocking_locks',
  'vacuum',
  'bloat',
  'wraparound',
  'sequences',
  'replication',
  'cache_hit',
] as const;
export type CheckName = (typeof CHECKS)[number];

/** Items listed per check. */
const ITEMS = 10;

/** Text of other sessions' queries, cut (it is shown as untrusted data by the tool). */
type Clean = (text: string | null) => string;

const worst = (a: Status, b: Status): Status => {
  const order: Status[] = ['ok', 'unknown', 'warning', 'critical'];
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
};
const level = (value: number, warn: number, crit: number): Status =>
  value >= crit ? 'critical' : value >= warn ? 'warning' : 'ok';
const secs = (s: number) =>
  s >= 86400 ? `${Math.round(s / 3600)} h` : s >= 120 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`;
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

type Runner = (query: Query, clean: Clean) => Promise<Omit<CheckResult, 'check'>>;

const RUNNERS: Record<CheckName, Runner> = {
  async connections(query) {
    const [r] = await query<{ used: number; max: number; reserved: number }>(
      `SELECT (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')::int AS used,
              current_setting('max_connections')::int AS max,
              current_setting('superuser_reserved_connections')::int AS reserved`,
    );
    const usable = Math.max(1, (r?.max ?? 1) - (r?.reserved ?? 0));
    const share = (r?.used ?? 0) / usable;
    return {
      status: level(share, 0.9, 0.95),
      summary: `${r?.used} of ${usable} (${pct(share)}; max_connections ${r?.max} less ${r?.reserved} reserved)`,
      items: [],
      threshold: 'warning ≥ 90%, critical ≥ 95% of usable connections',
      source: 'check_postgres backends defaults',
    };
  },

  async long_running(query, clean) {
    const rows = await query<{ pid: number; user: string | null; seconds: number; query: string | null }>(
      `SELECT pid, usename::text AS user, extract(epoch FROM now() - query_start)::float8 AS seconds, query
         FROM pg_stat_activity
        WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
          AND now() - query_start > interval '2 minutes'
        ORDER BY query_start LIMIT ${ITEMS + 1}`,
    );
    const longest = rows[0]?.seconds ?? 0;
    return {
      status: level(longest, 120, 300),
      summary: rows.length
        ? `${rows.length > ITEMS ? `more than ${ITEMS}` : rows.length} statement(s) running over 2 min; longest ${secs(longest)}`
        : 'none over 2 min',
      items: rows
        .slice(0, ITEMS)
        .map((r) => `pid ${r.pid} (${r.user ?? '?'}) running ${secs(r.seconds)}: ${clean(r.query)}`),
      threshold: 'warning ≥ 2 min, critical ≥ 5 min',
      source: 'check_postgres query_time (its documented example values)',
    };
  },

  async idle_in_transaction(query, clean) {
    const rows = await query<{
      pid: number;
      user: string | null;
      seconds: number;
      xact: number;
      query: string | null;
      locks: number;
    }>(
      `SELECT a.pid, a.usename::text AS user, extract(epoch FROM now() - a.state_change)::float8 AS seconds,
              extract(epoch FROM now() - a.xact_start)::float8 AS xact, a.query,
              (SELECT count(*) FROM pg_locks l WHERE l.pid = a.pid AND l.granted AND l.locktype = 'relation')::int AS locks
         FROM pg_stat_activity a
        WHERE a.state IN ('idle in transaction', 'idle in transaction (aborted)') AND a.pid <> pg_backend_pid()
        ORDER BY a.state_change LIMIT ${ITEMS + 1}`,
    );
    const longest = rows[0]?.seconds ?? 0;
    return {
      status: level(longest, 1800, 3600),
      summary: rows.length
        ? `${rows.length > ITEMS ? `more than ${ITEMS}` : rows.length} session(s) idle in a transaction; longest idle ${secs(longest)} (they hold locks and keep VACUUM from removing dead rows)`
        : 'none',
      items: rows
        .slice(0, ITEMS)
        .map(
          (r) =>
            `pid ${r.pid} (${r.user ?? '?'}) idle ${secs(r.seconds)}, transaction open ${secs(r.xact)}, ${r.locks} table lock(s); last statement: ${clean(r.query)}`,
        ),
      threshold: 'warning ≥ 30 min idle, critical ≥ 60 min (every such session is listed)',
      source: 'pganalyze "Idle Transactions" check defaults (1800 s / 3600 s)',
    };
  },

  async blocking_locks(query, clean) {
    const rows = await query<{
      pid: number;
      blockers: number[];
      waiting: number | null;
      query: string | null;
      blocker_query: string | null;
      blocker_state: string | null;
    }>(
      `SELECT a.pid, pg_blocking_pids(a.pid) AS blockers,
              extract(epoch FROM now() - (SELECT min(l.waitstart) FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted))::float8 AS waiting,
              a.query,
              (SELECT b.query FROM pg_stat_activity b WHERE b.pid = (pg_blocking_pids(a.pid))[1]) AS blocker_query,
              (SELECT b.state FROM pg_stat_activity b WHERE b.pid = (pg_blocking_pids(a.pid))[1]) AS blocker_state
         FROM pg_stat_activity a
        WHERE cardinality(pg_blocking_pids(a.pid)) > 0
        ORDER BY waiting DESC NULLS LAST LIMIT ${ITEMS + 1}`,
    );
    const longest = rows[0]?.waiting ?? 0;
    return {
      status: rows.length ? worst('warning', level(longest, 60, 120)) : 'ok',
      summary: rows.length
        ? `${rows.length > ITEMS ? `more than ${ITEMS}` : rows.length} session(s) waiting for a lock another session holds; longest wait ${secs(longest)}`
        : 'none blocked',
      items: rows
        .slice(0, ITEMS)
        .map(
          (r) =>
            `pid ${r.pid} waiting ${secs(r.waiting ?? 0)} for pid ${r.blockers.join(', ')} (${r.blocker_state ?? '?'}: ${clean(r.blocker_query)}); waiting statement: ${clean(r.query)}`,
        ),
      threshold:
        'warning: any blocked session; critical: blocked ≥ 2 min (check_postgres lockwait: 1 min / 2 min)',
      source: 'pg_blocking_pids (docs functions-info.html); check_postgres lockwait defaults',
    };
  },

  async vacuum(query) {
    const rows = await query<{
      schema: string;
      table: string;
      dead: number;
      modified: number;
      vacuum_at: number;
      analyze_at: number;
      last_vacuum: string | null;
      last_analyze: string | null;
      enabled: boolean;
    }>(
      `WITH t AS (
         SELECT s.schemaname AS schema, s.relname AS table, s.n_dead_tup::float8 AS dead,
                s.n_mod_since_analyze::float8 AS modified, greatest(c.reltuples, 0)::float8 AS reltuples,
                greatest(s.last_vacuum, s.last_autovacuum)::text AS last_vacuum,
                greatest(s.last_analyze, s.last_autoanalyze)::text AS last_analyze,
                (SELECT o.option_value FROM pg_options_to_table(c.reloptions) o WHERE o.option_name = 'autovacuum_enabled') AS enabled,
                (SELECT o.option_value FROM pg_options_to_table(c.reloptions) o WHERE o.option_name = 'autovacuum_vacuum_threshold') AS vt,
                (SELECT o.option_value FROM pg_options_to_table(c.reloptions) o WHERE o.option_name = 'autovacuum_vacuum_scale_factor') AS vs,
                (SELECT o.option_value FROM pg_options_to_table(c.reloptions) o WHERE o.option_name = 'autovacuum_analyze_threshold') AS at,
                (SELECT o.option_value FROM pg_options_to_table(c.reloptions) o WHERE o.option_name = 'autovacuum_analyze_scale_factor') AS as_
           FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid)
       SELECT schema, "table", dead, modified, last_vacuum, last_analyze, COALESCE(enabled, 'on') NOT IN ('off', 'false', 'no', '0') AS enabled,
              COALESCE(vt, current_setting('autovacuum_vacuum_threshold'))::float8
                + COALESCE(vs, current_setting('autovacuum_vacuum_scale_factor'))::float8 * reltuples AS vacuum_at,
              COALESCE(at, current_setting('autovacuum_analyze_threshold'))::float8
                + COALESCE(as_, current_setting('autovacuum_analyze_scale_factor'))::float8 * reltuples AS analyze_at
         FROM t`,
    );
    const due = rows
      .filter((r) => r.dead > r.vacuum_at || r.modified > r.analyze_at)
      .sort((a, b) => b.dead - a.dead);
    return {
      status: due.length ? 'warning' : 'ok',
      summary: due.length
        ? `${due.length} table(s) past their autovacuum or autoanalyze trigger`
        : 'every table within its autovacuum and autoanalyze triggers',
      items: due
        .slice(0, ITEMS)
        .map(
          (r) =>
            `${r.schema}.${r.table}: ${[r.dead > r.vacuum_at ? `${r.dead} dead rows (vacuum at ${Math.round(r.vacuum_at)})` : '', r.modified > r.analyze_at ? `${r.modified} changed (analyze at ${Math.round(r.analyze_at)})` : ''].filter(Boolean).join(', ')}; vacuumed ${r.last_vacuum ? seconds(r.last_vacuum) : 'never'}, analyzed ${r.last_analyze ? seconds(r.last_analyze) : 'never'}${r.enabled ? '' : '; autovacuum_enabled = off'}`,
        ),
      threshold:
        'autovacuum’s own trigger: dead rows > threshold + scale_factor × reltuples (analyze: changed rows), per-table settings honoured',
      source: 'docs routine-vacuuming.html#AUTOVACUUM',
    };
  },

  async bloat(query) {
    // Expected pages from the planner's statistics: rows × (tuple header 24 B + null bitmap +
    // average column widths from pg_stats, aligned to 8, + 4 B line pointer) over the page's
    // usable bytes at the fillfactor; the rest is an estimate of space held by dead rows and
    // free space (docs storage-page-layout.html). Tables without statistics are skipped.
    const rows = await query<{
      kind: string;
      schema: string;
      name: string;
      table: string;
      bytes: number;
      wasted: number;
    }>(
      `WITH bs AS (SELECT current_setting('block_size')::float8 AS bs),
       cols AS (
         SELECT s.schemaname, s.tablename, sum((1 - s.null_frac) * s.avg_width)::float8 AS width,
                count(*) AS ncols, max(s.null_frac) AS maxnull
           FROM pg_stats s GROUP BY 1, 2),
       tbl AS (
         SELECT 'table' AS kind, n.nspname AS schema, c.relname AS name, c.relname AS table,
                c.relpages::float8 * bs.bs AS bytes,
                (c.relpages - ceil(c.reltuples * (ceil((24 + CASE WHEN cols.maxnull > 0 THEN ceil(cols.ncols / 8.0) ELSE 0 END + cols.width) / 8.0) * 8 + 4)
                   / ((bs.bs - 24) * COALESCE((SELECT o.option_value::float8 FROM pg_options_to_table(c.reloptions) o WHERE o.option_name = 'fillfactor'), 100) / 100))) * bs.bs AS wasted
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace CROSS JOIN bs
           JOIN cols ON cols.schemaname = n.nspname AND cols.tablename = c.relname
          WHERE c.relkind = 'r' AND c.reltuples >= 0 AND c.relpages >= 8
            AND n.nspname NOT IN ('pg_catalog', 'information_schema')),
       idx AS (
         SELECT 'index' AS kind, n.nspname AS schema, i.relname AS name, t.relname AS table,
                i.relpages::float8 * bs.bs AS bytes,
                (i.relpages - 1 - ceil(i.reltuples * (ceil((8 + sum(COALESCE(s.avg_width, 8))) / 8.0) * 8 + 4)
                   / ((bs.bs - 24 - 16) * 0.9))) * bs.bs AS wasted
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_am am ON am.oid = i.relam CROSS JOIN bs
           JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (x.indkey)
           LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = t.relname AND s.attname = a.attname
          WHERE am.amname = 'btree' AND i.reltuples >= 0 AND i.relpages >= 8 AND x.indexprs IS NULL
            AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          GROUP BY n.nspname, i.relname, t.relname, i.relpages, i.reltuples, bs.bs)
       SELECT * FROM (SELECT * FROM tbl UNION ALL SELECT * FROM idx) b WHERE wasted > 0 ORDER BY wasted DESC LIMIT ${ITEMS}`,
    );
    const most = rows[0]?.wasted ?? 0;
    return {
      status: level(most, 1024 ** 3, 5 * 1024 ** 3),
      summary: rows.length
        ? `most ~${formatBytes(most)} of ${formatBytes(rows[0]?.bytes ?? 0)} in one ${rows[0]?.kind}`
        : 'no estimated waste in tables and B-tree indexes of 8+ pages with statistics',
      items: rows.map(
        (r) =>
          `${r.kind} ${r.schema}.${r.name}${r.kind === 'index' ? ` on ${r.table}` : ''}: ~${formatBytes(r.wasted)} of ${formatBytes(r.bytes)} (${pct(r.wasted / Math.max(1, r.bytes))}) estimated waste`,
      ),
      threshold:
        'warning ≥ 1 GB estimated waste in one relation, critical ≥ 5 GB (estimated from pg_stats; pgstattuple measures exactly)',
      source: 'check_postgres bloat defaults',
    };
  },

  async wraparound(query) {
    const rows = await query<{ db: string; age: number; mxid: number }>(
      `SELECT datname::text AS db, age(datfrozenxid)::float8 AS age, mxid_age(datminmxid)::float8 AS mxid
         FROM pg_database WHERE datallowconn ORDER BY age(datfrozenxid) DESC`,
    );
    const top = rows[0];
    const limit = 2 ** 31;
    return {
      status: level(top?.age ?? 0, 1_300_000_000, 1_400_000_000),
      summary: top
        ? `${limit - top.age} xids left (oldest age ${top.age}), multixact age ${top.mxid}`
        : 'no database visible',
      items: rows.slice(0, ITEMS).map((r) => `${r.db}: xid age ${r.age}, multixact age ${r.mxid}`),
      threshold: 'warning ≥ 1.3 billion, critical ≥ 1.4 billion transactions old (wraparound at 2^31)',
      source: 'check_postgres txn_wraparound defaults',
    };
  },

  async sequences(query) {
    const rows = await query<{ name: string; last: number; max: number; used: number; limit_by: string }>(
      `SELECT s.schemaname || '.' || s.sequencename AS name, s.last_value::float8 AS last,
              least(s.max_value::float8, CASE col.typ WHEN 'smallint' THEN 32767 WHEN 'integer' THEN 2147483647 ELSE s.max_value::float8 END) AS max,
              CASE WHEN s.increment_by > 0
                   THEN (s.last_value::float8 - s.min_value::float8)
                        / nullif(least(s.max_value::float8, CASE col.typ WHEN 'smallint' THEN 32767 WHEN 'integer' THEN 2147483647 ELSE s.max_value::float8 END) - s.min_value::float8, 0)
                   ELSE (s.max_value::float8 - s.last_value::float8) / nullif(s.max_value::float8 - s.min_value::float8, 0) END AS used,
              COALESCE(col.typ || ' column ' || col.col, s.data_type::text || ' sequence') AS limit_by
         FROM pg_sequences s
         LEFT JOIN LATERAL (
           SELECT format_type(a.atttypid, NULL) AS typ, d.refobjid::regclass::text || '.' || a.attname AS col
             FROM pg_depend d JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
            WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
              AND d.objid = (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass
              AND d.deptype IN ('a', 'i') LIMIT 1) col ON true
        WHERE s.last_value IS NOT NULL
        ORDER BY used DESC NULLS LAST LIMIT ${ITEMS}`,
    );
    const most = rows[0]?.used ?? 0;
    return {
      status: level(most, 0.85, 0.95),
      summary: rows.length ? `most used ${pct(most)} of its range` : 'none used yet (or none readable)',
      items: rows
        .filter((r) => r.used >= 0.5)
        .map((r) => `${r.name}: ${r.last} of ${r.max} (${pct(r.used)}), limited by its ${r.limit_by}`),
      threshold: 'warning ≥ 85%, critical ≥ 95% of the range (an owning integer column stops at 2147483647)',
      source: 'check_postgres sequence defaults',
    };
  },

  async replication(query) {
    const [r] = await query<{
      standby: boolean;
      replay_delay: number | null;
      replicas: { name: string; state: string; lag_s: number | null; lag_bytes: number | null }[] | null;
      slots:
        | {
            name: string;
            type: string;
            active: boolean;
            retained: number | null;
            wal_status: string | null;
          }[]
        | null;
    }>(
      `SELECT pg_is_in_recovery() AS standby,
              CASE WHEN pg_is_in_recovery() THEN extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 END AS replay_delay,
              (SELECT json_agg(json_build_object('name', application_name, 'state', state,
                        'lag_s', extract(epoch FROM replay_lag),
                        'lag_bytes', CASE WHEN NOT pg_is_in_recovery() THEN pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) END))
                 FROM pg_stat_replication) AS replicas,
              (SELECT json_agg(json_build_object('name', slot_name, 'type', slot_type, 'active', active,
                        'retained', CASE WHEN NOT pg_is_in_recovery() THEN pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn) END,
                        'wal_status', wal_status))
                 FROM pg_replication_slots) AS slots`,
    );
    const items: string[] = [];
    let status: Status = 'ok';
    for (const rep of r?.replicas ?? []) {
      const lag = rep.lag_s ?? 0;
      status = worst(status, lag >= 60 ? 'warning' : 'ok');
      items.push(
        `replica ${rep.name} (${rep.state}): replay lag ${secs(lag)}, ${formatBytes(rep.lag_bytes ?? 0)} behind`,
      );
    }
    for (const slot of r?.slots ?? []) {
      const s: Status =
        slot.wal_status === 'lost'
          ? 'critical'
          : !slot.active || slot.wal_status === 'unreserved'
            ? 'warning'
            : 'ok';
      status = worst(status, s);
      items.push(
        `slot ${slot.name} (${slot.type}, ${slot.active ? 'active' : 'inactive'}, wal_status ${slot.wal_status ?? '?'}): retains ${slot.retained === null ? '?' : formatBytes(slot.retained)} of WAL`,
      );
    }
    if (r?.standby && r.replay_delay !== null) {
      status = worst(status, r.replay_delay >= 60 ? 'warning' : 'ok');
      items.unshift(`this server is a standby: last replayed transaction ${secs(r.replay_delay)} ago`);
    }
    return {
      status,
      summary: `${r?.standby ? 'standby' : 'primary'}, ${(r?.replicas ?? []).length} replica(s), ${(r?.slots ?? []).length} slot(s)`,
      items: items.slice(0, ITEMS),
      threshold:
        'warning: an inactive slot (it retains WAL, which can fill the disk), wal_status unreserved, or replay lag ≥ 60 s (ours); critical: wal_status lost',
      source: 'docs warm-standby.html#STREAMING-REPLICATION-SLOTS, view-pg-replication-slots.html',
    };
  },

  async cache_hit(query) {
    const [r] = await query<{ heap_hit: number; heap_read: number; idx_hit: number; idx_read: number }>(
      `SELECT (SELECT COALESCE(sum(heap_blks_hit), 0) FROM pg_statio_user_tables)::float8 AS heap_hit,
              (SELECT COALESCE(sum(heap_blks_read), 0) FROM pg_statio_user_tables)::float8 AS heap_read,
              (SELECT COALESCE(sum(idx_blks_hit), 0) FROM pg_statio_user_indexes)::float8 AS idx_hit,
              (SELECT COALESCE(sum(idx_blks_read), 0) FROM pg_statio_user_indexes)::float8 AS idx_read`,
    );
    const heapTotal = (r?.heap_hit ?? 0) + (r?.heap_read ?? 0);
    const idxTotal = (r?.idx_hit ?? 0) + (r?.idx_read ?? 0);
    const heap = heapTotal ? (r?.heap_hit ?? 0) / heapTotal : 1;
    const idx = idxTotal ? (r?.idx_hit ?? 0) / idxTotal : 1;
    const low = Math.min(heap, idx);
    return {
      status: heapTotal + idxTotal < 1000 ? 'unknown' : low < 0.8 ? 'critical' : low < 0.9 ? 'warning' : 'ok',
      summary: `tables ${pct(heap)} of ${heapTotal} block reads, indexes ${pct(idx)} of ${idxTotal}${heapTotal + idxTotal < 1000 ? ' (too few reads to judge)' : ''}`,
      items: [],
      threshold: 'warning < 90%, critical < 80% (judged from 1000 block reads)',
      source: 'check_postgres hitratio (its documented example values)',
    };
  },
};

/** Runs `checks` in order in the open transaction; a check that fails reports `unknown` with the error. */
export async function runChecks(
  query: Query,
  checks: readonly CheckName[],
  clean: Clean,
): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for (const check of checks) {
    try {
      await query(`SAVEPOINT refmcp_check`);
      out.push({ check, ...(await RUNNERS[check](query, clean)) });
      await query(`RELEASE SAVEPOINT refmcp_check`);
    } catch (error) {
      await query(`ROLLBACK TO SAVEPOINT refmcp_check`);
      out.push({
        check,
        status: 'unknown',
        summary: `could not be read: ${(error as Error).message}`,
        items: [],
        threshold: '',
        source: '',
      });
    }
  }
  return out;
}
