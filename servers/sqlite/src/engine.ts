/**
 * Entry point of an engine process (dist/engine.js), started by the server (engine/process.ts) with
 * its EngineConfig as argv[2] and one pipe per slot on file descriptors 3, 4, …: slot 0 is served on
 * the main thread, the others on worker threads, each with its own SQLite connection.
 *
 * A separate process, not only worker threads in the server, because better-sqlite3 cannot interrupt
 * a statement and a thread inside a long SQLite call cannot be stopped (measured: Worker.terminate()
 * and even process.exit() wait for the native call to return), whereas a process can always be
 * killed. Worker threads inside it keep a second connection cheap (~10 MB instead of a ~55 MB
 * process) and free while the first runs a long statement. stdout is not used.
 */
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import type { EngineConfig } from './engine/protocol.js';
import { selfDestruct, serveSlot } from './engine/slot.js';

if (isMainThread) {
  const config = JSON.parse(process.argv[2] ?? '{}') as EngineConfig;
  for (let slot = 1; slot < config.slots; slot++) {
    const worker = new Worker(new URL(import.meta.url), { workerData: { fd: 3 + slot, config } });
    // A slot that crashes takes the engine with it; the server sees the exit and replaces it.
    worker.on('error', () => selfDestruct());
  }
  serveSlot(3, config);
} else {
  const { fd, config } = workerData as { fd: number; config: EngineConfig };
  serveSlot(fd, config);
}
