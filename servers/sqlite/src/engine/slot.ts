/**
 * One engine slot (engine side): a SQLite connection and the pipe it is driven over. Slot 0 runs on
 * the engine process's main thread, the others on worker threads, so one slot inside a long SQLite
 * call never delays its siblings. Anything that means the server is gone — the pipe closing, or the
 * parent process changing (checked between rows) — kills the whole engine process at once.
 */
import net from 'node:net';
import Database from 'better-sqlite3';
import { describeFailure } from './failure.js';
import { LineChannel } from './lines.js';
import { Operations } from './operations.js';
import type { EngineConfig, EngineEvent, RequestMessage } from './protocol.js';

/** Ends the engine process (every slot), from any thread. */
export function selfDestruct(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

function openDatabase(config: EngineConfig): Database.Database {
  const db = new Database(config.dbPath, {
    readonly: config.role === 'read',
    // Never create a file: read-only mode must not, and in write mode the server creates it first.
    fileMustExist: true,
    timeout: config.busyTimeoutMs,
  });
  db.defaultSafeIntegers(true);
  if (config.role === 'read') {
    // Belt and braces beside SQLITE_OPEN_READONLY: also refuses writes to the temp schema.
    db.pragma('query_only = ON');
  } else {
    // First read on the writer: rolls back a hot journal a killed writer may have left.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
  }
  return db;
}

/** Serves slot `fd` (3 + slot index) until the server closes it. */
export function serveSlot(fd: number, config: EngineConfig): void {
  const parent = process.ppid;
  const heartbeat = () => {
    if (process.ppid !== parent) selfDestruct();
  };
  let operations: Operations | undefined;
  const socket = new net.Socket({ fd, readable: true, writable: true });
  const channel = new LineChannel<RequestMessage, EngineEvent>(
    socket,
    (message) => {
      const { id, ...operation } = message;
      if (!operations) {
        channel.send({
          type: 'reply',
          id,
          ok: false,
          failure: { kind: 'internal', message: 'engine not open' },
        });
        return;
      }
      try {
        channel.send({ type: 'reply', id, ok: true, result: operations.run(operation) });
      } catch (error) {
        channel.send({ type: 'reply', id, ok: false, failure: describeFailure(error) });
      }
    },
    selfDestruct,
  );
  try {
    operations = new Operations(openDatabase(config), config.role, heartbeat);
    channel.send({ type: 'ready' });
  } catch (error) {
    channel.send({ type: 'open-failed', failure: describeFailure(error) });
  }
}
