/**
 * Startup configuration: the database file (`--db-path`, as in the reference server), whether
 * writes are allowed, the time and result budgets. Bad input is a ConfigError (exit 2, usage on
 * stderr). Read-only mode never creates or modifies the file: a missing file is an error naming it.
 */
import { open, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandHome } from '@refmcp/shared/paths';
import { ConfigError, type ConfigInput, intFlag } from '@refmcp/shared/server';
import { EnginePool } from './engine/pool.js';
import { Memo } from './memo.js';
import { checkNativeModule } from './native.js';

export interface Config {
  /** Absolute path of the database file. */
  dbPath: string;
  /** Writes allowed: --allow-writes and not --read-only (which always wins). */
  allowWrites: boolean;
  /** --read-only: only tools annotated read-only are served (append_insight is hidden too). */
  readOnly: boolean;
  /** Longest a statement may run (including the wait for a free connection), in ms. */
  statementTimeoutMs: number;
  /** Longest SQLite waits for another connection's lock before "database is locked", in ms. */
  busyTimeoutMs: number;
  /** Rows per result page. */
  maxRows: number;
  /** Bytes of JSON-encoded rows per result page. */
  maxBytes: number;
  pool: EnginePool;
  memo: Memo;
}

export const OPTIONS = {
  'db-path': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  'statement-timeout': { type: 'string' },
  'busy-timeout': { type: 'string' },
  'max-rows': { type: 'string' },
  'max-bytes': { type: 'string' },
  'max-readers': { type: 'string' },
} as const;

export const OPTIONS_HELP = `Options:
  --db-path FILE          the SQLite database file (required; ~ expanded). Without --allow-writes it
                          must exist and is opened read-only: never created, never modified (SQLite
                          may add the -wal and -shm files of a WAL-mode database beside it)
  --allow-writes          serve write_query and create_table; creates FILE if it does not exist
                          (--read-only always wins over it)
  --statement-timeout MS  stop any statement running longer than MS (default 30000)
  --busy-timeout MS       wait at most MS for another connection's lock, then fail with
                          "database is locked" (default 5000; below --statement-timeout)
  --max-rows N            rows per result page (default 1000)
  --max-bytes N           bytes of rows per result page (default 262144)
  --max-readers N         read connections at most, for concurrent reads (default 4; two per engine
                          process)`;

/** SQLite's file header (sqlite.org/fileformat.html §1.3.1); an empty file is an empty database. */
const HEADER = 'SQLite format 3\u0000';

/** Checks that `file` is an existing SQLite database file (or empty); ConfigError naming it otherwise. */
async function checkDatabaseFile(file: string, allowWrites: boolean): Promise<void> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ConfigError(
        `database file not found: ${file}. Read-only mode never creates a database: check --db-path, ` +
          'or start with --allow-writes to create it.',
      );
    }
    throw new ConfigError(`cannot read the database file ${file}: ${(error as Error).message}`);
  }
  if (!info.isFile()) throw new ConfigError(`--db-path ${file} is not a file`);
  const handle = await open(file, 'r').catch((error: Error) => {
    throw new ConfigError(`cannot open the database file ${file}: ${error.message}`);
  });
  try {
    const buf = Buffer.alloc(16);
    const { bytesRead } = await handle.read(buf, 0, 16, 0);
    if (bytesRead > 0 && buf.toString('latin1', 0, bytesRead) !== HEADER) {
      throw new ConfigError(`${file} is not a SQLite database (its header is not "SQLite format 3")`);
    }
  } finally {
    await handle.close();
  }
  if (allowWrites) {
    const writable = await open(file, 'r+').catch(() => undefined);
    if (!writable) throw new ConfigError(`--allow-writes: the database file ${file} is not writable`);
    await writable.close();
  }
}

/** Creates an empty database file (a 0-byte file is a valid empty SQLite database). */
async function createDatabaseFile(file: string): Promise<void> {
  try {
    await writeFile(file, '', { flag: 'wx', mode: 0o644 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code === 'ENOENT')
      throw new ConfigError(`cannot create ${file}: its directory ${path.dirname(file)} does not exist`);
    throw new ConfigError(`cannot create ${file}: ${(error as Error).message}`);
  }
}

export async function configure({ values, positionals, common }: ConfigInput): Promise<Config> {
  const raw = values['db-path'];
  // The reference server takes the file as --db-path only; a bare path is the commonest first try.
  if (positionals.length) {
    const given = path.resolve(expandHome(positionals[0] ?? ''));
    throw new ConfigError(
      typeof raw === 'string'
        ? `unexpected argument ${given}: the database is --db-path ${path.resolve(expandHome(raw))} already`
        : `the database file is given with --db-path: mcp-server-sqlite --db-path ${given}`,
    );
  }
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ConfigError('--db-path is required, e.g. mcp-server-sqlite --db-path ~/data/app.db');
  }
  checkNativeModule();
  const dbPath = path.resolve(expandHome(raw));
  const allowWrites = values['allow-writes'] === true && !common.readOnly;
  const statementTimeoutMs = intFlag(values, 'statement-timeout', 30_000, { min: 100 });
  const busyTimeoutMs = intFlag(values, 'busy-timeout', Math.min(5_000, statementTimeoutMs - 50), { min: 0 });
  if (busyTimeoutMs >= statementTimeoutMs) {
    throw new ConfigError(
      `--busy-timeout (${busyTimeoutMs} ms) must be below --statement-timeout (${statementTimeoutMs} ms)`,
    );
  }
  const maxRows = intFlag(values, 'max-rows', 1000);
  const maxBytes = intFlag(values, 'max-bytes', 256 * 1024, { min: 1024 });
  const maxReaders = intFlag(values, 'max-readers', 4);
  if (allowWrites) {
    try {
      await stat(dbPath);
    } catch {
      await createDatabaseFile(dbPath);
    }
  }
  await checkDatabaseFile(dbPath, allowWrites);
  const pool = new EnginePool({
    dbPath,
    enginePath: fileURLToPath(new URL('./engine.js', import.meta.url)),
    allowWrites,
    statementTimeoutMs,
    busyTimeoutMs,
    maxReaders,
  });
  // Every way out of the process takes the engines with it (SIGKILL is synchronous).
  process.once('exit', () => pool.close());
  void pool.start();
  return {
    dbPath,
    allowWrites,
    readOnly: common.readOnly,
    statementTimeoutMs,
    busyTimeoutMs,
    maxRows,
    maxBytes,
    pool,
    memo: new Memo(),
  };
}
