/**
 * Running the model's SQL: the guard first (PostgreSQL's parser: one statement, nothing reaching
 * outside the database), then one transaction per attempt (db.ts), rows read into a bounded page
 * (fetch.ts), and every failure turned into a message for the model (errors.ts).
 */
import { ToolError } from '@refmcp/shared/server';
import type pg from 'pg';
import type { Config } from './config.js';
import type { Cancellation, Database } from './db.js';
import { statementError } from './errors.js';
import { CURSOR_NAME, type Page, readDeclared, readPortal } from './fetch.js';
import { type Checked, checkSql, Refusal } from './guard.js';
import { SqlSyntaxError } from './parser.js';
import { explainWriteRule, type ReadRule } from './read-rules.js';

/** What running needs from the configuration. */
export type RunConfig = Pick<
  Config,
  'statementTimeoutMs' | 'lockTimeoutMs' | 'maxRows' | 'maxResultBytes' | 'writes'
> & {
  db: Database;
};

export interface Statement {
  sql: string;
  params: unknown[];
}

const DECLARE_PREFIX = `DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR `;

const REACH_ADVICE =
  'This server never runs SQL that reaches outside the database (server files, programs, other connections or sessions), in any mode.';

/**
 * The guard (guard.ts) as the model sees it: a refusal or a syntax error (PostgreSQL's own message
 * and position) becomes a ToolError; otherwise what the statement is. A read call (`read`: its
 * transaction is READ ONLY) also refuses what read-rules.ts lists. Starts the first connection
 * meanwhile (a no-op after the first call).
 */
export async function guard(config: RunConfig, sql: string, tool: string, read: boolean): Promise<Checked> {
  config.db.warm();
  let checked: Checked;
  try {
    checked = await checkSql(sql);
  } catch (error) {
    if (error instanceof Refusal)
      throw new ToolError(
        `refused before it reached the database: ${error.message} (PostgreSQL docs: ${error.rule.source}). ${error.rule.advice ?? REACH_ADVICE}`,
      );
    if (error instanceof SqlSyntaxError)
      throw statementError(error, {
        sql,
        prefixLength: 0,
        statementTimeoutMs: config.statementTimeoutMs,
        lockTimeoutMs: config.lockTimeoutMs,
        writes: config.writes,
        tool,
      });
    throw new ToolError(
      `the SQL could not be checked, so it was not run: PostgreSQL's parser failed to load (${(error as Error).message})`,
    );
  }
  if (read && checked.readRule) throw readRefusal(config, checked.readRule, tool);
  return checked;
}

/** The error a read call gives for what read-rules.ts refuses in it. */
function readRefusal(config: RunConfig, rule: ReadRule, tool: string): ToolError {
  const instead =
    rule.advise?.(config.writes) ??
    `${tool} runs reads only, and reads must change nothing and hold no lock beyond their own; ` +
      (config.writes
        ? 'the execute tool can run it.'
        : 'this server is read-only (the execute tool, with --allow-writes, can run it).');
  return new ToolError(
    `refused before it reached the database: ${rule.reason} (PostgreSQL docs: ${rule.source}). ${instead}` +
      (rule.advice ? ` ${rule.advice}` : ''),
  );
}

/** Runs `attempt` and maps a database error using the prefix the attempt put before the SQL. */
async function mapped<T>(
  config: RunConfig,
  tool: string,
  sql: string,
  attempt: (setPrefix: (n: number) => void) => Promise<T>,
): Promise<T> {
  let prefixLength = 0;
  try {
    return await attempt((n) => {
      prefixLength = n;
    });
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw statementError(error, {
      sql,
      prefixLength,
      statementTimeoutMs: config.statementTimeoutMs,
      lockTimeoutMs: config.lockTimeoutMs,
      writes: config.writes,
      tool,
    });
  }
}

/**
 * One page of a statement's rows, read-only (the query tool). `offset` rows are skipped first.
 * Errors: ToolError (refusal, database error, timeout, connection).
 */
export async function readPage(
  config: RunConfig,
  statement: Statement,
  opts: { offset: number; maxRows: number; signal: Cancellation },
): Promise<Page> {
  const { query: isQuery } = await guard(config, statement.sql, 'query', true);
  const read = {
    ...statement,
    budget: { maxRows: opts.maxRows, maxBytes: config.maxResultBytes },
    offset: opts.offset,
    countAll: false,
    statementTimeoutMs: config.statementTimeoutMs,
  };
  return mapped(config, 'query', statement.sql, async (setPrefix) => {
    // A continuation of a query skips the rows already shown on the server (MOVE).
    if (isQuery && opts.offset > 0) {
      setPrefix(DECLARE_PREFIX.length);
      const page = await config.db.transaction({ write: false, signal: opts.signal }, (client) =>
        readDeclared(client, read),
      );
      if (page) return page;
    }
    // A first page (or a statement PostgreSQL will not make a cursor): one round trip for small
    // results; the rest of a big query's result is counted on the server.
    setPrefix(0);
    return config.db.transaction({ write: false, signal: opts.signal, inlineBegin: true }, (client, begin) =>
      readPortal(client, { ...read, countWith: isQuery ? 'cursor' : 'reading' }, begin),
    );
  });
}

