/**
 * Index advice: candidate indexes from plans (candidates.ts), evaluated with hypothetical indexes
 * when the HypoPG extension is installed in the database (hypopg_create_index: an index that
 * exists only in this backend's memory, never on disk or in the catalog; the plan is made again
 * with it and its cost compared; hypopg_reset() drops it before the call ends — HypoPG docs,
 * hypopg.readthedocs.io), or else by the plan's own estimates (the cost of the node the index
 * would replace: an upper bound of the saving, not a measured after-cost). Nothing is created.
 */
import type { Query, Statement } from '../run.js';
import { type Candidate, planCandidates, type RelationInfo } from './candidates.js';
import { nodeLabel, type PlanRoot, planRoot, walkPlan } from './plan.js';

/** One candidate with its evaluation. */
export interface Advice {
  ddl: string;
  table: string;
  columns: string[];
  reason: string;
  /** 'hypopg': costs before/after measured by the planner; 'estimate': the plan's own numbers. */
  method: 'hypopg' | 'estimate';
  costBefore: number;
  /** HypoPG: the plan's total cost with the hypothetical index. */
  costAfter?: number;
  /** HypoPG: whether the planner used the hypothetical index. */
  used?: boolean;
  /** Estimate: the exclusive cost of the plan node the index would serve. */
  nodeCost?: number;
  /** Estimate: that node, e.g. "Seq Scan on public.orders". */
  node?: string;
  /** Workload advice: the statements (queryid) it serves. */
  queries?: string[];
  /** Workload estimate: their execution time (ms) times the node's share of their plan cost. */
  workloadMs?: number;
}

/** Whether HypoPG is installed in this database (its schema, quoted), else undefined. */
export async function hypopgSchema(query: Query): Promise<string | undefined> {
  const [row] = await query<{ schema: string }>(
    `SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'hypopg'`,
  );
  return row?.schema;
}

