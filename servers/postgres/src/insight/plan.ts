/**
 * A PostgreSQL plan (EXPLAIN (FORMAT JSON, VERBOSE [, ANALYZE, BUFFERS])) read for a model: the
 * nodes that cost most, row estimates that are far off, sequential scans of large tables, and
 * sorts and hashes that spilled to disk — each with its numbers — and a compact plan tree.
 * Pure: no database access (the table sizes come in from the caller).
 *
 * Field names are EXPLAIN's JSON keys (docs using-explain.html, sql-explain.html).
 */

/** One plan node as EXPLAIN's JSON gives it (only the keys read here). */
export interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  Schema?: string;
  Alias?: string;
  'Index Name'?: string;
  'Startup Cost'?: number;
  'Total Cost'?: number;
  'Plan Rows'?: number;
  'Actual Total Time'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Filter?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  'Hash Cond'?: string;
  'Merge Cond'?: string;
  'Join Filter'?: string;
  'Rows Removed by Filter'?: number;
  'Sort Key'?: string[];
  'Sort Method'?: string;
  'Sort Space Used'?: number;
  'Sort Space Type'?: string;
  'Hash Batches'?: number;
  'Original Hash Batches'?: number;
  'Peak Memory Usage'?: number;
  'Disk Usage'?: number;
  'HashAgg Batches'?: number;
  'Temp Written Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

/** EXPLAIN's top-level JSON object. */
export interface PlanRoot {
  Plan: PlanNode;
  'Planning Time'?: number;
  'Execution Time'?: number;
}

/**
 * EXPLAIN (FORMAT JSON)'s value as the driver decoded it: parsed JSON, or its text when a number in
 * it would lose digits (types.ts) — VERBOSE prints the 64-bit "Query Identifier" once
 * compute_query_id is on (as pg_stat_statements turns it). Undefined when it holds no plan.
 */
export function planRoot(value: unknown): PlanRoot | undefined {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  const root = Array.isArray(parsed) ? (parsed[0] as PlanRoot | undefined) : undefined;
  return root?.Plan ? root : undefined;
}

/** A relation of the plan, as the catalog sizes it. */
export interface RelationSize {
  /** pg_class.reltuples (-1: never analysed). */
  rows: number;
  /** pg_relation_size, bytes. */
  bytes: number;
}

/** Plan findings thresholds (ours; stated with each finding so a model can weigh them). */
export const PLAN_THRESHOLDS = {
  /** A table this large (estimated rows) makes a sequential scan worth a look. */
  largeTableRows: 10_000,
  /** Actual rows this many times off the estimate (either way) is a misestimate. */
  misestimateFactor: 10,
  /** Costly nodes listed. */
  costlyNodes: 3,
  /** Nodes rendered in the tree. */
  treeNodes: 40,
} as const;

export interface Finding {
  kind: 'costly node' | 'row estimate' | 'seq scan' | 'disk spill';
  /** One line with the numbers. */
  text: string;
}

/** A node with its place in the tree and exclusive (self) cost and time. */
export interface WalkedNode {
  node: PlanNode;
  depth: number;
  parent?: WalkedNode;
  /** Total cost minus the children's total cost (planner units). */
  selfCost: number;
  /** Actual time spent in this node alone, all loops, ms (ANALYZE only). */
  selfTimeMs?: number;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Every node, depth first, with exclusive cost and (ANALYZE) exclusive time. */
export function walkPlan(root: PlanNode): WalkedNode[] {
  const out: WalkedNode[] = [];
  const visit = (node: PlanNode, depth: number, parent?: WalkedNode) => {
    const children = node.Plans ?? [];
    const selfCost = Math.max(
      0,
      num(node['Total Cost']) - children.reduce((s, c) => s + num(c['Total Cost']), 0),
    );
    const walked: WalkedNode = { node, depth, selfCost, ...(parent ? { parent } : {}) };
    if (node['Actual Total Time'] !== undefined) {
      const total = num(node['Actual Total Time']) * Math.max(1, num(node['Actual Loops']));
      const childTime = children.reduce(
        (s, c) => s + num(c['Actual Total Time']) * Math.max(1, num(c['Actual Loops'])),
        0,
      );
      walked.selfTimeMs = Math.max(0, total - childTime);
    }
    out.push(walked);
    for (const child of children) visit(child, depth + 1, walked);
  };
  visit(root, 0);
  return out;
}

/** "Seq Scan on public.orders o" and the like. */
export function nodeLabel(node: PlanNode): string {
  const type = node['Node Type'] ?? '?';
  const rel = node['Relation Name'];
  const target = rel
    ? ` on ${node.Schema ? `${node.Schema}.` : ''}${rel}${node.Alias && node.Alias !== rel ? ` ${node.Alias}` : ''}`
    : '';
  const index = node['Index Name'] ? ` using ${node['Index Name']}` : '';
  return `${type}${index}${target}`;
}

const round = (n: number) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);
const pct = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '?%');

