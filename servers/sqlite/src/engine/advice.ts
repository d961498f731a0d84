/**
 * Index advice for one statement, the way SQLite's sqlite3_expert extension (the CLI's .expert)
 * works, which better-sqlite3 does not expose: candidate indexes from the plan (full scans,
 * SQLite's own AUTOMATIC indexes, temporary B-trees for ORDER BY) and the statement's comparisons
 * (sql/predicates.ts); each candidate is then created in an in-memory database holding a copy of
 * the schema (and sqlite_stat1, when the file has one) and the statement planned there again —
 * nothing is created in, or written to, the database itself.
 */
import Database from 'better-sqlite3';
import type { BindValue } from '../sql/params.js';
import { statementShape } from '../sql/predicates.js';
import type { AdviceCandidate, PlanStep } from './protocol.js';

/** Schema objects copied into the in-memory database at most (bounds time and memory). */
const MAX_SCHEMA_OBJECTS = 2000;
/** Candidates evaluated at most. */
const MAX_CANDIDATES = 8;

type Db = Database.Database;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The table a plan step scans fully ("SCAN t", not "SCAN t USING … INDEX"), by alias or name. */
export function scannedAlias(detail: string): string | undefined {
  const m = /^SCAN (\S+)$/.exec(detail);
  return m?.[1];
}

/** SQLite's own transient index: "SEARCH t USING AUTOMATIC [PARTIAL] COVERING INDEX (a=? AND b>?)". */
function automaticIndex(detail: string): { alias: string; columns: string[] } | undefined {
  const m = /^SEARCH (\S+) USING AUTOMATIC (?:PARTIAL )?COVERING INDEX \((.*)\)$/.exec(detail);
  if (!m) return undefined;
  const columns = [...(m[2] as string).matchAll(/([^\s()=<>]+)(?:=|>|<)/g)].map((c) => c[1] as string);
  return { alias: m[1] as string, columns };
}

function tableColumns(db: Db, table: string): Set<string> {
  const stmt = db.prepare('SELECT name FROM pragma_table_info(?)');
  stmt.safeIntegers(false);
  return new Set((stmt.pluck().all(table) as string[]).map((c) => c.toLowerCase()));
}

/** Key columns of the table's indexes, in order. */
function tableIndexes(db: Db, table: string): { name: string; columns: (string | null)[] }[] {
  const list = db.prepare('SELECT name FROM pragma_index_list(?)');
  list.safeIntegers(false);
  const info = db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno');
  info.safeIntegers(false);
  return (list.pluck().all(table) as string[]).map((name) => ({
    name,
    columns: (info.pluck().all(name) as (string | null)[]).map((c) => c?.toLowerCase() ?? null),
  }));
}

/** Candidates (table, columns, why) from the plan and the statement's text. */
function candidates(
  db: Db,
  sql: string,
  plan: PlanStep[],
): { table: string; columns: string[]; reason: string }[] {
  const shape = statementShape(sql);
  const out: { table: string; columns: string[]; reason: string }[] = [];
  const tableOf = (alias: string) => shape.tables.get(alias) ?? alias;
  const known = new Map<string, Set<string>>();
  const columnsOf = (table: string) => {
    let cols = known.get(table);
    if (!cols) {
      cols = tableColumns(db, table);
      known.set(table, cols);
    }
    return cols;
  };
  const allTables = [...new Set(shape.tables.values())];
  /** The refs that belong to `alias` (qualified by it, or unqualified and only its table has the column). */
  const refsOf = (alias: string) => {
    const table = tableOf(alias);
    const cols = columnsOf(table);
    return shape.refs.filter((r) => {
      const col = r.column.toLowerCase();
      if (!cols.has(col)) return false;
      if (r.qualifier) return r.qualifier === alias || r.qualifier === table;
      return allTables.filter((t) => columnsOf(t).has(col)).length === 1;
    });
  };
  const sortsTemp = plan.some((s) => s.detail === 'USE TEMP B-TREE FOR ORDER BY');
  for (const step of plan) {
    const auto = automaticIndex(step.detail);
    if (auto) {
      out.push({
        table: tableOf(auto.alias),
        columns: auto.columns.map((c) => c.toLowerCase()),
        reason: `SQLite builds this index on every run (${step.detail})`,
      });
      continue;
    }
    const alias = scannedAlias(step.detail);
    if (!alias) continue;
    const refs = refsOf(alias);
    const eq = [...new Set(refs.filter((r) => r.kind === 'eq').map((r) => r.column.toLowerCase()))];
    const range = refs.find((r) => r.kind === 'range' && !eq.includes(r.column.toLowerCase()));
    const filter = range ? [...eq, range.column.toLowerCase()] : eq;
    if (filter.length)
      out.push({ table: tableOf(alias), columns: filter, reason: `${step.detail}: compared in WHERE/ON` });
    const order = refs.filter((r) => r.kind === 'order').map((r) => r.column.toLowerCase());
    const orderAll = shape.refs.filter((r) => r.kind === 'order').length;
    if (sortsTemp && order.length && order.length === orderAll)
      out.push({
        table: tableOf(alias),
        columns: [...new Set([...eq, ...order])],
        reason: `${step.detail} and USE TEMP B-TREE FOR ORDER BY`,
      });
  }
  const seen = new Set<string>();
  return out.filter((c) => {
    const key = `${c.table}(${c.columns.join(',')})`;
    if (seen.has(key) || !c.columns.length) return false;
    seen.add(key);
    return true;
  });
}

