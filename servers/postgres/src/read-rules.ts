/**
 * What the read tools (query, explain_query) refuse although PostgreSQL's READ ONLY transaction
 * allows it: "a high-level notion of read-only that does not prevent all writes to disk"
 * (https://www.postgresql.org/docs/current/sql-set-transaction.html). A read call must be read-only
 * in effect — change nothing that outlives its ROLLBACK, and take no lock beyond what its own reads
 * need, since a lock that conflicts queues every later reader of the table behind it
 * (explicit-locking.html#LOCKING-TABLES). Measured on PostgreSQL 18, a READ ONLY transaction
 * accepts LOCK in every mode, ANALYZE (its statistics counters and in-place pg_class updates
 * survive the ROLLBACK), CLUSTER, REINDEX, CHECKPOINT and the advisory lock functions; it lets
 * txid_current()/pg_current_xact_id() spend a transaction ID for good; and a plain EXPLAIN of a
 * write or of SELECT … FOR UPDATE/SHARE takes the write's table locks while planning it.
 *
 * Left to PostgreSQL, which refuses them in a READ ONLY transaction (SQLSTATE 25006, at execution:
 * after planning has taken their locks, within lock_timeout): SELECT … FOR
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

/** A read-call rule; `advise` says what to do instead, by server mode (else run.ts's default). */
export interface ReadRule extends Rule {
  advise?: (writes: boolean) => string;
}

/**
 * What takes a lock stronger than a read's ACCESS SHARE as soon as PostgreSQL plans it, by parse
 * node type: a write locks its target ROW EXCLUSIVE, a locking clause its tables ROW SHARE, during
 * parse analysis — before the READ ONLY check (at execution) could refuse it, and for a plain
 * EXPLAIN, which only plans, without any refusal at all (measured on PostgreSQL 18: explaining
 * UPDATE t while another session holds LOCK TABLE t IN SHARE MODE waits for it, and queues later
 * conflicting requests behind it, until lock_timeout). Node type → what the model is told.
 */
const PLAN_LOCK_NODES: Record<string, (node: Fields) => string> = {
  InsertStmt: () => 'INSERT',
  UpdateStmt: () => 'UPDATE',
  DeleteStmt: () => 'DELETE',
  MergeStmt: () => 'MERGE',
  LockingClause: (n) => `SELECT … ${LOCKING_STRENGTH[String(n.strength)] ?? 'FOR UPDATE/SHARE'}`,
};

const LOCKING_STRENGTH: Record<string, string> = {
  LCS_FORKEYSHARE: 'FOR KEY SHARE',
  LCS_FORSHARE: 'FOR SHARE',
  LCS_FORNOKEYUPDATE: 'FOR NO KEY UPDATE',
  LCS_FORUPDATE: 'FOR UPDATE',
};

/** What a parse node (by type) locks beyond a read when planned (PLAN_LOCK_NODES), if anything. */
export function planLock(type: string, node: Fields): string | undefined {
  return PLAN_LOCK_NODES[type]?.(node);
}

/**
 * Why explaining `what` (planLock) is refused in a read call: planning it takes the write's table
 * locks. `tool` is the read tool refusing it.
 */
export function explainWriteRule(what: string, tool: 'query' | 'explain_query'): ReadRule {
  const mode = what.startsWith('SELECT')
    ? 'ROW SHARE on the tables it locks rows of'
    : 'ROW EXCLUSIVE on its target table';
  return {
    reason:
      `explaining ${what} plans it, and planning it takes the write's table locks (${mode}) although EXPLAIN ` +
      'runs nothing: it waits for, and makes later requests queue behind, any session holding a conflicting lock ' +
      '(e.g. LOCK TABLE … IN SHARE MODE); a read takes no lock beyond what its own reads need (ACCESS SHARE)',
    source: 'sql-explain.html; explicit-locking.html#LOCKING-TABLES',
    advise: (writes) =>
      writes
        ? tool === 'query'
          ? 'The query tool runs reads only: explain_query explains writes on this server (writes are enabled), or EXPLAIN it through the execute tool.'
          : 'EXPLAIN it through the execute tool.'
        : 'Explaining a write takes its table locks and needs --allow-writes: this server is read-only. Explain the SELECT part (or the SELECT without FOR UPDATE/SHARE) instead to see how its rows would be found.',
  };
}

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

const XID: Rule = {
  reason:
    'it assigns the call a real transaction ID, which is used up for good (the ROLLBACK does not return it) and brings the next wraparound VACUUM closer; a read never needs one',
  source: 'functions-info.html#FUNCTIONS-PG-SNAPSHOT; routine-vacuuming.html#VACUUM-FOR-WRAPAROUND',
  advice:
    'txid_current_if_assigned() / pg_current_xact_id_if_assigned() (NULL in a read) and pg_current_snapshot() / txid_current_snapshot() read without assigning one.',
};

/** Functions that assign a transaction ID (the `_if_assigned` variants and the snapshot ones do not). */
const XID_FUNCTIONS = new Set(['txid_current', 'pg_current_xact_id']);

/** The rule a function name (lower case or not, unqualified) falls under in read calls, if any. */
export function readFunctionRule(name: string): Rule | undefined {
  const n = name.toLowerCase();
  if (XID_FUNCTIONS.has(n)) return XID;
  return ADVISORY_PREFIXES.some((p) => n.startsWith(p)) ? ADVISORY : undefined;
}
