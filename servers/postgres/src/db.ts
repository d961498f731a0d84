/**
 * The connection pool and the one way SQL runs: {@link Database.transaction}. Every call gets a
 * pooled connection and its own transaction — `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`
 * (or READ WRITE for the execute tool); the statement and lock timeouts are settings of the session
 * itself (config.ts) — ended by ROLLBACK (reads) or COMMIT (writes) and a reset in the same round trip, so
 * no setting, prepared statement, cursor, temporary table, LISTEN or advisory lock reaches the next
 * call (docs sql-discard.html). A connection that failed in any way, or was not reset, is
 * destroyed, not reused; the next call opens a fresh one (so a restarted server is recovered).
 *
 * Reads end behind their answer: the page is final once read, so the ROLLBACK and reset run after
 * the result is returned. When no call is waiting for a connection, they run at once and the
 * connection goes back to the pool only when they succeeded. When calls are waiting (a busy
 * server), the connection is handed to the next one with the read's transaction still open, and
 * that call's first write starts with the ROLLBACK and the reset ({@link RESET_OPENING}), ahead of
 * its own BEGIN and statement in the same round trip: one round trip a call instead of two. Either
 * way nothing of a call is left when the next one's statement runs, and if the reset fails the
 * next statement does not run at all (PostgreSQL skips the rest of the batch; the connection is
 * closed and the call runs again on another). So such a connection is never idle in the pool.
 * Writes answer only once COMMIT succeeded.
 *
 * Time: PostgreSQL enforces the statement timeout; a client-side deadline (timeout + 3 s) cancels
 * the query with a protocol CancelRequest, and 2 s later destroys the socket, for a server or
 * network that stopped answering. An MCP cancellation or shutdown cancels the query the same way.
 *
 * The driver is loaded, and the first connection opened, on the first call ({@link Database.warm}),
 * never at startup.
 */
import { scrubSecrets } from '@refmcp/shared/audit';
import { type Logger, ToolError } from '@refmcp/shared/server';
import type pg from 'pg';
import { connectError, isConnectionError, lostError, timeoutError } from './errors.js';
import { loadedPg, loadPg } from './pg-module.js';
import { command, PreludeError } from './portal.js';
import type { Settings } from './settings.js';
import { describeTarget } from './target.js';
import { exactTypes } from './types.js';

/** Grace after the statement timeout before the client cancels, then destroys, in ms. */
const CANCEL_GRACE_MS = 3000;
const DESTROY_GRACE_MS = 2000;
/** A call's MCP cancellation is watched for from this many ms into the call (see transaction). */
const WATCH_AFTER_MS = 50;
/** Idle pooled connections are closed after this long, in ms. */
const IDLE_MS = 30_000;

/**
 * After a COMMIT (or a failed write): what DISCARD ALL does, spelled out (docs sql-discard.html) so
 * it can follow COMMIT/ROLLBACK in the same round trip (DISCARD ALL itself refuses to run in a
 * multi-statement query): no cursor, role, setting, prepared statement, LISTEN, advisory lock,
 * cached plan, temporary table or sequence state reaches the next call.
 */
const RESET_SESSION =
  'CLOSE ALL; SET SESSION AUTHORIZATION DEFAULT; RESET ALL; DEALLOCATE ALL; UNLISTEN *; ' +
  'SELECT pg_advisory_unlock_all(); DISCARD PLANS; DISCARD TEMP; DISCARD SEQUENCES';

/**
 * After the ROLLBACK of a READ ONLY transaction, only what is not transactional can remain, so
 * only that is reset: prepared statements (PREPARE lasts for the session, sql-prepare.html) and
 * session-level advisory locks ("do not honor transaction semantics", explicit-locking.html
 * #ADVISORY-LOCKS). Everything else DISCARD ALL would clear is undone by the ROLLBACK itself:
 * SET/SET ROLE/SET SESSION AUTHORIZATION/session characteristics (sql-set.html: "the effects of
 * the SET command disappear when the transaction is rolled back"), cursors including WITH HOLD
 * ones (sql-declare.html), LISTEN/UNLISTEN (sql-listen.html), temporary objects (transactional
 * DDL; a READ ONLY transaction cannot create them anyway), and sequence state (nextval/setval are
 * refused in a READ ONLY transaction).
 */
const RESET_AFTER_ROLLBACK = 'ROLLBACK; DEALLOCATE ALL; SELECT pg_advisory_unlock_all()';

