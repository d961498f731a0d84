/**
 * Server side: engine and pool errors → ToolError messages written for the model (what happened,
 * what to do next). SQLite's own message and result code are kept, so a refusal by the engine is
 * recognisable as one (e.g. "attempt to write a readonly database (SQLITE_READONLY)").
 */
import { ToolError } from '@refmcp/shared/server';
import { CancelledError, StatementTimeoutError } from './engine/pool.js';
import { EngineExited, EngineFailure } from './engine/process.js';

export interface ErrorContext {
  /** The tool argument holding the SQL ("query"), for messages that name it. */
  argument: string;
  allowWrites: boolean;
  busyTimeoutMs: number;
  /** The call ran on a read-only connection. */
  readPath: boolean;
}

/** Any error from the pool → a ToolError (rethrown as is when it already is one). */
export function toToolError(error: unknown, ctx: ErrorContext): ToolError {
  if (error instanceof StatementTimeoutError) return error;
  if (error instanceof ToolError) return error;
  if (error instanceof CancelledError) return new ToolError(`${error.message}; nothing more was done`);
  if (error instanceof EngineExited) {
    return new ToolError(`${error.message} while running this call; the call did not complete. Retry it.`);
  }
  if (!(error instanceof EngineFailure)) {
    return new ToolError(`Internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { kind, message, code } = error.failure;
  if (kind !== 'sqlite') return new ToolError(kind === 'internal' ? `Internal error: ${message}` : message);
  if (code === 'SQLITE_READONLY_ROLLBACK' || code === 'SQLITE_READONLY_RECOVERY') {
    return new ToolError(
      `the database needs recovery that a read-only connection cannot do: ${message} (${code}). A writer was ` +
        'interrupted and left a hot journal; it is rolled back the next time the database is opened for writing ' +
        '(this server does that itself when started with --allow-writes). Retry in a moment.',
    );
  }
  if (code?.startsWith('SQLITE_READONLY') && ctx.readPath) {
    return new ToolError(
      `${ctx.argument}: SQLite refused to write: ${message} (${code}). read_query runs on a read-only connection. ` +
        (ctx.allowWrites
          ? 'Use write_query for changes.'
          : 'This server is read-only (started without --allow-writes): the database cannot be changed through it.'),
    );
  }
  if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED')) {
    return new ToolError(
      `database is locked: another connection held its lock for longer than ${ctx.busyTimeoutMs} ms ` +
        `(--busy-timeout) — ${message} (${code}). Nothing was changed; retry shortly.`,
    );
  }
  const hint = /^no such (table|column)/.test(message)
    ? ' list_tables and describe_table show the schema.'
    : message === 'not authorized'
      ? ' Loading extensions (load_extension) is disabled on this server.'
      : '';
  return new ToolError(`${ctx.argument}: SQLite error: ${message}${code ? ` (${code})` : ''}.${hint}`);
}