/** EXPLAIN (FORMAT JSON, VERBOSE [, GENERIC_PLAN]) of an already-guarded statement, in the open transaction. */
export async function planOf(query: Query, statement: Statement, generic: boolean): Promise<PlanRoot> {
  const rows = await query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON, VERBOSE${generic ? ', GENERIC_PLAN' : ''}) ${statement.sql}`,
    generic ? undefined : statement.params,
  );
  const plan = planRoot(rows[0]?.['QUERY PLAN']);
  if (!plan) throw new Error('EXPLAIN returned no plan');
  return plan;
}

const totalCost = (plan: PlanRoot) => Number(plan.Plan['Total Cost'] ?? 0);

/**
 * The plan's total cost with one hypothetical index, and whether it was used. Runs inside a
 * savepoint and always ends with hypopg_reset(), so no hypothetical index outlives the call even
 * when planning fails. Errors: the planner's (after the reset).
 */
async function hypotheticalCost(
  query: Query,
  hypopg: string,
  ddl: string,
  statements: { statement: Statement; generic: boolean }[],
): Promise<{ costs: number[]; used: boolean }> {
  await query('SAVEPOINT refmcp_hypopg');
  try {
    const [made] = await query<{ name: string }>(
      `SELECT indexname::text AS name FROM ${hypopg}.hypopg_create_index($1)`,
      [ddl],
    );
    const costs: number[] = [];
    let used = false;
    for (const s of statements) {
      const plan = await planOf(query, s.statement, s.generic);
      costs.push(totalCost(plan));
      used ||= walkPlan(plan.Plan).some((w) => made?.name && w.node['Index Name'] === made.name);
    }
    await query(`SELECT ${hypopg}.hypopg_reset()`);
    await query('RELEASE SAVEPOINT refmcp_hypopg');
    return { costs, used };
  } catch (error) {
    await query('ROLLBACK TO SAVEPOINT refmcp_hypopg');
    await query(`SELECT ${hypopg}.hypopg_reset()`);
    throw error;
  }
}

/** Advice for one statement: its candidates, evaluated. */
export async function statementAdvice(
  query: Query,
  statement: Statement,
  plan: PlanRoot,
  relations: Map<string, RelationInfo>,
  opts: { hypopg: string | undefined; generic: boolean; max: number },
): Promise<{ advice: Advice[]; covered: string[] }> {
  const covered: string[] = [];
  const candidates = planCandidates(plan, relations, covered).slice(0, opts.max);
  const advice: Advice[] = [];
  for (const c of candidates) {
    advice.push(
      opts.hypopg
        ? await withHypopg(query, opts.hypopg, c, [
            { statement, generic: opts.generic, cost: totalCost(plan) },
          ])
        : estimated(c, totalCost(plan)),
    );
  }
  return { advice: rank(advice), covered };
}

async function withHypopg(
  query: Query,
  hypopg: string,
  c: Candidate,
  statements: { statement: Statement; generic: boolean; cost: number }[],
): Promise<Advice> {
  const { costs, used } = await hypotheticalCost(query, hypopg, c.ddl, statements);
  return {
    ...base(c),
    method: 'hypopg',
    costBefore: statements.reduce((s, x) => s + x.cost, 0),
    costAfter: costs.reduce((s, x) => s + x, 0),
    used,
  };
}

function base(c: Candidate) {
  return { ddl: c.ddl, table: `${c.schema}.${c.table}`, columns: c.columns, reason: c.reason };
}

function estimated(c: Candidate, planCost: number): Advice {
  const w = walkPlan(c.node)[0];
  return {
    ...base(c),
    method: 'estimate',
    costBefore: planCost,
    nodeCost: Math.round(w?.selfCost ?? Number(c.node['Total Cost'] ?? 0)),
    node: nodeLabel(c.node),
  };
}

/** Largest saving first: measured (before − after), else the node's cost. */
export function rank(advice: Advice[]): Advice[] {
  const saving = (a: Advice) =>
    a.method === 'hypopg' ? (a.used ? a.costBefore - (a.costAfter ?? a.costBefore) : -1) : (a.nodeCost ?? 0);
  return [...advice].sort((a, b) => saving(b) - saving(a));
}

/** One statement of the workload, planned. */
export interface PlannedStatement {
  queryid: string;
  statement: Statement;
  plan: PlanRoot;
  /** pg_stat_statements total_exec_time, ms: the weight of its candidates. */
  totalMs: number;
}

/**
 * Advice for a workload: each statement's candidates, merged by DDL; HypoPG measures each
 * candidate over every statement it came from; the estimate weighs the node cost by the
 * statement's share of the workload's time.
 */
export async function workloadAdvice(
  query: Query,
  planned: PlannedStatement[],
  relations: Map<string, RelationInfo>,
  opts: { hypopg: string | undefined; max: number },
): Promise<{ advice: Advice[]; covered: string[] }> {
  const covered: string[] = [];
  const byDdl = new Map<
    string,
    { candidate: Candidate; from: PlannedStatement[]; nodeCost: number; weight: number }
  >();
  for (const p of planned) {
    for (const c of planCandidates(p.plan, relations, covered)) {
      const entry = byDdl.get(c.ddl) ?? { candidate: c, from: [], nodeCost: 0, weight: 0 };
      entry.from.push(p);
      const w = walkPlan(c.node)[0];
      const share = totalCost(p.plan) > 0 ? (w?.selfCost ?? 0) / totalCost(p.plan) : 0;
      entry.nodeCost += w?.selfCost ?? 0;
      entry.weight += share * p.totalMs;
      byDdl.set(c.ddl, entry);
    }
  }
  const entries = [...byDdl.values()].sort((a, b) => b.weight - a.weight).slice(0, opts.max);
  const advice: Advice[] = [];
  for (const e of entries) {
    const queries = e.from.map((p) => p.queryid);
    if (opts.hypopg) {
      const a = await withHypopg(
        query,
        opts.hypopg,
        e.candidate,
        e.from.map((p) => ({ statement: p.statement, generic: true, cost: totalCost(p.plan) })),
      );
      advice.push({ ...a, queries });
    } else {
      advice.push({
        ...estimated(
          e.candidate,
          e.from.reduce((s, p) => s + totalCost(p.plan), 0),
        ),
        nodeCost: Math.round(e.nodeCost),
        workloadMs: Math.round(e.weight),
        queries,
      });
    }
  }
  return { advice: opts.hypopg ? rank(advice) : advice, covered: [...new Set(covered)] };
}

/** One line of advice for the text rendering. */
export function adviceLine(a: Advice): string {
  // The DDL names the table: the plan's qualifier before its columns in the reason says it again.
  const bare = a.table.slice(a.table.lastIndexOf('.') + 1);
  const reason = a.reason.replace(new RegExp(`(?<![\\w."$])${escapeRegExp(bare)}\\.(?=[\\w"])`, 'g'), '');
  const what = `${a.ddl}; -- ${reason}`;
  if (a.method === 'hypopg')
    return a.used
      ? `${what}; HypoPG: plan cost ${Math.round(a.costBefore)} → ${Math.round(a.costAfter ?? 0)} (${pctDrop(a.costBefore, a.costAfter ?? a.costBefore)} lower)`
      : `${what}; HypoPG: the planner did not use it (cost ${Math.round(a.costBefore)} → ${Math.round(a.costAfter ?? 0)}); not recommended`;
  // The node's table is the DDL's: named once.
  const node = a.node?.replace(` on ${a.table}`, '');
  return (
    `${what}; ${node} costs ${a.nodeCost} of the plan's ${Math.round(a.costBefore)} (${pct(a.nodeCost ?? 0, a.costBefore)})` +
    (a.workloadMs !== undefined ? `, ≈${a.workloadMs} ms recorded in it` : '')
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '?%');
const pctDrop = (before: number, after: number) => pct(before - after, before);
