/**
 * Startup configuration. The database comes from the first positional argument (a postgresql://
 * URL, as in the official server), else `DATABASE_URL`, else libpq's PG* environment variables
 * (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD, PGSSLMODE — read by `pg`), so a password need
 * not sit in a host config's args. Nothing connects here: the first tool call does, so the server
 * starts (and lists its tools) even while the database is down.
 */
import { ConfigError, type ConfigInput, createLogger, intFlag } from '@refmcp/shared/server';
import type pg from 'pg';
import ConnectionParameters from 'pg/lib/connection-parameters';
import { Database } from './db.js';
import type { Settings } from './settings.js';

/** The settings and the pool built from them. */
export interface Config extends Settings {
  /** The pool (connects on first use). */
  db: Database;
}

export const OPTIONS = {
  'allow-writes': { type: 'boolean' },
  'statement-timeout': { type: 'string' },
  'lock-timeout': { type: 'string' },
  'max-rows': { type: 'string' },
  'max-result-bytes': { type: 'string' },
  'pool-size': { type: 'string' },
  'connect-timeout': { type: 'string' },
} as const;

export const OPTIONS_HELP = `Arguments:
  URL                     postgresql://user:password@host:port/database?sslmode=… (optional: else
                          DATABASE_URL, else the libpq variables PGHOST, PGPORT, PGDATABASE, PGUSER,
                          PGPASSWORD, PGSSLMODE)

Options:
  --allow-writes          add the execute tool for INSERT/UPDATE/DELETE/DDL (--read-only wins)
  --statement-timeout MS  budget of one statement in ms (default 30000)
  --lock-timeout MS       longest wait for a lock in ms (default 5000, at most the statement timeout)
  --max-rows N            rows per page of results (default 1000)
  --max-result-bytes N    row data per page in bytes (default 262144)
  --pool-size N           most database connections (default 4)
  --connect-timeout MS    budget of opening a connection in ms (default 10000)`;

/** Default lock wait, in ms (or the statement timeout when that is shorter). */
const DEFAULT_LOCK_TIMEOUT_MS = 5000;

/** The libpq variables that name a database to connect to (postgresql.org/docs/current/libpq-envars.html). */
const PG_TARGET_VARIABLES = ['PGHOST', 'PGHOSTADDR', 'PGPORT', 'PGDATABASE', 'PGUSER', 'PGPASSWORD'];

/**
 * The connection string: first positional argument, else DATABASE_URL; undefined → PG* env.
 * ConfigError when none of the three names a database: the server would otherwise start and fail
 * only at the first call, against libpq's default (localhost, the OS user's database).
 */
function connectionString(positionals: string[], env: NodeJS.ProcessEnv): string | undefined {
  if (positionals.length > 1)
    throw new ConfigError('expected at most one argument, the database URL (postgresql://…)');
  const url = positionals[0] ?? (env.DATABASE_URL || undefined);
  if (url === undefined) {
    if (PG_TARGET_VARIABLES.some((name) => env[name])) return undefined;
    throw new ConfigError(
      'no database given: pass its URL as the argument (postgresql://user:password@host:5432/database), or set DATABASE_URL, or the libpq variables PGHOST, PGDATABASE, PGUSER, …',
    );
  }
  // Never echo the URL: it may hold the password.
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new ConfigError('the database URL must start with postgresql:// (or postgres://)');
  try {
    new URL(url.replace(/^postgres(ql)?:/i, 'http:'));
  } catch {
    throw new ConfigError('the database URL is not a valid URL (check percent-encoding of the password)');
  }
  return url;
}

/**
 * Settings every connection starts with (docs runtime-config-client.html, libpq-connect.html
 * `options`). Being startup settings they are also what RESET ALL returns to (docs sql-reset.html:
 * "the value that the parameter would have had, if no SET had ever been issued for it in the
 * current session"), so a call that changes one cannot leave it changed.
 */
function sessionSettings(statementTimeoutMs: number, lockTimeoutMs: number): string[] {
  return [
    // Defence in depth: a transaction we did not open ourselves is read-only too.
    'default_transaction_read_only=on',
    // The guard parses with PostgreSQL's default standard_conforming_strings=on; the server must agree.
    'standard_conforming_strings=on',
    // types.ts decodes bytea from hex.
    'bytea_output=hex',
    // The statement budget, for every statement of the session: no SET LOCAL needed per call.
    `statement_timeout=${statementTimeoutMs}`,
    // No call waits long for a lock: a statement queued behind a conflicting lock request also
    // makes every later request for that table queue behind it (explicit-locking.html).
    `lock_timeout=${lockTimeoutMs}`,
  ];
}

export async function configure({ values, positionals, env, common }: ConfigInput): Promise<Config> {
  const url = connectionString(positionals, env);
  // pg resolves URL, PG* variables and defaults exactly as it will when connecting (pg.Client
  // builds the same ConnectionParameters from its config).
  let params: Record<string, unknown>;
  try {
    params = new ConnectionParameters(url) as unknown as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`invalid connection settings: ${(error as Error).message}`);
  }
  const password = typeof params.password === 'string' ? params.password : undefined;
  const ssl = params.ssl as pg.ClientConfig['ssl'];
  const host = String(params.host ?? 'localhost');
  const port = Number(params.port ?? 5432);
  const user = String(params.user ?? '');
  const database = String(params.database ?? user);
  const userOptions = typeof params.options === 'string' && params.options ? [params.options] : [];
  const statementTimeoutMs = intFlag(values, 'statement-timeout', 30_000, { max: 24 * 3600_000 });
  const lockTimeoutMs = intFlag(
    values,
    'lock-timeout',
    Math.min(DEFAULT_LOCK_TIMEOUT_MS, statementTimeoutMs),
    {
      max: statementTimeoutMs,
    },
  );
  const options = [
    ...userOptions,
    ...sessionSettings(statementTimeoutMs, lockTimeoutMs).map((s) => `-c ${s}`),
  ].join(' ');
  const client: pg.ClientConfig = {
    host,
    port,
    user,
    database,
    ...(password === undefined ? {} : { password }),
    ...(ssl === undefined ? {} : { ssl }),
    options,
    fallback_application_name: 'mcp-server-postgres',
    keepAlive: true,
    // A transaction we leave open by accident (a stalled process) is closed by the server.
    idle_in_transaction_session_timeout: Math.max(60_000, statementTimeoutMs * 2),
  };
  const secrets = password ? [...new Set([password, encodeURIComponent(password)])] : [];
  const settings: Settings = {
    target: {
      host,
      port,
      database,
      user,
      ssl: !ssl
        ? 'off'
        : typeof ssl === 'object' && ssl.rejectUnauthorized === false
          ? 'on (certificate not verified)'
          : 'on',
    },
    client,
    secrets,
    writes: values['allow-writes'] === true && !common.readOnly,
    writesBeatenByReadOnly: values['allow-writes'] === true && common.readOnly,
    statementTimeoutMs,
    lockTimeoutMs,
    maxRows: intFlag(values, 'max-rows', 1000, { max: 100_000 }),
    maxResultBytes: intFlag(values, 'max-result-bytes', 256 * 1024, { max: 64 * 1024 * 1024 }),
    poolSize: intFlag(values, 'pool-size', 4, { max: 100 }),
    connectTimeoutMs: intFlag(values, 'connect-timeout', 10_000, { max: 600_000 }),
  };
  return { ...settings, db: new Database(settings, createLogger('refmcp-postgres')) };
}
