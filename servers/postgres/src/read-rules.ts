/**
 * What the read tools (query, explain_query) refuse although PostgreSQL's READ ONLY transaction
 * allows it: "a high-level notion of read-only that does not prevent all writes to disk"
 * (https://www.postgresql.org/docs/current/sql-set-transaction.html). A read call must be read-only
 * in effect — change nothing that outlives its ROLLBACK, and take no lock beyond what its own reads
 * need, since a lock that conflicts queues every later reader of the table behind it
 * (explicit-locking.html#LOCKING-TABLES). Measured on PostgreSQL 18, a READ ONLY transaction
 * accepts LOCK in every mode, ANALYZE (its statistics counters and in-place pg_class updates
 * survive the ROLLBACK), CLUSTER, REINDEX, CHECKPOINT and the advisory lock functions.
 *
 * Left to PostgreSQL, which refuses them in a READ ONLY transaction (SQLSTATE 25006): SELECT … FOR
 * UPDATE/NO KEY UPDATE/SHARE/KEY SHARE (row locks), REFRESH MATERIALIZED VIEW, COMMENT, SECURITY
 * LABEL, CREATE/ALTER/DROP, nextval/setval, lo_create. Left alone because the ROLLBACK or the reset
 * after it (db.ts) undoes them and they hold nothing past the call: SET/RESET (sql-set.html),
 * NOTIFY and LISTEN/UNLISTEN (take effect only at commit: sql-notify.html, sql-listen.html),
 * PREPARE/EXECUTE/DEALLOCATE (DEALLOCATE ALL after every read), DECLARE … WITH HOLD (removed when
 * its transaction aborts: sql-declare.html), DISCARD, SET CONSTRAINTS. Refused in every mode
 * already (reach-rules.ts): LOAD, COPY, DO, PREPARE TRANSACTION. VACUUM, CLUSTER and REINDEX
 * without a table, and REINDEX CONCURRENTLY, cannot run inside a transaction block at all.
 *
 * Paths are relative to https://www.postgresql.org/docs/current/.
 */
import type { Rule } from './reach-rules.js';

type Fields = Record<string, unknown>;

const LOCK: Rule = {
  reason:
    'LOCK takes a table lock that other sessions wait for (ACCESS EXCLUSIVE, the default, blocks even their reads, and a waiting request queues every later reader behind it); a read never needs one — each query already reads one consistent snapshot',
  source:
    'sql-lock.html; explicit-locking.html#LOCKING-TABLES; sql-set-transaction.html (READ ONLY does not refuse LOCK)',
};

const MAINTENANCE = (what: string, why: string, source: string): Rule => ({
  reason: `${what} ${why}; it is maintenance, not a read`,
  source,
});

/** Statement kinds (parse node types) refused in read calls, wherever they sit in the tree. */
export const READ_NODE_RULES: Record<string, (node: Fields) => Rule | undefined> = {
  LockStmt: () => LOCK,
  VacuumStmt: (n) =>
    n.is_vacuumcmd
      ? MAINTENANCE(
          'VACUUM',
          'rewrites table pages and updates statistics that no ROLLBACK undoes',
          'sql-vacuum.html; routine-vacuuming.html',
        )
      : MAINTENANCE(
          'ANALYZE',
          'reads a sample of every table it names (all of them when it names none) and leaves changes that survive the ROLLBACK (pg_class.reltuples/relpages updated in place, pg_stat_user_tables.analyze_count and last_analyze)',
          'sql-analyze.html; monitoring-stats.html#MONITORING-PG-STAT-ALL-TABLES-VIEW; catalog-pg-class.html',
        ),
  ClusterStmt: () =>
    MAINTENANCE(
      'CLUSTER',
      'rewrites the whole table under an ACCESS EXCLUSIVE lock (blocking every read of it)',
      'sql-cluster.html',
    ),
  ReindexStmt: () =>
    MAINTENANCE(
      'REINDEX',
      'rebuilds indexes under locks that block writes, and reads through the index, for the whole rebuild',
      'sql-reindex.html',
    ),
  CheckPointStmt: () =>
    MAINTENANCE(
      'CHECKPOINT',
      'forces a server-wide checkpoint: every dirty buffer is written to disk, outside any transaction',
      'sql-checkpoint.html',
    ),
};

const ADVISORY: Rule = {
  reason:
    'advisory locks are how applications serialise their own work; a read taking one can stall the application (it is held until the call ends)',
  source: 'explicit-locking.html#ADVISORY-LOCKS; functions-admin.html#FUNCTIONS-ADVISORY-LOCKS',
};

/** Lock-taking advisory functions (the unlock ones release only this session's own locks). */
const ADVISORY_PREFIXES = ['pg_advisory_lock', 'pg_advisory_xact_lock', 'pg_try_advisory_'];

/** The rule a function name (lower case or not, unqualified) falls under in read calls, if any. */
export function readFunctionRule(name: string): Rule | undefined {
  const n = name.toLowerCase();
  return ADVISORY_PREFIXES.some((p) => n.startsWith(p)) ? ADVISORY : undefined;
}
