/**
 * Reading a statement's rows incrementally into one bounded page (never the whole result):
 *
 * - A first page runs the statement through a protocol portal (portal.ts): Parse/Bind/Execute with
 *   a row limit, in steps sized by the row and byte budget — a small result takes one round trip.
 *   When rows remain, a query (SELECT, WITH, VALUES, TABLE) is counted on the server: the same SQL
 *   as `DECLARE … NO SCROLL CURSOR` in the same REPEATABLE READ snapshot, then `MOVE FORWARD ALL`,
 *   which counts without sending rows (docs sql-declare.html, sql-move.html); other statements
 *   (SHOW, EXPLAIN, RETURNING) are counted by reading and dropping rows. Counting has its own small
 *   time budget; past it the page says "at least N more".
 * - A continuation (a cursor from an earlier page) holds the number of rows already shown: the
 *   statement runs again in a new transaction and skips them — with MOVE on the server for
 *   queries (`DECLARE` + `MOVE FORWARD n` + `FETCH`), by reading otherwise. Each page is a new
 *   snapshot, so concurrent changes can shift rows between pages: ORDER BY a unique key for stable
 *   pages (README, "Paging").
 */
import type pg from 'pg';
import { type Field, PORTAL_NAME, PortalStep, type StepResult } from './portal.js';
import { builtinTypeName } from './types.js';

export const CURSOR_NAME = 'refmcp_page';
/** Rows in the first chunk read; later chunks are sized from the average row. */
const FIRST_CHUNK = 200;
/** Time budget of counting the rows after a page, in ms. */
export const COUNT_BUDGET_MS = 2000;

export interface Column {
  name: string;
  /** PostgreSQL type as format_type prints it, e.g. "bigint", "numeric(10,2)", "text[]". */
  type: string;
}

export interface Budget {
  maxRows: number;
  /** Most bytes of row data, measured as the JSON of each row. */
  maxBytes: number;
}

export interface Page {
  columns: Column[];
  rows: unknown[][];
  /** Rows after this page; `exact: false` when counting stopped early (then a lower bound). */
  more?: { rows: number; exact: boolean };
  /** Command tag word ("SELECT", "INSERT", …) when the statement completed within this call. */
  command?: string;
  /** Rows the command affected or returned (PostgreSQL's command tag count), when known. */
  rowCount?: number;
  /** Cells cut because one row alone was over the byte budget. */
  cellsCut: number;
}

/** Accumulates rows within the budget; counts rows it had to leave out. */
class PageBuilder {
  rows: unknown[][] = [];
  bytes = 0;
  left = 0;
  cellsCut = 0;
  constructor(private readonly budget: Budget) {}

  get full(): boolean {
    return this.left > 0;
  }

  add(row: unknown[]): void {
    if (this.full || this.rows.length >= this.budget.maxRows) {
      this.left++;
      return;
    }
    let cost = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (cost > this.budget.maxBytes - this.bytes) {
      if (this.rows.length > 0) {
        this.left++;
        return;
      }
      row = this.cut(row);
      cost = Buffer.byteLength(JSON.stringify(row)) + 1;
    }
    this.rows.push(row);
    this.bytes += cost;
  }

  /** A single row over the whole budget: long cells are cut so the page still shows it. */
  private cut(row: unknown[]): unknown[] {
    const each = Math.max(64, Math.floor(this.budget.maxBytes / Math.max(1, row.length) / 2));
    return row.map((value) => {
      const text = typeof value === 'string' ? value : value === null ? null : JSON.stringify(value);
      if (text === null || text.length <= each) return value;
      this.cellsCut++;
      return `${text.slice(0, each)}…[cut: ${text.length - each} more characters]`;
    });
  }

  /** Rows to ask for next: what the budget still admits, judged by the average row so far. */
  nextChunk(): number {
    const room = this.budget.maxRows + 1 - this.rows.length;
    if (this.rows.length === 0) return Math.min(room, FIRST_CHUNK);
    const average = this.bytes / this.rows.length;
    const byBytes = Math.ceil((this.budget.maxBytes - this.bytes) / Math.max(1, average)) + 1;
    return Math.max(1, Math.min(room, byBytes));
  }
}

