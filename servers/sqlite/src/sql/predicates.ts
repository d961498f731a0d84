/**
 * What a statement's text says about the columns an index could serve, read with the tokenizer
 * (tokenize.ts), never by running anything: the tables of its FROM/JOIN clauses with their
 * aliases, the columns compared with `=`, `IN`, `IS` (equality) or `<`, `>`, `BETWEEN` (range),
 * and the ORDER BY columns. A heuristic, as SQLite's own .expert is not reachable through
 * better-sqlite3: SQLite's planner then judges every candidate (engine/advice.ts).
 */
import { identifierText, keyword, significantTokens, type Token } from './tokenize.js';

export interface ColumnRef {
  /** The alias or table name written before the column (`o` in `o.customer_id`), if any. */
  qualifier?: string;
  column: string;
  kind: 'eq' | 'range' | 'order';
}

export interface StatementShape {
  /** Alias (or table name) → table name, as written in FROM and JOIN clauses. */
  tables: Map<string, string>;
  refs: ColumnRef[];
}

const EQ = new Set(['=', '==', 'IS', 'IN']);
const RANGE = new Set(['<', '<=', '>', '>=', 'BETWEEN']);
/** Words that end a table reference instead of being its alias. */
const NOT_ALIAS = new Set([
  'WHERE',
  'JOIN',
  'INNER',
  'LEFT',
  'RIGHT',
  'FULL',
  'OUTER',
  'CROSS',
  'NATURAL',
  'ON',
  'USING',
  'GROUP',
  'ORDER',
  'LIMIT',
  'HAVING',
  'WINDOW',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'INDEXED',
  'NOT',
  'RETURNING',
  'SET',
  'VALUES',
  'SELECT',
  'FROM',
  'AS',
]);

const isName = (t: Token | undefined) => t?.type === 'word' || t?.type === 'quoted';

/** An operator token's text, or an operator keyword upper-cased. */
function opOf(tokens: Token[], i: number): string | undefined {
  const t = tokens[i];
  if (!t) return undefined;
  if (t.type === 'operator') return t.text;
  const k = keyword(t);
  if (k === 'NOT' && keyword(tokens[i + 1]) === 'IN') return 'NOT IN';
  return k;
}

/** Reads `sql` (one statement). */
export function statementShape(sql: string): StatementShape {
  const tokens = significantTokens(sql);
  const tables = new Map<string, string>();
  const refs: ColumnRef[] = [];
  // Tables: FROM a [AS] x, b y JOIN c ON …
  for (let i = 0; i < tokens.length; i++) {
    const k = keyword(tokens[i]);
    if (k !== 'FROM' && k !== 'JOIN') continue;
    let j = i + 1;
    for (;;) {
      if (!isName(tokens[j]) || NOT_ALIAS.has(keyword(tokens[j]) ?? '')) break;
      // schema.table: keep the table name.
      if (tokens[j + 1]?.text === '.' && isName(tokens[j + 2])) j += 2;
      const table = identifierText(tokens[j]) as string;
      j++;
      if (keyword(tokens[j]) === 'AS') j++;
      let alias = table;
      if (isName(tokens[j]) && !NOT_ALIAS.has(keyword(tokens[j]) ?? '')) {
        alias = identifierText(tokens[j]) as string;
        j++;
      }
      tables.set(alias, table);
      tables.set(table, table);
      if (tokens[j]?.text !== ',' || k !== 'FROM') break;
      j++;
    }
  }
  // Comparisons: [q.]col OP … and … OP [q.]col
  const columnAt = (i: number): { ref: Omit<ColumnRef, 'kind'>; end: number; start: number } | undefined => {
    if (!isName(tokens[i])) return undefined;
    if (tokens[i + 1]?.text === '.' && isName(tokens[i + 2]))
      return {
        ref: {
          qualifier: identifierText(tokens[i]) as string,
          column: identifierText(tokens[i + 2]) as string,
        },
        start: i,
        end: i + 3,
      };
    if (keyword(tokens[i]) && NOT_ALIAS.has(keyword(tokens[i]) as string)) return undefined;
    return { ref: { column: identifierText(tokens[i]) as string }, start: i, end: i + 1 };
  };
  for (let i = 0; i < tokens.length; i++) {
    const op = opOf(tokens, i);
    if (!op || (!EQ.has(op) && !RANGE.has(op))) continue;
    const kind = EQ.has(op) ? 'eq' : 'range';
    // Left side: the column right before the operator (not a function call's closing parenthesis).
    const leftStart = tokens[i - 2]?.text === '.' ? i - 3 : i - 1;
    const left = columnAt(leftStart);
    if (left && left.end === i && tokens[leftStart - 1]?.text !== '.') refs.push({ ...left.ref, kind });
    // Right side: a column right after (joins: a.x = b.y).
    const right = columnAt(i + 1);
    if (right && tokens[right.end]?.text !== '(') refs.push({ ...right.ref, kind });
  }
  // ORDER BY [q.]col [ASC|DESC] [, …]
  for (let i = 0; i < tokens.length; i++) {
    if (keyword(tokens[i]) !== 'ORDER' || keyword(tokens[i + 1]) !== 'BY') continue;
    let j = i + 2;
    for (;;) {
      const col = columnAt(j);
      if (!col) break;
      refs.push({ ...col.ref, kind: 'order' });
      j = col.end;
      if (['ASC', 'DESC'].includes(keyword(tokens[j]) ?? '')) j++;
      if (keyword(tokens[j]) === 'NULLS') j += 2;
      if (tokens[j]?.text !== ',') break;
      j++;
    }
  }
  return { tables, refs };
}
