/**
 * Messages between the server process and the connections ("slots") of its engine processes: one
 * JSON object per line over a pipe per slot. Every value crossing it is JSON-safe: the engine encodes
 * cells itself (values.ts) and converts bound parameters itself (sql/params.ts).
 */
import type { ParamValue } from '../sql/params.js';
import type { Cell } from '../values.js';

/** How an engine process is started (its argv[2], JSON): which file, how, and how many connections. */
export interface EngineConfig {
  dbPath: string;
  /** 'read': opened read-only with query_only; 'write': opened read-write (never created). */
  role: 'read' | 'write';
  /** How long SQLite waits for another connection's lock before "database is locked", in ms. */
  busyTimeoutMs: number;
  /** Connections in this process: slot i talks over file descriptor 3 + i (slot 0 on the main thread). */
  slots: number;
}

/** The budgets of one result page. */
export interface Budget {
  maxRows: number;
  /** Bytes of JSON-encoded rows in one page. */
  maxBytes: number;
  /** Bytes of one TEXT/BLOB value before it is cut. */
  maxCellBytes: number;
}

export type Operation =
  | { op: 'query'; sql: string; params?: Params; offset: number; budget: Budget }
  | { op: 'write'; sql: string; params?: Params; createTableOnly: boolean; budget: Budget }
  | { op: 'explain'; sql: string; params?: Params; budget: Budget }
  | { op: 'advise'; sql: string; params?: Params; budget: Budget }
  | { op: 'health'; full: boolean }
  | { op: 'tables'; after?: string; limit: number }
  | { op: 'names'; prefix: string; limit: number }
  | { op: 'describe'; name: string };

export type Params = ParamValue[] | Record<string, ParamValue>;

export type RequestMessage = { id: number } & Operation;

/** A page of rows. `truncated`: more rows exist after this page. */
export interface RowsResult {
  columns: string[];
  rows: Cell[][];
  /** Per column, the storage classes seen in this page, e.g. "integer" or "text|null". */
  storageClasses: string[];
  truncated: boolean;
  /** Why the page ended early: the row budget or the byte budget. */
  stoppedBy?: 'rows' | 'bytes';
}

export interface WriteResult {
  changes: number;
  /** Rowid of the last row inserted on this connection (as a string beyond ±2^53). */
  lastInsertRowid: number | string;
  /** The schema changed (tables/indexes/views/triggers created, altered or dropped). */
  schemaChanged: boolean;
  /** Rows of a RETURNING clause, if any (first page only). */
  returning?: RowsResult;
}

export interface PlanStep {
  id: number;
  parent: number;
  detail: string;
}

/** A candidate index and what SQLite's planner made of it on a copy of the schema (engine/advice.ts). */
export interface AdviceCandidate {
  table: string;
  columns: string[];
  /** Why it was proposed: the plan step and the clause. */
  reason: string;
  /** CREATE INDEX to give the operator; never run on the database. */
  ddl: string;
  /** Whether the planner used it; null when it could not be evaluated. */
  used: boolean | null;
  /** The plan with the candidate (EXPLAIN QUERY PLAN details). */
  planAfter: string[];
}

/** engine/health.ts's findings. */
export interface HealthReport {
  check: 'quick_check' | 'integrity_check';
  /** What the check reported (empty when it said "ok"), at most 20. */
  problems: string[];
  foreignKeyViolations: number;
  foreignKeyTables: string[];
  pageSize: number;
  pageCount: number;
  freelistCount: number;
  journalMode: string;
  autoVacuum: string;
  /** Largest tables and indexes (dbstat); null when the library lacks the dbstat table. */
  objects: { name: string; pages: number; bytes: number; unused: number }[] | null;
}

export interface TableEntry {
  name: string;
  type: 'table' | 'view';
}

export interface ColumnInfo {
  cid: number;
  name: string;
  type: string;
  notNull: boolean;
  defaultValue: string | null;
  /** 1-based position in the primary key, 0 when not part of it. */
  primaryKey: number;
  /** 0 normal, 1 hidden (virtual tables), 2 generated virtual, 3 generated stored (pragma table_xinfo). */
  hidden: number;
}

export interface IndexInfo {
  name: string;
  unique: boolean;
  /** 'c' CREATE INDEX, 'u' UNIQUE constraint, 'pk' PRIMARY KEY. */
  origin: string;
  partial: boolean;
  /** Indexed columns in order; null for an expression. */
  columns: (string | null)[];
}

export interface ForeignKeyInfo {
  id: number;
  table: string;
  from: string[];
  to: (string | null)[];
  onUpdate: string;
  onDelete: string;
}

export interface TableDescription {
  name: string;
  type: 'table' | 'view';
  sql: string | null;
  columns: ColumnInfo[];
  indexes: IndexInfo[];
  foreignKeys: ForeignKeyInfo[];
}

export type OperationResult =
  | { op: 'query'; page: RowsResult }
  | { op: 'write'; result: WriteResult }
  | { op: 'explain'; plan: PlanStep[]; truncated: boolean }
  | { op: 'advise'; plan: PlanStep[]; truncated: boolean; candidates: AdviceCandidate[]; notes: string[] }
  | { op: 'health'; report: HealthReport }
  | { op: 'tables'; tables: TableEntry[]; more: boolean }
  | { op: 'names'; names: string[] }
  | { op: 'describe'; table: TableDescription | null };

/** Why a request failed, for the server to phrase for the model. */
export type FailureKind =
  /** Refused by the statement policy (sql/policy.ts). */
  | 'policy'
  /** Wrong parameter count or shape. */
  | 'params'
  /** SQLite or better-sqlite3 said no (syntax, constraint, read-only, locked, …). */
  | 'sqlite'
  /** More than one statement / no statement in the text. */
  | 'statements'
  /** The statement only reads (write_query) or is not CREATE TABLE (create_table). */
  | 'wrong-tool'
  | 'internal';

export interface Failure {
  kind: FailureKind;
  message: string;
  /** SQLite's extended result code, e.g. SQLITE_READONLY, SQLITE_BUSY. */
  code?: string;
}

export type ReplyMessage =
  | { type: 'reply'; id: number; ok: true; result: OperationResult }
  | { type: 'reply'; id: number; ok: false; failure: Failure };

export type EngineEvent = { type: 'ready' } | { type: 'open-failed'; failure: Failure } | ReplyMessage;