/** Type names, cached per process (type OIDs are stable within a database). */
const typeNames = new Map<string, string>();

async function describeColumns(client: pg.PoolClient, fields: readonly Field[]): Promise<Column[]> {
  const key = (f: Field) => `${f.dataTypeID}:${f.dataTypeModifier}`;
  const unknown = fields.filter(
    (f) => !typeNames.has(key(f)) && (f.dataTypeModifier !== -1 || !builtinTypeName(f.dataTypeID)),
  );
  if (unknown.length) {
    const { rows } = await client.query<{ name: string }>({
      text: 'SELECT format_type(t.oid, NULLIF(t.mod, -1)) AS name FROM unnest($1::oid[], $2::int[]) WITH ORDINALITY AS t(oid, mod, n) ORDER BY t.n',
      values: [unknown.map((f) => f.dataTypeID), unknown.map((f) => f.dataTypeModifier)],
    });
    for (const [i, f] of unknown.entries()) typeNames.set(key(f), rows[i]?.name ?? `oid ${f.dataTypeID}`);
  }
  return fields.map((f) => ({
    name: f.name,
    type: typeNames.get(key(f)) ?? builtinTypeName(f.dataTypeID) ?? `oid ${f.dataTypeID}`,
  }));
}

/** Options of one read. */
export interface ReadOptions {
  sql: string;
  params: unknown[];
  budget: Budget;
  /** Rows to skip first (a continuation). */
  offset: number;
  /** Count every remaining row (writes: the statement already ran in full) instead of within COUNT_BUDGET_MS. */
  countAll: boolean;
  statementTimeoutMs: number;
}

/** The extended-protocol query config (pg uses the simple protocol when `values` is empty). */
function extended(text: string, values: unknown[]): pg.QueryConfig {
  return { text, values, queryMode: 'extended' } as pg.QueryConfig;
}

/**
 * A query through a server-side cursor. Resolves undefined when PostgreSQL will not DECLARE a
 * cursor for this statement (it is not a plain query) — the transaction is then aborted and the
 * caller retries through {@link readPortal} in a new one. Other errors reject (the statement's).
 */
export async function readDeclared(client: pg.PoolClient, opts: ReadOptions): Promise<Page | undefined> {
  try {
    await client.query(extended(`DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR ${opts.sql}`, opts.params));
  } catch (error) {
    if (notDeclarable(error)) return undefined;
    throw error;
  }
  if (opts.offset > 0) await client.query(`MOVE FORWARD ${opts.offset} IN ${CURSOR_NAME}`);
  const page = new PageBuilder(opts.budget);
  let fields: Field[] = [];
  for (;;) {
    const chunk = page.nextChunk();
    const result = await client.query({
      text: `FETCH FORWARD ${chunk} FROM ${CURSOR_NAME}`,
      rowMode: 'array',
    });
    fields = result.fields as Field[];
    for (const row of result.rows as unknown[][]) page.add(row);
    if (page.full || result.rows.length < chunk) break;
  }
  const columns = await describeColumns(client, fields);
  const out: Page = { columns, rows: page.rows, cellsCut: page.cellsCut, command: 'SELECT' };
  if (!page.full) return { ...out, rowCount: opts.offset + page.rows.length };
  try {
    await client.query(`SET LOCAL statement_timeout = ${Math.min(COUNT_BUDGET_MS, opts.statementTimeoutMs)}`);
    const moved = await client.query(`MOVE FORWARD ALL IN ${CURSOR_NAME}`);
    return { ...out, more: { rows: page.left + (moved.rowCount ?? 0), exact: true } };
  } catch (error) {
    if ((error as { code?: string }).code !== '57014') throw error;
    return { ...out, more: { rows: page.left, exact: false } };
  }
}

/** DECLARE refused the statement itself: not a query (42601 at DECLARE), or DML in WITH (0A000). */
function notDeclarable(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '42601' || (e.code === '0A000' && /DECLARE CURSOR/i.test(e.message ?? ''));
}