/**
 * {@link RESET_AFTER_ROLLBACK} as the opening of the next call on the connection, around its BEGIN
 * (`%BEGIN%`): ROLLBACK ends the previous read's transaction, then the new one begins, and the
 * reset's other statements run inside it, ahead of the call's own statement. BEGIN must come
 * before them: PostgreSQL refuses an isolation level once the transaction ran a query (sql-set-
 * transaction.html: "must be called before any query"), and in one batch without Sync they would
 * share its transaction. Neither statement is transactional: DEALLOCATE drops prepared statements
 * for the session, pg_advisory_unlock_all releases session-level locks, whatever the transaction
 * does after.
 */
const RESET_OPENING = ['ROLLBACK', '%BEGIN%', 'DEALLOCATE ALL', 'SELECT pg_advisory_unlock_all()'];

/** Predefined roles that reach outside the database (docs predefined-roles.html). */
const REACHING_ROLES = [
  'pg_execute_server_program',
  'pg_read_server_files',
  'pg_write_server_files',
  'pg_signal_backend',
];

/**
 * A call's cancellation: its AbortSignal, or what makes it when first read — the tool context,
 * whose `signal` getter creates an AbortController and a listener on the request's signal. Most
 * calls end within WATCH_AFTER_MS and never read it.
 */
export type Cancellation = AbortSignal | { readonly signal: AbortSignal };

export interface TransactionOptions {
  /** READ WRITE and COMMIT (the execute tool) instead of READ ONLY and ROLLBACK. */
  write: boolean;
  signal: Cancellation;
  /**
   * The body sends the opening statements itself, ahead of its first statement in the same
   * round trip (portal.ts); it must send them before anything else.
   */
  inlineBegin?: boolean;
}

/** Why a call's connection was cut short by us. */
type Interrupt = 'deadline' | 'aborted';

export class Database {
  private pool: pg.Pool | undefined;
  private poolReady: Promise<pg.Pool> | undefined;
  /** The first connection being opened by {@link warm}: resolves to its failure, if any. */
  private warming: Promise<unknown> | undefined;
  private readonly active = new Set<pg.PoolClient>();
  /**
   * Connections handed from a read to a waiting call with the read's transaction still open: the
   * next call's opening starts with the reset ({@link RESET_OPENING}).
   */
  private readonly unreset = new WeakSet<pg.PoolClient>();
  /** Reads hand connections over to waiting calls (off once a handed-over reset failed). */
  private handOver = true;
  private privilegesChecked = false;

  constructor(
    private readonly config: Pick<
      Settings,
      'client' | 'target' | 'poolSize' | 'connectTimeoutMs' | 'statementTimeoutMs' | 'secrets'
    >,
    private readonly log: Logger,
  ) {}

  /** The pool, created (and the driver loaded) on first use. */
  private getPool(): Promise<pg.Pool> {
    this.poolReady ??= loadPg().then((driver) => {
      const pool = new driver.Pool({
        ...this.config.client,
        types: exactTypes,
        max: this.config.poolSize,
        idleTimeoutMillis: IDLE_MS,
        connectionTimeoutMillis: this.config.connectTimeoutMs,
      });
      // An idle connection that dies (server restart, network) is dropped by the pool; say so once.
      pool.on('error', (error) =>
        this.log.warn(
          this.scrub(`idle connection to ${describeTarget(this.config.target)} lost: ${error.message}`),
        ),
      );
      this.pool = pool;
      return pool;
    });
    return this.poolReady;
  }

  /**
   * On the first call only: starts loading the driver and opening (and checking) the first
   * connection, and returns at once — so that work overlaps the guard's own first-use loading.
   * The connection goes back to the pool; the call's {@link transaction} waits for it.
   */
  warm(): void {
    if (this.poolReady) return;
    this.warming = this.getPool()
      .then((pool) => pool.connect())
      .then(async (client) => {
        await this.checkPrivileges(client);
        client.release();
        return undefined;
      })
      .catch((error: unknown) => error);
  }

  /** A pooled connection. Errors: ToolError naming host/port/database/SSL. */
  private async acquire(): Promise<pg.PoolClient> {
    const warming = this.warming;
    this.warming = undefined;
    const failed = warming ? await warming : undefined;
    if (failed) throw connectError(failed, this.config.target);
    try {
      return await (await this.getPool()).connect();
    } catch (error) {
      throw connectError(error, this.config.target);
    }
  }

  private scrub(text: string): string {
    return scrubSecrets(text, this.config.secrets);
  }

