/**
 * Server side of one engine process (dist/engine.js) and its slots (one SQLite connection each,
 * driven over its own pipe): spawn it, match replies to requests, kill it. It never writes to our
 * stdout (its stdout is ignored; its stderr is ours).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { LineChannel } from './lines.js';
import type {
  EngineConfig,
  EngineEvent,
  Failure,
  Operation,
  OperationResult,
  RequestMessage,
} from './protocol.js';

/** The engine answered with a failure (policy, params, SQLite error, …). */
export class EngineFailure extends Error {
  override name = 'EngineFailure';
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/** The engine process exited (killed after a timeout, crashed, or could not start). */
export class EngineExited extends Error {
  override name = 'EngineExited';
}

/** One connection of an engine process. */
export class EngineSlot {
  /** Resolves once the slot's database is open; rejects with EngineFailure / EngineExited. */
  readonly ready: Promise<void>;
  /** True between acquire and release by the pool. */
  busy = false;
  /** True once `ready` resolved (and until the process exits). */
  open = false;
  /** performance.now() when the slot last became idle. */
  idleSince = performance.now();
  readonly #channel: LineChannel<EngineEvent, RequestMessage>;
  readonly #pending = new Map<
    number,
    { resolve: (r: OperationResult) => void; reject: (e: Error) => void }
  >();
  #nextId = 1;
  #settleReady: { resolve: () => void; reject: (e: Error) => void } | undefined;

  constructor(
    readonly engine: EngineProcess,
    stream: Duplex,
  ) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.#settleReady = { resolve, reject };
    });
    this.ready.catch(() => {});
    this.#channel = new LineChannel<EngineEvent, RequestMessage>(
      stream,
      (event) => this.#onEvent(event),
      () => this.fail(new EngineExited('the SQLite engine process closed the connection')),
    );
  }

  #onEvent(event: EngineEvent): void {
    if (event.type === 'ready') {
      this.open = true;
      this.#settleReady?.resolve();
    } else if (event.type === 'open-failed') {
      this.#settleReady?.reject(new EngineFailure(event.failure));
    } else {
      const pending = this.#pending.get(event.id);
      if (!pending) return;
      this.#pending.delete(event.id);
      if (event.ok) pending.resolve(event.result);
      else pending.reject(new EngineFailure(event.failure));
    }
  }

  /** Rejects everything waiting on this slot with `error` (the process is gone). */
  fail(error: Error): void {
    this.open = false;
    this.#settleReady?.reject(error);
    for (const p of this.#pending.values()) p.reject(error);
    this.#pending.clear();
  }

  /** Sends one operation; resolves with its result or rejects with EngineFailure / EngineExited. */
  request(operation: Operation): Promise<OperationResult> {
    if (this.engine.dead) return Promise.reject(new EngineExited('the SQLite engine process has exited'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (!this.#channel.send({ id, ...operation })) {
        this.#pending.delete(id);
        reject(new EngineExited('could not reach the SQLite engine process'));
      }
    });
  }
}

export class EngineProcess {
  readonly child: ChildProcess;
  readonly slots: EngineSlot[];
  /** True once the process has exited or was killed. */
  dead = false;
  /** True once any slot opened the database: the process started properly at least once. */
  opened = false;
  #reported = false;

  /**
   * Spawns `enginePath` (plain node, no inherited exec flags) with `config`; `onExit` is called once
   * when the process has gone, for whatever reason.
   */
  constructor(
    enginePath: string,
    readonly config: EngineConfig,
    onExit: (engine: EngineProcess) => void,
  ) {
    this.child = spawn(process.execPath, [enginePath, JSON.stringify(config)], {
      stdio: ['ignore', 'ignore', 'inherit', ...Array.from({ length: config.slots }, () => 'pipe' as const)],
    });
    this.slots = Array.from(
      { length: config.slots },
      (_, i) => new EngineSlot(this, this.child.stdio[3 + i] as Duplex),
    );
    for (const slot of this.slots) {
      slot.ready.then(
        () => {
          this.opened = true;
        },
        () => {},
      );
    }
    const gone = (why: string) => {
      if (this.dead && this.#reported) return;
      this.dead = true;
      this.#reported = true;
      const error = new EngineExited(why);
      for (const slot of this.slots) slot.fail(error);
      onExit(this);
    };
    this.child.once('exit', (code, signal) =>
      gone(`the SQLite engine process exited (${signal ? `signal ${signal}` : `code ${code}`})`),
    );
    this.child.once('error', (error) => gone(`the SQLite engine process could not run: ${error.message}`));
  }

  get role(): 'read' | 'write' {
    return this.config.role;
  }

  /** SIGKILL: stops every slot at once, even inside a long SQLite call. Idempotent. */
  kill(): void {
    if (this.dead) return;
    this.dead = true;
    for (const slot of this.slots) slot.open = false;
    try {
      this.child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
