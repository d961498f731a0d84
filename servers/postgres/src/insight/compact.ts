/**
 * A statement's text shortened for a model by PostgreSQL's own parser (libpg_query, parser.ts):
 * what says what a statement reads and why it costs (FROM, JOIN, WHERE, GROUP BY, ORDER BY,
 * LIMIT, subqueries, window functions) is kept; what does not is left out and marked `…`:
 * - select-list items that are plain (see {@link plain}: columns, constants, parameters, casts and
 *   operators over them, count/sum/avg/min/max over those), unless GROUP BY or ORDER BY names them
 *   by position or alias, when the list is longer than {@link LIST_BYTES};
 * - IN list items past the first, VALUES rows past the first, when plain;
 * - items with a subquery, a window function or any other function call (pg_sleep, a user-defined
 *   function) always stay: they say where the cost comes from;
 * - comments; runs of whitespace become one space;
 * - quotes around identifiers that need none (lowercase; not a keyword, or an unreserved one, or
 *   after a dot, where PostgreSQL takes any keyword as a name: `"orders"."name"` → orders.name);
 * - in a statement that reads one table and has no other scope, the table's name before its
 *   columns (`orders.status` → status).
 * The last three leave nothing out: the text is not marked shortened for them. Every other
 * elision shows as `…` and marks the text cut.
 * Elisions are made when they save more than the `[queryid …]` they bring costs, or when the text
 * would be cut anyway. Then the text is cut at `maxChars` as a bound. Text that does not parse, or
 * longer than {@link MAX_PARSE_BYTES}, is only flattened and cut.
 * The whole text stays in pg_stat_statements (by queryid).
 */
import type { Parser, ScanToken } from '../parser.js';
import { oneLine } from './listing.js';

/**
 * Statements longer than this (bytes) are only flattened and cut: pg_stat_statements keeps texts of
 * any length, and a page of them is parsed per call (~40–80 µs for a short statement).
 */
const MAX_PARSE_BYTES = 32 * 1024;
/** A select list shorter than this (bytes) is kept whole: eliding it saves nothing. */
const LIST_BYTES = 40;
/** A run of select-list items shorter than this (bytes) is kept: `…` would save nothing. */
const RUN_BYTES = 16;
/** Characters an elision must save: about what the `[queryid …]` it brings costs. */
const ELISION_COST = 32;
/** Keywords that end a select list at parenthesis depth 0. */
const LIST_END = new Set([
  'FROM',
  'INTO',
  'WHERE',
  'GROUP',
  'HAVING',
  'WINDOW',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'FETCH',
  'FOR',
]);
const COMMENTS = new Set(['SQL_COMMENT', 'C_COMMENT']);

type Node = Record<string, unknown>;
interface Edit {
  start: number;
  end: number;
  text: string;
  /** Says the same in fewer bytes (nothing left out). */
  same?: boolean;
}

/** `text` shortened as above; `cut` when anything but quotes and whitespace was left out. */
export function compactStatement(
  parser: Parser,
  text: string,
  maxChars: number,
): { text: string; cut: boolean } {
  // Text the parser refuses, or too long to parse for a listing, is only flattened and cut.
  if (Buffer.byteLength(text, 'utf8') > MAX_PARSE_BYTES) return oneLine(text, maxChars);
  let tokens: ScanToken[];
  let stmts: Node[];
  try {
    tokens = parser.scan(text);
    stmts = parser.parse(text).stmts.map((s) => s.stmt ?? {});
  } catch {
    return oneLine(text, maxChars);
  }
  const same = qualifierEdits(stmts, tokens);
  const lossy = elisions(stmts, tokens);
  const whole = render(parser, text, tokens, ordered([...same]));
  // Eliding pays when the text would be cut anyway, or when it saves more than the queryid that
  // reads the whole text costs.
  const short = lossy.length ? render(parser, text, tokens, ordered([...same, ...lossy])) : whole;
  const chosen =
    whole.text.length > maxChars || short.text.length + ELISION_COST < whole.text.length ? short : whole;
  const shown = oneLine(chosen.text, maxChars);
  return { text: shown.text, cut: chosen.cut || shown.cut };
}