/** Runs a statement in a READ WRITE transaction and commits it (the execute tool). */
export async function execute(config: RunConfig, statement: Statement, signal: AbortSignal): Promise<Page> {
  await guard(config, statement.sql, 'execute', false);
  return mapped(config, 'execute', statement.sql, () =>
    config.db.transaction({ write: true, signal }, (client) =>
      readPortal(client, {
        countWith: 'reading',
        ...statement,
        budget: { maxRows: config.maxRows, maxBytes: config.maxResultBytes },
        offset: 0,
        countAll: true,
        statementTimeoutMs: config.statementTimeoutMs,
      }),
    ),
  );
}

/** How {@link explain} plans: the options beyond FORMAT JSON, and who asks. */
export interface ExplainOptions {
  /** EXPLAIN ANALYZE, BUFFERS: runs the statement (a read call: read-rules.ts applies). */
  analyze: boolean;
  /** VERBOSE: schema-qualified relations, alias-qualified columns in conditions. */
  verbose?: boolean;
  /** GENERIC_PLAN (PostgreSQL 16+): plans a statement with $n placeholders and no values. */
  generic?: boolean;
  /** The tool named in errors (default explain_query). */
  tool?: string;
  /** Refuse a statement whose planning takes a write's locks in every mode (insight tools). */
  readOnlyTool?: boolean;
  signal: AbortSignal;
}

/** EXPLAIN (FORMAT JSON [, ANALYZE, BUFFERS]) in a READ ONLY transaction: the plan as JSON. */
export async function explain(
  config: RunConfig,
  statement: Statement,
  opts: ExplainOptions,
): Promise<unknown> {
  const tool = opts.tool ?? 'explain_query';
  // Plain EXPLAIN only plans (it runs no function); EXPLAIN ANALYZE runs the statement. Planning a
  // write or SELECT … FOR UPDATE/SHARE takes its table locks: only where writes are enabled.
  const { planLock } = await guard(config, statement.sql, tool, opts.analyze);
  if (planLock && (!config.writes || opts.readOnlyTool)) {
    const rule = explainWriteRule(planLock, 'explain_query');
    throw readRefusal(
      config,
      opts.readOnlyTool
        ? { ...rule, advise: () => `${tool} is read-only in every mode: give it the SELECT part instead.` }
        : rule,
      tool,
    );
  }
  const options = [
    'FORMAT JSON',
    ...(opts.analyze ? ['ANALYZE', 'BUFFERS'] : []),
    ...(opts.verbose ? ['VERBOSE'] : []),
    ...(opts.generic ? ['GENERIC_PLAN'] : []),
  ];
  const prefix = `EXPLAIN (${options.join(', ')}) `;
  return mapped(config, tool, statement.sql, (setPrefix) => {
    setPrefix(prefix.length);
    return config.db.transaction({ write: false, signal: opts.signal }, async (client: pg.PoolClient) => {
      const result = await client.query({
        text: prefix + statement.sql,
        values: statement.params,
        rowMode: 'array',
        queryMode: 'extended',
      } as pg.QueryArrayConfig);
      return (result.rows[0] as unknown[] | undefined)?.[0];
    });
  });
}

/** One query of ours inside {@link inspect}'s transaction: rows as objects. */
export type Query = <R extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;

/**
 * Several catalog queries of ours in one READ ONLY transaction (one snapshot, one connection):
 * `body` gets a `query` function returning rows as objects. Errors: ToolError.
 */
export async function inspect<T>(
  config: RunConfig,
  tool: string,
  signal: AbortSignal,
  body: (query: Query) => Promise<T>,
): Promise<T> {
  return mapped(config, tool, '', () =>
    config.db.transaction({ write: false, signal }, (client) =>
      body(async <R extends Record<string, unknown>>(text: string, values: unknown[] = []) => {
        const result = await client.query<R>({ text, values });
        return result.rows;
      }),
    ),
  );
}

/**
 * A catalog query of ours (schema tools, resources, completions), read-only, rows as objects.
 * Errors: ToolError.
 */
export async function catalog<R extends Record<string, unknown>>(
  config: RunConfig,
  text: string,
  values: unknown[],
  signal: AbortSignal,
): Promise<R[]> {
  return mapped(config, 'catalog', text, () =>
    config.db.transaction({ write: false, signal }, async (client) => {
      const result = await client.query<R>({ text, values });
      return result.rows;
    }),
  );
}