/** The qualified name a relation of the plan is looked up by ("schema.table"). */
export function relationKey(node: PlanNode): string | undefined {
  const rel = node['Relation Name'];
  return rel ? `${node.Schema ?? 'public'}.${rel}` : undefined;
}

/**
 * Findings of one plan. `sizes` maps relationKey → catalog size (for "large table"); `analyzed`
 * says whether actual numbers are present.
 */
export function planFindings(root: PlanRoot, sizes: Map<string, RelationSize>): Finding[] {
  const nodes = walkPlan(root.Plan);
  const analyzed = root.Plan['Actual Total Time'] !== undefined;
  const findings: Finding[] = [];
  const totalCost = num(root.Plan['Total Cost']);
  const totalTime = analyzed ? (root['Execution Time'] ?? num(root.Plan['Actual Total Time'])) : undefined;

  const ranked = [...nodes].sort((a, b) =>
    analyzed ? num(b.selfTimeMs) - num(a.selfTimeMs) : b.selfCost - a.selfCost,
  );
  for (const w of ranked.slice(0, PLAN_THRESHOLDS.costlyNodes)) {
    const share = analyzed
      ? `${round(num(w.selfTimeMs))} ms of ${round(num(totalTime))} ms (${pct(num(w.selfTimeMs), num(totalTime))})`
      : `cost ${round(w.selfCost)} of ${round(totalCost)} (${pct(w.selfCost, totalCost)})`;
    if ((analyzed ? num(w.selfTimeMs) : w.selfCost) <= 0) continue;
    findings.push({ kind: 'costly node', text: `${nodeLabel(w.node)}: ${share} spent in this node itself` });
  }

  for (const w of nodes) {
    const n = w.node;
    const type = n['Node Type'];
    if (analyzed && n['Actual Rows'] !== undefined && n['Actual Loops']) {
      const est = Math.max(1, num(n['Plan Rows']));
      const actual = Math.max(1, num(n['Actual Rows']));
      const factor = actual > est ? actual / est : est / actual;
      if (factor >= PLAN_THRESHOLDS.misestimateFactor)
        findings.push({
          kind: 'row estimate',
          text: `${nodeLabel(n)}: estimated ${round(num(n['Plan Rows']))} rows, got ${round(num(n['Actual Rows']))} per loop (${round(factor)}× ${actual > est ? 'under' : 'over'}; ≥${PLAN_THRESHOLDS.misestimateFactor}× flagged) — stale statistics (pg_stat_user_tables.last_analyze) or correlated columns (CREATE STATISTICS)`,
        });
    }
    if (type === 'Seq Scan') {
      const key = relationKey(n);
      const size = key ? sizes.get(key) : undefined;
      const tableRows = size && size.rows >= 0 ? size.rows : undefined;
      const readRows = analyzed ? num(n['Actual Rows']) + num(n['Rows Removed by Filter']) : tableRows;
      if ((tableRows ?? readRows ?? 0) >= PLAN_THRESHOLDS.largeTableRows) {
        const kept = analyzed ? num(n['Actual Rows']) : num(n['Plan Rows']);
        const loops = Math.max(1, num(n['Actual Loops']));
        findings.push({
          kind: 'seq scan',
          text:
            `${nodeLabel(n)}: reads all ~${round(tableRows ?? num(readRows))} rows${size ? ` (${formatBytes(size.bytes)})` : ''}` +
            `${loops > 1 ? ` ${loops} times` : ''} to keep ${round(kept)}` +
            (n.Filter ? ` (${pct(kept, tableRows ?? num(readRows))}) by Filter ${n.Filter}` : '') +
            ` [large: ≥${PLAN_THRESHOLDS.largeTableRows} rows]`,
        });
      }
    }
    if (n['Sort Space Type'] === 'Disk')
      findings.push({
        kind: 'disk spill',
        text: `${nodeLabel(n)}: ${n['Sort Method'] ?? 'sort'} used ${n['Sort Space Used'] ?? '?'} kB on disk (work_mem too small for it)${n['Sort Key'] ? `, key ${n['Sort Key'].join(', ')}` : ''}`,
      });
    if (num(n['Hash Batches']) > 1)
      findings.push({
        kind: 'disk spill',
        text: `${nodeLabel(n)}: ${n['Hash Batches']} batches (planned ${n['Original Hash Batches'] ?? '?'}), peak memory ${n['Peak Memory Usage'] ?? '?'} kB: the hash table spilled to disk (work_mem × hash_mem_multiplier too small)`,
      });
    if (num(n['HashAgg Batches']) > 1 || num(n['Disk Usage']) > 0)
      findings.push({
        kind: 'disk spill',
        text: `${nodeLabel(n)}: ${n['HashAgg Batches'] ?? '?'} batches, ${n['Disk Usage'] ?? 0} kB on disk (work_mem × hash_mem_multiplier too small)`,
      });
  }
  return findings;
}