/** The tokens joined by single spaces where the text had space, comments dropped, `edits` applied. */
function render(
  parser: Parser,
  text: string,
  tokens: ScanToken[],
  edits: Edit[],
): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  const slice = (a: number, b: number) => bytes.subarray(a, b).toString('utf8');
  const out: string[] = [];
  let cut = false;
  let prevEnd = -1;
  let edit = 0;
  let shownEdit = -1;
  for (const t of tokens) {
    while (edit < edits.length && (edits[edit] as Edit).end <= t.start) edit++;
    const e = edits[edit];
    if (e && t.start >= e.start) {
      // Inside an elided range: its text once, at its first token (which may start right where
      // the token before it ends: `($1,$2,…`).
      if (shownEdit !== edit) {
        if (prevEnd >= 0 && e.start > prevEnd) out.push(' ');
        out.push(e.text);
        prevEnd = e.end;
        shownEdit = edit;
        cut ||= !e.same;
      }
      continue;
    }
    if (COMMENTS.has(t.tokenName)) {
      cut = true;
      continue;
    }
    if (prevEnd >= 0 && t.start > prevEnd) out.push(' ');
    const raw = slice(t.start, t.end);
    out.push(t.tokenName === 'IDENT' ? unquoted(parser, raw, out[out.length - 1] === '.') : raw);
    prevEnd = t.end;
  }
  return { text: out.join(''), cut };
}

const plainNames = new Map<string, boolean>();

/**
 * `"name"` without its quotes when PostgreSQL reads the bare name the same: not a keyword or an
 * unreserved one (keywordKind 0 or 1, gram.y ColId), or any keyword after a dot (attr_name).
 */
function unquoted(parser: Parser, ident: string, afterDot: boolean): string {
  if (!ident.startsWith('"')) return ident;
  const inner = ident.slice(1, -1);
  if (!/^[a-z_][a-z0-9_]*$/.test(inner)) return ident;
  if (afterDot) return inner;
  let plain = plainNames.get(inner);
  if (plain === undefined) {
    const scanned = parser.scan(inner);
    plain = scanned.length === 1 && (scanned[0]?.keywordKind ?? 9) <= 1;
    if (plainNames.size < 10_000) plainNames.set(inner, plain);
  }
  return plain ? inner : ident;
}

/** The byte ranges to replace with `…`, sorted, none overlapping. */
function elisions(stmts: Node[], tokens: ScanToken[]): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) visit(n);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const obj = node as Node;
    if (obj.SelectStmt) {
      selectEdits(obj.SelectStmt as Node, tokens, edits);
      valuesEdit(obj.SelectStmt as Node, tokens, edits);
    }
    if (obj.A_Expr) inListEdit(obj.A_Expr as Node, tokens, edits);
    for (const v of Object.values(obj)) visit(v);
  };
  visit(stmts);
  return edits;
}

/** `edits` sorted; an edit inside an earlier or longer one is dropped (that one covers it). */
function ordered(edits: Edit[]): Edit[] {
  edits.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Edit[] = [];
  for (const e of edits) {
    const last = kept[kept.length - 1];
    if (!last || e.start >= last.end) kept.push(e);
  }
  return kept;
}

function location(node: unknown): number | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const inner = Object.values(node as Node)[0] as Node | undefined;
  const loc = inner?.location;
  return typeof loc === 'number' && loc >= 0 ? loc : undefined;
}

/** Aggregates that, over plain operands, say nothing of where a statement's cost comes from. */
const PLAIN_AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max']);

/**
 * Whether `node`'s subtree may be left out: column references, constants, parameters and casts
 * and operators over them, and count/sum/avg/min/max (unqualified or pg_catalog's, not windowed)
 * over those. A subquery or any other function call (pg_sleep, a user-defined function) may be
 * where the cost comes from: not plain.
 */
function plain(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(plain);
  if (!node || typeof node !== 'object') return true;
  const obj = node as Node;
  if (obj.SubLink) return false;
  const call = obj.FuncCall as Node | undefined;
  if (call) {
    const names = ((call.funcname as Node[] | undefined) ?? []).map(
      (n) => (n.String as Node | undefined)?.sval,
    );
    const name = names[names.length - 1];
    const schema = names.length === 2 ? names[0] : names.length === 1 ? 'pg_catalog' : undefined;
    if (call.over || schema !== 'pg_catalog' || typeof name !== 'string' || !PLAIN_AGGREGATES.has(name))
      return false;
  }
  return Object.values(obj).every(plain);
}