/**
 * The rows after a page of a query, counted on the server: the query again as a cursor in the
 * same transaction (same snapshot: reads are REPEATABLE READ), `MOVE FORWARD ALL`, minus the rows
 * already read. Within COUNT_BUDGET_MS; past it (or if PostgreSQL will not make it a cursor) the
 * count is the lower bound `left`.
 */
async function countRest(
  client: pg.PoolClient,
  opts: ReadOptions,
  consumed: number,
  left: number,
): Promise<{ rows: number; exact: boolean }> {
  try {
    await client.query(`SET LOCAL statement_timeout = ${Math.min(COUNT_BUDGET_MS, opts.statementTimeoutMs)}`);
    await client.query(extended(`DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR ${opts.sql}`, opts.params));
    const moved = await client.query(`MOVE FORWARD ALL IN ${CURSOR_NAME}`);
    return { rows: Math.max(left, (moved.rowCount ?? 0) - consumed + left), exact: true };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '57014' || notDeclarable(error)) return { rows: left, exact: false };
    throw error;
  }
}

/**
 * Any single statement through a protocol portal (portal.ts), read in steps within the budget.
 * Rows after the page are counted on the server for queries (`countWith: 'cursor'`), by reading
 * and dropping them within COUNT_BUDGET_MS otherwise (or all of them with `countAll`, for writes,
 * whose statement already ran in full).
 */
export async function readPortal(
  client: pg.PoolClient,
  opts: ReadOptions & { countWith: 'cursor' | 'reading' },
  begin: string[] = [],
): Promise<Page> {
  const page = new PageBuilder(opts.budget);
  let fields: Field[] = [];
  let first: { text: string; values: unknown[] } | undefined = { text: opts.sql, values: opts.params };
  let prelude = begin;
  let last: StepResult | undefined;
  /** Runs one step of at most `rows` rows (the first one opens the transaction when `begin` is given). */
  const step = async (rows: number): Promise<StepResult> => {
    const submitted = client.query(
      new PortalStep(PORTAL_NAME, rows, first, fields, prelude) as never,
    ) as unknown as PortalStep;
    first = undefined;
    prelude = [];
    last = await submitted.done;
    fields = last.fields;
    return last;
  };
  // A continuation: drop the rows earlier pages showed.
  let ended = false;
  for (let skipped = 0; skipped < opts.offset && !ended; ) {
    const r = await step(Math.min(1000, opts.offset - skipped));
    skipped += r.rows.length;
    ended = !r.suspended;
  }
  while (!ended) {
    const r = await step(page.nextChunk());
    for (const row of r.rows) page.add(row as unknown[]);
    ended = !r.suspended;
    if (page.full) break;
  }
  const columns = fields.length ? await describeColumns(client, fields) : [];
  let more: Page['more'];
  if (!ended && opts.countWith === 'cursor') {
    more = await countRest(client, opts, opts.offset + page.rows.length + page.left, page.left);
  } else if (!ended) {
    const deadline = performance.now() + (opts.countAll ? Number.POSITIVE_INFINITY : COUNT_BUDGET_MS);
    let counted = page.left;
    while (!ended && performance.now() < deadline) {
      const r = await step(1000);
      counted += r.rows.length;
      ended = !r.suspended;
    }
    more = { rows: counted, exact: ended };
  } else if (page.left > 0) more = { rows: page.left, exact: true };
  const final = last as StepResult | undefined;
  const command = final?.command;
  // A portal read in several Executes reports only the last one's rows in its command tag
  // (protocol-flow.html, "Extended Query"): with a result set, count what was read instead.
  const returned = opts.offset + page.rows.length + (more?.rows ?? 0);
  const rowCount =
    !ended || more?.exact === false ? undefined : columns.length > 0 ? returned : final?.rowCount;
  return {
    columns,
    rows: page.rows,
    cellsCut: page.cellsCut,
    ...(more ? { more } : {}),
    ...(command ? { command } : {}),
    ...(rowCount === undefined ? {} : { rowCount }),
  };
}