/** A copy of the schema (tables, then indexes and views) and sqlite_stat1 in a new in-memory database. */
function schemaCopy(db: Db): { mem: Db; skipped: number } | undefined {
  const stmt = db.prepare(
    `SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
       AND type IN ('table', 'index', 'view') ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END
       LIMIT ${MAX_SCHEMA_OBJECTS + 1}`,
  );
  stmt.safeIntegers(false);
  const objects = stmt.all() as { type: string; name: string; sql: string }[];
  if (objects.length > MAX_SCHEMA_OBJECTS) return undefined;
  const mem = new Database(':memory:');
  let skipped = 0;
  // Views may name views defined after them: retry until no more can be made.
  let pending = objects;
  for (let round = 0; round < 3 && pending.length; round++) {
    const failed: typeof objects = [];
    for (const o of pending) {
      try {
        mem.exec(o.sql);
      } catch {
        failed.push(o);
      }
    }
    if (failed.length === pending.length) break;
    pending = failed;
  }
  skipped = pending.length;
  // The file's statistics, so the copy plans as the file would (sqlite_stat1, from ANALYZE).
  const hasStat = db
    .prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'")
    .pluck()
    .safeIntegers(false)
    .get() as number;
  if (hasStat) {
    try {
      mem.exec('ANALYZE');
      const rows = db.prepare('SELECT tbl, idx, stat FROM sqlite_stat1').safeIntegers(false).all() as {
        tbl: string;
        idx: string | null;
        stat: string;
      }[];
      mem.exec('DELETE FROM sqlite_stat1');
      const insert = mem.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
      for (const r of rows) insert.run(r.tbl, r.idx, r.stat);
      mem.exec('ANALYZE sqlite_schema');
    } catch {
      // Statistics are a refinement; planning works without them.
    }
  }
  return { mem, skipped };
}

function planIn(db: Db, sql: string, bind: BindValue[] | [Record<string, BindValue>]): string[] {
  const stmt = db.prepare(`EXPLAIN QUERY PLAN\n${sql}`);
  stmt.safeIntegers(false);
  return (stmt.all(...bind) as { detail: string }[]).map((r) => r.detail);
}

export interface AdviceOutcome {
  candidates: AdviceCandidate[];
  notes: string[];
}

/** Candidates for `sql` (already checked and planned on `db`), judged by SQLite's planner on a schema copy. */
export function adviseIndexes(
  db: Db,
  sql: string,
  bind: BindValue[] | [Record<string, BindValue>],
  plan: PlanStep[],
): AdviceOutcome {
  const notes: string[] = [];
  const found = candidates(db, sql, plan);
  const fresh: typeof found = [];
  for (const c of found) {
    const existing = tableIndexes(db, c.table).find((i) => c.columns.every((col, k) => i.columns[k] === col));
    if (existing)
      notes.push(
        `${c.table} (${c.columns.join(', ')}): index ${existing.name} already leads with these columns`,
      );
    else fresh.push(c);
  }
  if (!fresh.length) return { candidates: [], notes };
  const copy = schemaCopy(db);
  if (!copy) {
    notes.push(
      `the schema has more than ${MAX_SCHEMA_OBJECTS} objects: candidates are listed, not evaluated`,
    );
    return {
      candidates: fresh
        .slice(0, MAX_CANDIDATES)
        .map((c) => ({ ...c, ddl: ddl(c), used: null, planAfter: [] })),
      notes,
    };
  }
  const { mem } = copy;
  try {
    if (copy.skipped) notes.push(`${copy.skipped} schema object(s) could not be copied for evaluation`);
    const out: AdviceCandidate[] = [];
    for (const [n, c] of fresh.slice(0, MAX_CANDIDATES).entries()) {
      const name = `refmcp_candidate_${n}`;
      try {
        mem.exec(`CREATE INDEX ${name} ON ${quote(c.table)} (${c.columns.map(quote).join(', ')})`);
        const after = planIn(mem, sql, bind);
        mem.exec(`DROP INDEX ${name}`);
        out.push({
          ...c,
          ddl: ddl(c),
          used: after.some((d) => new RegExp(`USING (?:COVERING )?INDEX ${name}\\b`).test(d)),
          planAfter: after.map((d) => d.replaceAll(name, 'the candidate')),
        });
      } catch (error) {
        notes.push(`${ddl(c)}: could not be evaluated (${(error as Error).message})`);
      }
    }
    return { candidates: out, notes };
  } finally {
    mem.close();
  }
}

/** The advice as SQLite needs it (an index needs a name): CREATE INDEX "t_a_b_idx" ON "t" ("a", "b"). */
function ddl(c: { table: string; columns: string[] }): string {
  return `CREATE INDEX ${quote(`${c.table}_${c.columns.join('_')}_idx`)} ON ${quote(c.table)} (${c.columns.map(quote).join(', ')})`;
}