/**
 * Runs of plain items past the first, each replaced with one `…` (`spans`: each item's bytes, in
 * order; a run of one short item is kept: `…` would save nothing).
 */
function runEdits(spans: Span[], elidable: boolean[], edits: Edit[]): void {
  let i = 1;
  while (i < spans.length) {
    if (!elidable[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < spans.length && elidable[j + 1]) j++;
    const start = (spans[i] as Span).start;
    const end = (spans[j] as Span).end;
    if (j > i || end - start >= RUN_BYTES) edits.push({ start, end, text: '…' });
    i = j + 1;
  }
}

interface Span {
  start: number;
  end: number;
}

/**
 * The items of the parenthesised list whose `)` is at byte `close` (split at its top-level commas),
 * or undefined when there is no such list.
 */
function listItems(tokens: ScanToken[], close: number): Span[] | undefined {
  const last = tokens.findIndex((t) => t.start === close && t.text === ')');
  if (last < 0) return undefined;
  let depth = 0;
  let open = -1;
  for (let k = last - 1; k >= 0; k--) {
    const text = (tokens[k] as ScanToken).text;
    if (text === ')' || text === ']') depth++;
    else if (text === '(' || text === '[') {
      if (depth === 0) {
        open = k;
        break;
      }
      depth--;
    }
  }
  if (open < 0) return undefined;
  return split(tokens.slice(open + 1, last));
}

/** `tokens` split at their top-level commas, comments left out; undefined if a part is empty. */
function split(tokens: ScanToken[]): Span[] | undefined {
  const spans: Span[] = [];
  let depth = 0;
  let current: Span | undefined;
  for (const t of tokens) {
    if (COMMENTS.has(t.tokenName)) continue;
    if (depth === 0 && t.text === ',') {
      if (!current) return undefined;
      spans.push(current);
      current = undefined;
      continue;
    }
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') depth--;
    current = current ? { start: current.start, end: t.end } : { start: t.start, end: t.end };
  }
  if (!current) return undefined;
  spans.push(current);
  return spans;
}

/** Positions (1-based) and single names that GROUP BY, ORDER BY or HAVING refer to. */
function references(select: Node): { positions: Set<number>; names: Set<string> } {
  const positions = new Set<number>();
  const names = new Set<string>();
  const items = [
    ...((select.groupClause as unknown[]) ?? []),
    ...((select.sortClause as Node[]) ?? []).map((s) => (s.SortBy as Node | undefined)?.node),
  ];
  for (const item of items) {
    const ival = ((item as Node | undefined)?.A_Const as Node | undefined)?.ival as Node | undefined;
    if (ival) positions.add(Number(ival.ival ?? 0));
  }
  const collect = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const ref = (node as Node).ColumnRef as Node | undefined;
    const fields = ref?.fields as Node[] | undefined;
    if (fields?.length === 1) {
      const s = (fields[0]?.String as Node | undefined)?.sval;
      if (typeof s === 'string') names.add(s);
    }
    for (const v of Object.values(node as Node)) collect(v);
  };
  collect([items, select.havingClause]);
  return { positions, names };
}

/** Runs of plain select-list items, replaced with `…`. */
function selectEdits(select: Node, tokens: ScanToken[], edits: Edit[]): void {
  const list = (select.targetList as Node[] | undefined) ?? [];
  if (list.length < 2) return;
  const starts = list.map((t) => (t.ResTarget as Node | undefined)?.location);
  if (starts.some((s) => typeof s !== 'number' || s < 0)) return;
  const at = starts as number[];
  const end = listEnd(tokens, at[at.length - 1] as number);
  if (end === undefined || end - (at[0] as number) < LIST_BYTES) return;
  const { positions, names } = references(select);
  const keep = list.map((t, i) => {
    const target = t.ResTarget as Node;
    return (
      positions.has(i + 1) ||
      (typeof target.name === 'string' && names.has(target.name)) ||
      !plain(target.val)
    );
  });
  let i = 0;
  while (i < list.length) {
    if (keep[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < list.length && !keep[j + 1]) j++;
    const start = at[i] as number;
    const last = j === list.length - 1;
    const stop = last ? end : (at[j + 1] as number);
    if (stop - start >= RUN_BYTES) edits.push({ start, end: stop, text: last ? '…' : '…, ' });
    i = j + 1;
  }
}

/** Where the select list whose last item starts at `from` ends (byte after its last token). */
function listEnd(tokens: ScanToken[], from: number): number | undefined {
  let depth = 0;
  let end: number | undefined;
  for (const t of tokens) {
    if (t.start < from || COMMENTS.has(t.tokenName)) continue;
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') {
      if (depth === 0) return end;
      depth--;
    } else if (depth === 0 && (t.text === ';' || (t.keywordKind !== 0 && LIST_END.has(t.text.toUpperCase()))))
      return end;
    end = t.end;
  }
  return end;
}

