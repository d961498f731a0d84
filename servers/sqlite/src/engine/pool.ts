/**
 * The engine pool. Reads run on read-only connections ("slots") in read engine processes — two slots
 * per process, one process kept warm, at most `maxReaders` slots; writes run on the one slot of the
 * write engine (--allow-writes; started on first use). Engines are separate processes so a runaway
 * statement never blocks the server and can always be stopped.
 *
 * - Every call has one deadline, `statementTimeoutMs` from its arrival, covering the wait for a free
 *   slot and the statement itself. At the deadline, or when the client cancels, the engine process
 *   running the call is killed (SIGKILL: SQLite is crash-safe, sqlite.org/atomiccommit.html) and
 *   replaced. A read that was running on a sibling slot of that process is retried once (reads are
 *   idempotent); a killed writer's replacement — started only once the killed process has exited —
 *   rolls its journal back before reads continue.
 * - While one slot runs a long statement, its sibling answers other calls at once. When every read
 *   slot has been busy for SPARE_DELAY_MS another read process is started (up to `maxReaders`
 *   slots); extra read processes idle for IDLE_REAP_MS are stopped.
 */
import { performance } from 'node:perf_hooks';
import { TimeoutError } from '@refmcp/shared/server';
import { EngineExited, EngineProcess, type EngineSlot } from './process.js';
import type { Operation, OperationResult } from './protocol.js';

export interface PoolOptions {
  dbPath: string;
  /** dist/engine.js. */
  enginePath: string;
  allowWrites: boolean;
  statementTimeoutMs: number;
  busyTimeoutMs: number;
  /** Read connections at most (over all read processes). */
  maxReaders: number;
}

type Role = 'read' | 'write';

/** A statement that ran past --statement-timeout (or waited that long for a free connection). */
export class StatementTimeoutError extends TimeoutError {
  constructor(ms: number, waiting: boolean) {
    super('SQL statement', ms);
    this.message = waiting
      ? `SQL statement timed out after ${ms} ms (--statement-timeout ${ms}) while waiting for a free connection: ` +
        'other statements are still running. Retry shortly.'
      : `SQL statement timed out after ${ms} ms (--statement-timeout ${ms}) and was stopped. Narrow it (WHERE, LIMIT, ` +
        'an index; explain_query shows the plan) or ask the operator to raise --statement-timeout.';
  }
}

/** The client cancelled the call, or the server is shutting down. */
export class CancelledError extends Error {
  override name = 'CancelledError';
}

/** Connections per read engine process. */
export const READ_SLOTS_PER_PROCESS = 2;
/** Milliseconds every read slot may stay busy before another read process is started. */
export const SPARE_DELAY_MS = 150;
/** Milliseconds an extra (beyond the first) read process may stay idle before it is stopped. */
export const IDLE_REAP_MS = 30_000;

/** Reads wait on `promise` until the replacement writer has opened (and recovered the journal). */
interface Recovery {
  promise: Promise<void>;
  done: () => void;
}

interface Waiter {
  role: Role;
  resolve: (slot: EngineSlot) => void;
  reject: (error: Error) => void;
}

export class EnginePool {
  readonly #engines: Record<Role, EngineProcess[]> = { read: [], write: [] };
  readonly #waiters: Waiter[] = [];
  #closed = false;
  #recovery: Recovery | undefined;
  #spareTimer: NodeJS.Timeout | undefined;
  readonly #reaper: NodeJS.Timeout;

  constructor(private readonly opts: PoolOptions) {
    this.#reaper = setInterval(() => this.#reap(), 5_000);
    this.#reaper.unref();
  }

  /** Starts the warm read process; resolves when a slot is open (never rejects: calls report failures). */
  async start(): Promise<void> {
    const engine = this.#spawn('read');
    await Promise.any(engine.slots.map((s) => s.ready)).catch(() => {});
  }

  /** Runs `operation` on a read-only slot. Rejects with EngineFailure, StatementTimeoutError, CancelledError, EngineExited. */
  read(operation: Operation, signal?: AbortSignal): Promise<OperationResult> {
    return this.#run('read', operation, signal);
  }

  /** Runs `operation` on the write slot (only with allowWrites). */
  write(operation: Operation, signal?: AbortSignal): Promise<OperationResult> {
    if (!this.opts.allowWrites) return Promise.reject(new Error('writes are not enabled'));
    return this.#run('write', operation, signal);
  }