  /**
   * Runs `body` on a pooled connection inside one transaction (see the module comment).
   * Errors: connection failures → ToolError naming host/port/database/SSL; a lost connection →
   * ToolError saying the next call reconnects; our deadline → TimeoutError; `body`'s own errors
   * (the statement's) pass through unchanged.
   */
  async transaction<T>(
    opts: TransactionOptions,
    body: (client: pg.PoolClient, begin: string[]) => Promise<T>,
  ): Promise<T> {
    if (opts.signal instanceof AbortSignal) opts.signal.throwIfAborted();
    // A reset left over from a connection's previous read failed, so this call's statement never
    // ran and that connection is closed: the call runs again, on another connection. Reads stop
    // handing connections over (whatever made the reset fail would fail it again), so at most the
    // pool's other connections can still carry one.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(opts, body);
      } catch (error) {
        if (!(error instanceof ResetFailed)) throw error;
        if (attempt >= this.config.poolSize)
          throw new ToolError(this.scrub(`${error.message}, so the statement was not run; call again`));
        if (this.handOver) {
          this.handOver = false;
          this.log.warn(this.scrub(`${error.message}; reads now reset their connection before it is reused`));
        }
      }
    }
  }

  /** One try of {@link transaction}. Errors: also ResetFailed. */
  private async attempt<T>(
    opts: TransactionOptions,
    body: (client: pg.PoolClient, begin: string[]) => Promise<T>,
  ): Promise<T> {
    const client = await this.acquire();
    const pendingReset = this.unreset.delete(client);
    this.active.add(client);
    let broken: unknown;
    let interrupted: Interrupt | undefined;
    const onClientError = (error: unknown) => {
      broken ??= error;
    };
    client.on('error', onClientError);
    const interrupt = (why: Interrupt) => {
      interrupted ??= why;
      this.cancel(client);
    };
    const onAbort = () => interrupt('aborted');
    // Most calls end within milliseconds: the abort listener (~10 µs to add and remove on Node 20)
    // is attached only once a call has run for WATCH_AFTER_MS, by the same timer that then waits
    // for the deadline (cancel), and after that for the socket (destroy).
    let watching: AbortSignal | undefined;
    /** The answer is final (only the reset runs): cancellations no longer concern this call. */
    let answered = false;
    const timeoutMs = this.config.statementTimeoutMs;
    let timer = setTimeout(() => {
      const signal = answered
        ? undefined
        : opts.signal instanceof AbortSignal
          ? opts.signal
          : opts.signal.signal;
      if (!signal) {
        // Only the reset runs: no cancellation to watch for.
      } else if (signal.aborted) onAbort();
      else {
        watching = signal;
        signal.addEventListener('abort', onAbort, { once: true });
      }
      timer = setTimeout(
        () => {
          interrupt('deadline');
          timer = setTimeout(() => this.destroy(client), DESTROY_GRACE_MS);
        },
        timeoutMs + CANCEL_GRACE_MS - WATCH_AFTER_MS,
      );
    }, WATCH_AFTER_MS);
    const unwatch = () => {
      watching?.removeEventListener('abort', onAbort);
      watching = undefined;
    };
    let released = false;
    /**
     * Gives the connection back — or closes it when it was not reset. `handOver`: the read's
     * transaction is still open, for the waiting call that gets the connection to end.
     */
    const release = (reset: boolean, handOver = false) => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      unwatch();
      client.removeListener('error', onClientError);
      this.active.delete(client);
      const healthy = reset && !broken && !interrupted;
      if (healthy && handOver) this.unreset.add(client);
      client.release(healthy ? undefined : new Error('connection discarded'));
    };
    /**
     * Ends the transaction and resets the session behind the answer, then releases — or, for a
     * read while calls wait for a connection, hands it over to the next one to do that.
     */
    const endBehind = (sql: string) => {
      // The answer is final: a cancellation from now on must not discard a healthy connection.
      answered = true;
      unwatch();
      if (!opts.write && this.handOver && (this.pool?.waitingCount ?? 0) > 0) {
        release(true, true);
        return;
      }
      command(client, sql).then(
        () => release(true),
        (error: unknown) => {
          broken ??= error;
          release(false);
        },
      );
    };
    let result: T;
    try {
      await this.checkPrivileges(client);
      // Reads: one snapshot for the whole call (a page and its row count agree), never writable.
      const begin = opts.write ? 'BEGIN READ WRITE' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
      const opening = pendingReset ? RESET_OPENING.map((s) => (s === '%BEGIN%' ? begin : s)) : [begin];
      if (!opts.inlineBegin)
        await command(client, opening.join('; ')).catch((error: unknown) => {
          throw new PreludeError(error);
        });
      result = await body(client, opts.inlineBegin ? opening : []);
      // A write stands only once COMMIT succeeded.
      if (opts.write) await command(client, `COMMIT; ${RESET_SESSION}`);
    } catch (thrown) {
      // The opening failed: the call's own statement never ran (PostgreSQL skipped it).
      const opened = !(thrown instanceof PreludeError);
      const error = thrown instanceof PreludeError ? thrown.cause : thrown;
      if (!opened && pendingReset && !interrupted && !broken && !isLost(error)) {
        release(false);
        throw new ResetFailed(error);
      }
      if (interrupted === 'deadline') {
        release(false);
        throw timeoutError(timeoutMs, 'no answer from the database in time; the query was cancelled');
      }
      if (interrupted === 'aborted') {
        release(false);
        throw new ToolError('the call was cancelled; the query was stopped');
      }
      if (broken || isLost(error)) {
        broken ??= error;
        release(false);
        throw lostError(error, this.config.target);
      }
      endBehind(opts.write ? `ROLLBACK; ${RESET_SESSION}` : RESET_AFTER_ROLLBACK);
      throw error;
    }
    if (opts.write) release(true);
    else endBehind(RESET_AFTER_ROLLBACK);
    return result;
  }

  /**
   * Once per process, on the first connection: warns on stderr when the role can reach outside
   * the database (superuser, or member of a predefined role that reads/writes server files, runs
   * programs or signals backends) — the guard refuses such SQL, but least privilege is the boundary.
   */
  private async checkPrivileges(client: pg.PoolClient): Promise<void> {
    if (this.privilegesChecked) return;
    this.privilegesChecked = true;
    try {
      const { rows } = await client.query<{ super: boolean; roles: string[] | null; me: string }>(
        `SELECT current_user AS me, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS super,
                ARRAY(SELECT rolname FROM pg_roles WHERE rolname = ANY($1) AND pg_has_role(current_user, oid, 'MEMBER')) AS roles`,
        [REACHING_ROLES],
      );
      const row = rows[0];
      const powers = [...(row?.super ? ['superuser'] : []), ...(row?.roles ?? [])];
      if (row && powers.length)
        this.log.warn(
          `role "${row.me}" is ${powers.join(', ')}: it can reach server files, programs or other sessions. ` +
            'The server refuses such SQL, but connect as a least-privilege role (see README, Security model).',
        );
    } catch (error) {
      this.log.warn(this.scrub(`could not check the role's privileges: ${(error as Error).message}`));
    }
  }

  /**
   * Sends a protocol CancelRequest for `client`'s running query (docs
   * protocol-flow.html#PROTOCOL-FLOW-CANCELING-REQUESTS) on a new socket, as pg's Client.cancel
   * does — but without reading pg 8's `activeQuery` getter, which prints a DeprecationWarning
   * ("removed in pg@9.0") on stderr, and which Client.cancel itself reads.
   */
  private cancel(client: pg.PoolClient): void {
    const internals = client as unknown as ClientInternals;
    const running =
      typeof internals._getActiveQuery === 'function'
        ? internals._getActiveQuery()
        : (client as unknown as { activeQuery?: unknown }).activeQuery;
    const { processID, secretKey } = internals;
    if (!running || typeof processID !== 'number' || typeof secretKey !== 'number') return;
    const host = this.config.client.host ?? 'localhost';
    const port = this.config.client.port ?? 5432;
    const canceller = new (loadedPg().Connection)() as unknown as CancelConnection;
    canceller.on('error', () => {});
    canceller.on('connect', () => canceller.cancel(processID, secretKey));
    // The server closes the socket once it has read the request.
    if (host.startsWith('/')) canceller.connect(`${host}/.s.PGSQL.${port}`);
    else canceller.connect(port, host);
  }

  private destroy(client: pg.PoolClient): void {
    const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection
      ?.stream;
    stream?.destroy();
  }

  /** Cancels running queries and closes the pool (the bootstrap bounds the wait). */
  async close(): Promise<void> {
    for (const client of this.active) this.cancel(client);
    await this.pool?.end().catch(() => {});
  }
}

/** What {@link Database.cancel} reads of a pg 8 Client (not in its public types). */
interface ClientInternals {
  /** The query on the wire (pg 8's non-deprecated accessor of `activeQuery`). */
  _getActiveQuery?(): unknown;
  /** BackendKeyData of the connection. */
  processID: number | null;
  secretKey: number | null;
}

/** pg's protocol Connection, as used to send one CancelRequest. */
interface CancelConnection {
  on(event: 'error' | 'connect', listener: (...args: unknown[]) => void): void;
  connect(port: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
}

/** The reset a connection's previous read left to its next call failed (that call retries). */
class ResetFailed extends Error {
  override name = 'ResetFailed';
  constructor(override readonly cause: unknown) {
    super(`the connection could not be reset: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** The connection itself failed mid-call (not the statement). */
function isLost(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  // 57P01-57P03: admin shutdown, crash shutdown, cannot connect now; 08xxx: connection exceptions.
  return isConnectionError(error) && !(code && /^(28|3D)/.test(code));
}
