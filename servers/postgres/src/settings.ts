/**
 * The parsed startup settings: everything in config.ts's `Config` but the pool. Its own module because
 * both config.ts (which builds them and the pool) and db.ts (the pool, which reads them) need it.
 */
import type pg from 'pg';
import type { Target } from './target.js';

export interface Settings {
  target: Target;
  /** pg client settings (host, port, user, password, database, ssl, options). */
  client: pg.ClientConfig;
  /** Credential values to scrub from every output (the password, raw and URL-encoded). */
  secrets: string[];
  /** The execute tool is served (--allow-writes, and not --read-only). */
  writes: boolean;
  /** --allow-writes was given and --read-only beat it (for the error of --tools execute). */
  writesBeatenByReadOnly: boolean;
  /** Budget of one statement, in ms (the session's `statement_timeout`, set at connection start-up). */
  statementTimeoutMs: number;
  /** Longest wait for any one lock, in ms (the session's `lock_timeout`, set at connection start-up). */
  lockTimeoutMs: number;
  /** Most rows in one page of results. */
  maxRows: number;
  /** Most bytes of row data (as JSON) in one page of results. */
  maxResultBytes: number;
  /** Most pooled connections. */
  poolSize: number;
  /** Budget of opening one connection, in ms. */
  connectTimeoutMs: number;
}