  /** Live engine processes and slots per role (for tests and diagnostics). */
  get size(): Record<Role, { processes: number; slots: number }> {
    const of = (role: Role) => ({ processes: this.#engines[role].length, slots: this.#slots(role).length });
    return { read: of('read'), write: of('write') };
  }

  /** Kills every engine at once (synchronous: safe in an 'exit' handler). */
  close(): void {
    this.#closed = true;
    clearInterval(this.#reaper);
    if (this.#spareTimer) clearTimeout(this.#spareTimer);
    if (this.#recovery) this.#endRecovery(this.#recovery);
    for (const waiter of this.#waiters.splice(0))
      waiter.reject(new CancelledError('the server is shutting down'));
    for (const role of ['read', 'write'] as const) for (const engine of this.#engines[role]) engine.kill();
  }

  async #run(role: Role, operation: Operation, signal?: AbortSignal): Promise<OperationResult> {
    if (this.#closed) throw new CancelledError('the server is shutting down');
    const ms = this.opts.statementTimeoutMs;
    let slot: EngineSlot | undefined;
    let waiter: Waiter | undefined;
    let failed = false;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        if (slot?.engine.role === 'write') this.#beginRecovery();
        if (slot) slot.engine.kill();
        else if (waiter) this.#dropWaiter(waiter);
        reject(error);
      };
      timer = setTimeout(() => fail(new StatementTimeoutError(ms, slot === undefined)), ms);
      onAbort = () => fail(new CancelledError('the call was cancelled'));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    stop.catch(() => {});
    try {
      for (let attempt = 1; ; attempt++) {
        // A read-only connection cannot roll back a hot journal (SQLITE_READONLY_ROLLBACK): reads wait
        // until the replacement of a killed writer has done it.
        if (role === 'read' && this.#recovery) await Promise.race([this.#recovery.promise, stop]);
        const acquired = this.#acquire(role, (w) => {
          waiter = w;
        }).then((s) => {
          // Handed a slot after the call had already timed out or been cancelled: give it back.
          if (failed) {
            this.#release(s);
            throw new CancelledError('the call ended before a connection was free');
          }
          slot = s;
          return s;
        });
        acquired.catch(() => {});
        const s = await Promise.race([acquired, stop]);
        try {
          return await Promise.race([s.request(operation), stop]);
        } catch (error) {
          // A sibling slot's statement got its process killed under this read: run it again, once.
          if (failed || role !== 'read' || attempt > 1 || !(error instanceof EngineExited)) throw error;
        } finally {
          this.#release(s);
          slot = undefined;
          waiter = undefined;
        }
      }
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  #slots(role: Role): EngineSlot[] {
    return this.#engines[role].flatMap((e) => (e.dead ? [] : e.slots));
  }

  #idleSlot(role: Role): EngineSlot | undefined {
    return this.#slots(role).find((s) => s.open && !s.busy);
  }

  /** An idle open slot of `role`, now busy; or a promise of the next one to come free. */
  #acquire(role: Role, registered: (waiter: Waiter) => void): Promise<EngineSlot> {
    const idle = this.#idleSlot(role);
    if (idle && !this.#waiters.some((w) => w.role === role)) {
      idle.busy = true;
      if (role === 'read' && !this.#idleSlot('read')) this.#scheduleSpare();
      return Promise.resolve(idle);
    }
    return new Promise<EngineSlot>((resolve, reject) => {
      const waiter: Waiter = { role, resolve, reject };
      this.#waiters.push(waiter);
      registered(waiter);
      const starting = this.#slots(role).filter((s) => !s.open).length;
      const waiting = this.#waiters.filter((w) => w.role === role).length;
      if (this.#slots(role).length < this.#cap(role) && starting < waiting && this.#maySpawn(role))
        this.#spawn(role);
      this.#dispatch(role);
    });
  }

  #release(slot: EngineSlot): void {
    slot.busy = false;
    slot.idleSince = performance.now();
    if (!slot.engine.dead) this.#dispatch(slot.engine.role);
  }

  #dropWaiter(waiter: Waiter): void {
    const i = this.#waiters.indexOf(waiter);
    if (i !== -1) this.#waiters.splice(i, 1);
  }

  /** Hands idle slots of `role` to waiting calls, oldest first. */
  #dispatch(role: Role): void {
    for (;;) {
      const waiter = this.#waiters.find((w) => w.role === role);
      const idle = this.#idleSlot(role);
      if (!waiter || !idle) return;
      this.#dropWaiter(waiter);
      idle.busy = true;
      waiter.resolve(idle);
    }
  }

  #cap(role: Role): number {
    return role === 'read' ? this.opts.maxReaders : 1;
  }

  /**
   * Whether a call may start an engine of `role` now. Not a writer while a killed one has not exited
   * yet (it is still in the list, dead): its exit (#onExit) starts the replacement, which must open
   * only once the killed process is gone — only then is its journal hot and rolled back — and which
   * ends the pending recovery reads wait on. A writer started earlier by a call was the bug where
   * reads waited for a recovery nobody would end.
   */
  #maySpawn(role: Role): boolean {
    return role === 'read' || this.#engines.write.length === 0;
  }

  #spawn(role: Role): EngineProcess {
    const free = this.#cap(role) - this.#slots(role).length;
    const slots = role === 'read' ? Math.max(1, Math.min(READ_SLOTS_PER_PROCESS, free)) : 1;
    const engine = new EngineProcess(
      this.opts.enginePath,
      { dbPath: this.opts.dbPath, role, busyTimeoutMs: this.opts.busyTimeoutMs, slots },
      (gone) => this.#onExit(gone),
    );
    this.#engines[role].push(engine);
    // Reads wait while a recovery is pending; any writer started meanwhile ends it once it has
    // opened (and rolled back a hot journal) or failed to (reads then report what they find).
    const recovery = role === 'write' ? this.#recovery : undefined;
    if (recovery)
      void Promise.allSettled(engine.slots.map((s) => s.ready)).then(() => this.#endRecovery(recovery));
    for (const slot of engine.slots) {
      slot.ready.then(
        () => this.#dispatch(role),
        (error: Error) => {
          if (engine.opened || engine.dead) return;
          // The database could not be opened: nobody can serve these calls; fail them with the reason.
          engine.kill();
          if (this.#slots(role).some((s) => s.engine !== engine)) return;
          for (const w of this.#waiters.filter((x) => x.role === role)) {
            this.#dropWaiter(w);
            w.reject(error);
          }
        },
      );
    }
    return engine;
  }

  #onExit(engine: EngineProcess): void {
    const role = engine.role;
    const list = this.#engines[role];
    const i = list.indexOf(engine);
    if (i !== -1) list.splice(i, 1);
    // An engine that never opened has already failed its waiting calls (see #spawn): no retry loop.
    if (this.#closed || !engine.opened) {
      // No writer left to end a pending recovery: do not leave reads waiting on it.
      if (role === 'write' && this.#recovery && list.length === 0) this.#endRecovery(this.#recovery);
      return;
    }
    // Killed after a timeout or crashed: keep one read process warm; replace the writer at once
    // (its first read rolls back the journal the killed writer may have left).
    const needed =
      role === 'write' || this.#slots(role).length === 0 || this.#waiters.some((w) => w.role === role);
    if (!needed || this.#slots(role).length >= this.#cap(role)) return;
    // A crashed writer may have left a hot journal too: reads wait for its replacement (#spawn ends it).
    if (role === 'write') this.#beginRecovery();
    this.#spawn(role);
  }

  /** Marks reads as waiting for a writer's recovery (idempotent); returns the pending recovery. */
  #beginRecovery(): Recovery {
    if (!this.#recovery) {
      let done: () => void = () => {};
      const promise = new Promise<void>((resolve) => {
        done = resolve;
      });
      this.#recovery = { promise, done };
    }
    return this.#recovery;
  }

  #endRecovery(recovery: Recovery): void {
    recovery.done();
    if (this.#recovery === recovery) this.#recovery = undefined;
  }

  /** After SPARE_DELAY_MS, if no read slot is free or starting, start another read process. */
  #scheduleSpare(): void {
    if (this.#spareTimer || this.#closed) return;
    this.#spareTimer = setTimeout(() => {
      this.#spareTimer = undefined;
      const slots = this.#slots('read');
      const free = slots.some((s) => !s.busy || !s.open);
      if (!free && slots.length < this.opts.maxReaders && !this.#closed) this.#spawn('read');
    }, SPARE_DELAY_MS);
    this.#spareTimer.unref();
  }

  /** Stops read processes beyond the first whose slots have all been idle for IDLE_REAP_MS. */
  #reap(): void {
    const now = performance.now();
    const idle = this.#engines.read.filter((e) =>
      e.slots.every((s) => s.open && !s.busy && now - s.idleSince > IDLE_REAP_MS),
    );
    const keep = this.#engines.read.length - idle.length > 0 ? 0 : 1;
    for (const engine of idle.slice(keep)) engine.kill();
  }
}
