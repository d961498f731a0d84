/**
 * Candidate indexes read from a plan (EXPLAIN (FORMAT JSON, VERBOSE)): for each sequential scan
 * of a large table, the columns its Filter compares (equality first, then one range column: a
 * B-tree serves the equality columns and then one range, docs indexes-multicolumn.html); for a
 * join whose one side is a sequential scan of a large table, that table's join columns; for a Sort
 * under a Limit, the sort keys after the scan's equality columns (docs indexes-ordering.html).
 * Pure: the caller gives each relation's columns, size and existing indexes.
 */
import { PLAN_THRESHOLDS, type PlanNode, type PlanRoot, relationKey, walkPlan } from './plan.js';

/**
 * A filter keeping more than this share of a table's rows is no index candidate: reading most of
 * a table through an index costs more random I/O than scanning it (ours; docs indexes-intro.html).
 */
export const MAX_SELECTIVITY = 0.3;

/** A relation of the plan as the catalog describes it. */
export interface RelationInfo {
  schema: string;
  name: string;
  /** pg_class.reltuples (-1: never analysed). */
  /** schema.name as SQL needs it (PostgreSQL's quote_ident of each part). */
  qualified: string;
  rows: number;
  bytes: number;
  /** Column name → the identifier as SQL needs it (quote_ident: quoted when not lower case or a keyword). */
  columns: Map<string, string>;
  /** Valid B-tree indexes: their key columns in order (null for an expression column). */
  indexes: { name: string; columns: (string | null)[]; partial: boolean }[];
}

export interface Candidate {
  schema: string;
  table: string;
  columns: string[];
  /** Why: the plan's condition it serves. */
  reason: string;
  /** The plan node that would change (its exclusive cost is what the index could save). */
  node: PlanNode;
  /** `CREATE INDEX ON schema.table (cols)` — advice to give the DBA, never run here. */
  ddl: string;
}

const IDENT = '(?:"(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)';
const unquote = (id: string) =>
  id.startsWith('"') ? id.slice(1, -1).replaceAll('""', '"') : id.toLowerCase();

/**
 * Columns of `alias` compared in a VERBOSE condition, e.g. "((o.customer_id = 42) AND (o.created_at
 * > '2024-01-01'::date))" → [{customer_id, eq}, {created_at, range}]. String literals are skipped;
 * a column inside a function call (lower(o.email)) is not indexable by a plain index and is skipped.
 */
export function comparedColumns(expr: string, alias: string): { column: string; kind: 'eq' | 'range' }[] {
  const text = expr.replace(/'(?:[^']|'')*'/g, "''");
  const re = new RegExp(`(${IDENT})\\.(${IDENT})`, 'g');
  const out: { column: string; kind: 'eq' | 'range' }[] = [];
  for (const m of text.matchAll(re)) {
    if (unquote(m[1] as string) !== alias && m[1] !== alias) continue;
    const before = text.slice(0, m.index);
    const after = text.slice((m.index ?? 0) + m[0].length);
    // Inside a function call: "name(" right before, or a cast/operator chain — not a bare column.
    if (/[A-Za-z_][A-Za-z0-9_]*\($/.test(before)) continue;
    if (/^::/.test(after)) continue;
    const next = /^\s*(=|<>|!=|<=|>=|<|>|IS\b|~~)/.exec(after)?.[1];
    const prev = /(=|<>|!=|<=|>=|<|>)\s*$/.exec(before)?.[1];
    const op = next ?? prev;
    if (op === undefined || op === '<>' || op === '!=' || op === '~~') continue;
    out.push({ column: unquote(m[2] as string), kind: op === '=' || op === 'IS' ? 'eq' : 'range' });
  }
  return out;
}

/** Equality columns first, then the first range column; each column once. */
function orderColumns(cols: { column: string; kind: 'eq' | 'range' }[]): string[] {
  const eq = [...new Set(cols.filter((c) => c.kind === 'eq').map((c) => c.column))];
  const range = cols.find((c) => c.kind === 'range' && !eq.includes(c.column));
  return range ? [...eq, range.column] : eq;
}

/** The alias a node's columns are qualified with under VERBOSE. */
const aliasOf = (n: PlanNode) => n.Alias ?? n['Relation Name'] ?? '';

/** The sequential scan directly under `n` (through a Hash, Materialize or Memoize node), if any. */
function scanBelow(n: PlanNode): PlanNode | undefined {
  if (n['Node Type'] === 'Seq Scan') return n;
  if (['Hash', 'Materialize', 'Memoize', 'Gather'].includes(n['Node Type'] ?? '') && n.Plans?.length === 1)
    return scanBelow(n.Plans[0] as PlanNode);
  return undefined;
}

