/**
 * PostgreSQL and connection errors → messages for the model: what failed, by SQLSTATE (PostgreSQL
 * docs, Appendix A "Error Codes"), and what to do next. Connection errors name host, port,
 * database, user and SSL mode — never the password (it is not in any of them, and the bootstrap
 * scrubs it from every output besides).
 */
import { TimeoutError, ToolError } from '@refmcp/shared/server';
import { describeTarget, type Target } from './target.js';

/** The fields of pg's DatabaseError (pg-protocol) we use. */
interface PgError {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
  position?: string;
  severity?: string;
}

/** Connection-level failure codes: Node socket errors and SQLSTATE classes 08 (connection), 28 (auth), 3D (no database), 57P (shutdown). */
const NODE_CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
]);

/** Was this error raised while opening a connection or by losing one? */
export function isConnectionError(error: unknown): boolean {
  const e = error as PgError & { code?: string };
  if (!e || typeof e !== 'object') return false;
  // 08P01 (protocol violation, e.g. a parameter count mismatch) leaves the connection usable.
  if (e.code === '08P01') return false;
  if (e.code && (NODE_CONNECT_CODES.has(e.code) || /^(08|28|3D|57P)/.test(e.code))) return true;
  return /Connection terminated|connection timeout|timeout expired|The server does not support SSL|self[- ]signed|certificate/i.test(
    e.message ?? '',
  );
}

/** The message for a failure to connect (pool checkout). */
export function connectError(error: unknown, target: Target): ToolError {
  const e = error as PgError;
  const reason = (e?.message ?? String(error)).replace(/\s+/g, ' ').trim() || 'unknown error';
  const code = e?.code ? ` [${e.code}]` : '';
  let advice = 'check that the server is running and reachable, and the connection settings';
  if (e?.code === '28P01' || e?.code === '28000') advice = 'check the user name and password';
  else if (e?.code === '3D000') advice = 'check the database name';
  else if (/SSL|certificate/i.test(reason)) advice = 'check the sslmode setting (e.g. ?sslmode=require)';
  return new ToolError(
    `could not connect to PostgreSQL at ${describeTarget(target)}: ${reason}${code}; ${advice}`,
  );
}

/** The message for a connection lost during a call. */
export function lostError(error: unknown, target: Target): ToolError {
  const reason = ((error as PgError)?.message ?? String(error)).replace(/\s+/g, ' ').trim();
  return new ToolError(
    `the connection to PostgreSQL at ${describeTarget(target)} was lost during this call (${reason}); ` +
      'it has been discarded and the next call opens a new one — retry the call',
  );
}

export interface StatementContext {
  /** The SQL the model sent (for positions in syntax errors). */
  sql: string;
  /** Characters our code put before the model's SQL in the statement sent (DECLARE …, EXPLAIN …). */
  prefixLength: number;
  statementTimeoutMs: number;
  /** The session's lock_timeout (--lock-timeout), in ms. */
  lockTimeoutMs: number;
  /** Writes are available through the execute tool. */
  writes: boolean;
  /** The tool that ran the statement. */
  tool: string;
}

/** A snippet of `sql` around 1-based character `position`. */
function around(sql: string, position: number): string {
  const at = Math.max(0, position - 1);
  const start = Math.max(0, at - 30);
  const line = sql.slice(start, at + 30).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${line}${at + 30 < sql.length ? '…' : ''}`;
}

/** A statement's error (any error from the database while running the model's SQL). */
export function statementError(error: unknown, ctx: StatementContext): ToolError {
  const e = error as PgError;
  if (!e?.code) return new ToolError(`the statement failed: ${e?.message ?? String(error)}`);
  const parts = [`${e.message} [SQLSTATE ${e.code}]`];
  if (e.position) {
    const pos = Number(e.position) - ctx.prefixLength;
    if (pos > 0) parts.push(`at character ${pos}: ${around(ctx.sql, pos)}`);
  }
  if (e.detail) parts.push(`detail: ${e.detail}`);
  if (e.hint) parts.push(`hint: ${e.hint}`);
  const text = parts.join('; ');
  switch (e.code) {
    case '25006':
      return new ToolError(
        `${text}. The database refused the write: ${ctx.tool} runs every statement in a READ ONLY transaction. ` +
          (ctx.writes
            ? 'Use the execute tool for writes.'
            : 'This server is read-only; writes need the server started with --allow-writes (the execute tool).'),
      );
    case '57014':
      if (/statement timeout/i.test(e.message)) return timeoutError(ctx.statementTimeoutMs, e.message);
      return new ToolError(`${text}. The statement was cancelled.`);
    case '55P03':
      return new ToolError(
        `${text}. Another session holds a conflicting lock on a table or row this statement needs, and ` +
          `this server waits at most ${ctx.lockTimeoutMs} ms for a lock (--lock-timeout). Retry later, or ` +
          'ask the database administrator what holds the lock (pg_locks, pg_stat_activity).',
      );
    case '42601':
      if (/multiple commands/i.test(e.message))
        return new ToolError(
          `${text}. One statement per call: the statement is sent with the extended protocol, which carries exactly one; send each statement in its own call.`,
        );
      return new ToolError(`${text}.`);
    case '42P01':
      return new ToolError(`${text}. Use list_tables to see the tables (and their schemas).`);
    case '42703':
      return new ToolError(`${text}. Use describe_table to see the columns.`);
    case '42P02':
      return new ToolError(`${text}. Pass one value in params for each $n placeholder.`);
    case '08P01':
      if (/bind message supplies/i.test(e.message))
        return new ToolError(`${text}. Pass one value in params for each $n placeholder ($1, $2, …).`);
      return new ToolError(`${text}.`);
    case '0A000':
      return new ToolError(`${text}.`);
    default:
      return new ToolError(`${text}.`);
  }
}

/** "statement timed out after N ms (--statement-timeout) …" */
export function timeoutError(ms: number, cause: string): TimeoutError {
  const error = new TimeoutError('statement', ms);
  error.message += ` (--statement-timeout; ${cause}). Narrow the query (WHERE, LIMIT, an index) or ask the operator for a larger --statement-timeout.`;
  return error;
}