/** `x IN (a, b, c, …)` shown as `x IN (a, …)`; items that are not {@link plain} stay. */
function inListEdit(expr: Node, tokens: ScanToken[], edits: Edit[]): void {
  if (expr.kind !== 'AEXPR_IN') return;
  const items = ((expr.rexpr as Node | undefined)?.List as Node | undefined)?.items as unknown[] | undefined;
  const close = expr.rexpr_list_end;
  if (!items || items.length < 3 || typeof close !== 'number') return;
  const spans = listItems(tokens, close);
  if (spans?.length !== items.length) return;
  runEdits(spans, items.map(plain), edits);
}

/** `VALUES (a, b), (c, d), …` shown as `VALUES (a, b), …`; rows that are not {@link plain} stay. */
function valuesEdit(select: Node, tokens: ScanToken[], edits: Edit[]): void {
  const rows = ((select.valuesLists as Node[] | undefined) ?? []).map(
    (row) => ((row.List as Node | undefined)?.items as unknown[] | undefined) ?? [],
  );
  const firstItem = location(rows[0]?.[0]);
  if (rows.length < 2 || firstItem === undefined) return;
  // The rows run from the VALUES keyword before the first row's first item to the list's end.
  const keyword = tokens.findLastIndex((t) => t.end <= firstItem && t.text.toUpperCase() === 'VALUES');
  if (keyword < 0) return;
  let depth = 0;
  let end = tokens.length;
  for (let k = keyword + 1; k < tokens.length; k++) {
    const t = tokens[k] as ScanToken;
    if (COMMENTS.has(t.tokenName)) continue;
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') depth--;
    else if (depth === 0 && t.text !== ',') {
      end = k;
      break;
    }
    if (depth < 0) {
      end = k;
      break;
    }
  }
  const spans = split(tokens.slice(keyword + 1, end));
  if (spans?.length !== rows.length) return;
  runEdits(spans, rows.map(plain), edits);
}

/**
 * In a statement that reads one table and has no other scope (no join, subquery, CTE or set
 * operation), `orders.status` says no more than `status`: the qualifiers are dropped.
 */
function qualifierEdits(stmts: Node[], tokens: ScanToken[]): Edit[] {
  const select = stmts.length === 1 ? (stmts[0]?.SelectStmt as Node | undefined) : undefined;
  const from = select?.fromClause as Node[] | undefined;
  const table = from?.length === 1 ? (from[0]?.RangeVar as Node | undefined) : undefined;
  if (!select || !table || JSON.stringify(stmts).split('"SelectStmt"').length !== 2) return [];
  const name = ((table.alias as Node | undefined)?.aliasname ?? table.relname) as string;
  const edits: Edit[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const ref = (node as Node).ColumnRef as Node | undefined;
    const fields = ref?.fields as Node[] | undefined;
    if (ref && fields?.length === 2 && (fields[0]?.String as Node | undefined)?.sval === name) {
      const at = tokens.findIndex((t) => t.start === ref.location);
      const dot = tokens[at + 1];
      const next = tokens[at + 2];
      // A keyword after the dot (`orders.user`) is a name only there: kept qualified.
      const bare = next && (next.tokenName === 'IDENT' || next.keywordKind === 1 || next.text === '*');
      if (at >= 0 && dot?.text === '.' && bare && dot.start === tokens[at]?.end && next.start === dot.end)
        edits.push({ start: tokens[at]?.start as number, end: next.start, text: '', same: true });
    }
    for (const v of Object.values(node as Node)) visit(v);
  };
  visit(select);
  return edits;
}