/**
 * Candidate indexes for one plan, most promising (largest exclusive cost of the node they serve)
 * first, without those an existing valid index already leads with, and each column set once.
 * `covered` receives "index X already leads with (a, b)" notes for the skipped ones.
 */
export function planCandidates(
  root: PlanRoot,
  relations: Map<string, RelationInfo>,
  covered: string[] = [],
): Candidate[] {
  const found: (Candidate & { weight: number })[] = [];
  const add = (scan: PlanNode, columns: string[], reason: string, weight: number) => {
    const key = relationKey(scan);
    const rel = key ? relations.get(key) : undefined;
    if (!rel) return;
    const cols = columns.filter((c) => rel.columns.has(c));
    if (cols.length === 0 || rel.rows < PLAN_THRESHOLDS.largeTableRows) return;
    const existing = rel.indexes.find((i) => !i.partial && cols.every((c, k) => i.columns[k] === c));
    const label = `${rel.schema}.${rel.name} (${cols.join(', ')})`;
    if (existing) {
      covered.push(
        `${label}: index ${existing.name} already leads with these columns; the planner chose not to use it (check selectivity and statistics)`,
      );
      return;
    }
    if (
      found.some((f) => f.schema === rel.schema && f.table === rel.name && f.columns.join() === cols.join())
    )
      return;
    found.push({
      schema: rel.schema,
      table: rel.name,
      columns: cols,
      reason,
      node: scan,
      weight,
      ddl: `CREATE INDEX ON ${rel.qualified} (${cols.map((c) => rel.columns.get(c)).join(', ')})`,
    });
  };
  for (const w of walkPlan(root.Plan)) {
    const n = w.node;
    const type = n['Node Type'] ?? '';
    if (type === 'Seq Scan' && n.Filter) {
      const cols = orderColumns(comparedColumns(n.Filter, aliasOf(n)));
      const key = relationKey(n);
      const rel = key ? relations.get(key) : undefined;
      const kept = rel && rel.rows > 0 ? Number(n['Plan Rows'] ?? 0) / rel.rows : 0;
      if (cols.length && rel && rel.rows >= PLAN_THRESHOLDS.largeTableRows && kept > MAX_SELECTIVITY)
        covered.push(
          `${rel.schema}.${rel.name} (${cols.join(', ')}): the filter keeps ~${Math.round(kept * 100)}% of the rows; a scan of the whole table is cheaper than an index there (candidates need ≤${MAX_SELECTIVITY * 100}%)`,
        );
      else add(n, cols, `Filter ${n.Filter}`, w.selfCost);
    }
    if (['Hash Join', 'Merge Join', 'Nested Loop'].includes(type)) {
      const cond = n['Hash Cond'] ?? n['Merge Cond'] ?? n['Join Filter'];
      if (!cond) continue;
      for (const child of n.Plans ?? []) {
        const scan = scanBelow(child);
        if (!scan) continue;
        const joinCols = orderColumns(comparedColumns(cond, aliasOf(scan)));
        const filterCols = scan.Filter ? orderColumns(comparedColumns(scan.Filter, aliasOf(scan))) : [];
        add(
          scan,
          [...new Set([...joinCols, ...filterCols])],
          `join ${cond}`,
          w.selfCost + Number(scan['Total Cost'] ?? 0),
        );
      }
    }
    if (type === 'Sort' && n['Sort Key'] && w.parent?.node['Node Type'] === 'Limit') {
      const scan = n.Plans?.[0] ? scanBelow(n.Plans[0]) : undefined;
      if (!scan) continue;
      const alias = aliasOf(scan);
      const keys: string[] = [];
      for (const key of n['Sort Key']) {
        const m = new RegExp(
          `^(${IDENT})\\.(${IDENT})(?:\\s+(?:DESC|ASC))?(?:\\s+NULLS\\s+(?:FIRST|LAST))?$`,
        ).exec(key.trim());
        if (!m || unquote(m[1] as string) !== alias) {
          keys.length = 0;
          break;
        }
        keys.push(unquote(m[2] as string));
      }
      if (!keys.length) continue;
      const eq = scan.Filter
        ? comparedColumns(scan.Filter, alias)
            .filter((c) => c.kind === 'eq')
            .map((c) => c.column)
        : [];
      add(
        scan,
        [...new Set([...eq, ...keys])],
        `ORDER BY ${n['Sort Key'].join(', ')} under LIMIT`,
        w.selfCost + Number(scan['Total Cost'] ?? 0),
      );
    }
  }
  return found.sort((a, b) => b.weight - a.weight).map(({ weight: _w, ...c }) => c);
}