/** The plan as a compact indented tree, one line a node, at most PLAN_THRESHOLDS.treeNodes lines. */
export function planTree(root: PlanRoot): string {
  const nodes = walkPlan(root.Plan);
  const lines = nodes.slice(0, PLAN_THRESHOLDS.treeNodes).map((w) => {
    const n = w.node;
    const parts = [
      `cost ${round(num(n['Startup Cost']))}..${round(num(n['Total Cost']))} rows ${round(num(n['Plan Rows']))}`,
    ];
    if (n['Actual Total Time'] !== undefined)
      parts.push(
        `actual ${round(num(n['Actual Total Time']))} ms rows ${round(num(n['Actual Rows']))}${num(n['Actual Loops']) > 1 ? ` ×${n['Actual Loops']} loops` : ''}`,
      );
    for (const key of ['Index Cond', 'Hash Cond', 'Merge Cond', 'Join Filter', 'Filter'] as const)
      if (n[key]) parts.push(`${key}: ${n[key]}`);
    if (n['Rows Removed by Filter']) parts.push(`removed ${n['Rows Removed by Filter']}`);
    if (n['Sort Key']) parts.push(`key ${n['Sort Key'].join(', ')}`);
    if (n['Sort Method'])
      parts.push(
        `${n['Sort Method']} ${n['Sort Space Used'] ?? '?'} kB ${n['Sort Space Type'] ?? ''}`.trim(),
      );
    if (n['Shared Read Blocks']) parts.push(`read ${n['Shared Read Blocks']} blocks`);
    if (n['Temp Written Blocks']) parts.push(`temp written ${n['Temp Written Blocks']} blocks`);
    return `${'  '.repeat(w.depth)}${nodeLabel(n)} (${parts.join('; ')})`;
  });
  if (nodes.length > PLAN_THRESHOLDS.treeNodes)
    lines.push(`… ${nodes.length - PLAN_THRESHOLDS.treeNodes} more nodes not shown`);
  return lines.join('\n');
}

/** 1536 → "1.5 kB", binary units as pg_size_pretty prints them. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : Math.round(v * 10) / 10} ${units[i]}`;
}
