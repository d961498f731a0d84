/**
 * The document worker's entry (bundled by each server as dist/document-worker.js and started by
 * run.ts in a worker_thread with heap limits): takes one ExtractRequest, answers one WorkerReply.
 * Libraries that print (pdf.js warns through console.log) are silenced: the worker's stdout is a
 * stream the parent drains, never the server's JSON-RPC stdout, but nothing should reach it anyway.
 */
import { parentPort } from 'node:worker_threads';
import { ExtractError, parserReason } from './errors.js';
import { extract } from './extract.js';
import type { ExtractRequest, WorkerReply } from './types.js';

const quiet = () => {};
console.log = quiet;
console.info = quiet;
console.warn = quiet;
console.debug = quiet;
console.error = quiet;

parentPort?.once('message', async (request: ExtractRequest) => {
  let reply: WorkerReply;
  try {
    reply = { ok: true, document: await extract(request) };
  } catch (error) {
    reply =
      error instanceof ExtractError
        ? { ok: false, failure: error.failure, message: error.message }
        : error instanceof RangeError && /memory|allocation|buffer/i.test(error.message)
          ? { ok: false, failure: 'memory', message: error.message }
          : {
              ok: false,
              failure: 'corrupt',
              message: `it could not be read (${parserReason(error)})`,
            };
  }
  parentPort?.postMessage(reply);
});
