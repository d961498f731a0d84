/**
 * EXPLAIN QUERY PLAN read for a model (sqlite.org/eqp.html): full table scans, SQLite's automatic
 * (per-run) indexes, temporary B-trees for ORDER BY / GROUP BY / DISTINCT, correlated subqueries
 * run once per row, and which steps use an index. One line each, in plan order.
 */
import type { PlanStep } from './engine/protocol.js';

export interface PlanFinding {
  kind: 'full scan' | 'automatic index' | 'temp b-tree' | 'correlated subquery';
  text: string;
}

/** Findings of one plan; empty when every table is reached through an index. */
export function planFindings(plan: PlanStep[]): PlanFinding[] {
  const out: PlanFinding[] = [];
  for (const { detail } of plan) {
    const scan = /^SCAN (\S+)$/.exec(detail);
    if (scan)
      out.push({
        kind: 'full scan',
        text: `${detail}: reads every row of ${scan[1]} (no index serves this step; index_advice proposes one)`,
      });
    else if (/USING AUTOMATIC (PARTIAL )?COVERING INDEX/.test(detail))
      out.push({
        kind: 'automatic index',
        text: `${detail}: SQLite builds this index for this run only and drops it after; a permanent one saves that work`,
      });
    else if (/^USE TEMP B-TREE FOR /.test(detail))
      out.push({
        kind: 'temp b-tree',
        text: `${detail}: the rows are sorted or grouped in a temporary B-tree (no index gives them in that order)`,
      });
    else if (/^CORRELATED /.test(detail))
      out.push({ kind: 'correlated subquery', text: `${detail}: runs once per outer row` });
  }
  return out;
}
