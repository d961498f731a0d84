/**
 * The document worker's entry (bundled by each server as dist/document-worker.js and started by
 * run.ts in a worker_thread with heap limits): answers each WorkerMessage with one WorkerReply —
 * a document's extraction, or (kind 'html') a fetched page's readable article (net/article.ts,
 * loaded on the first such request, so a worker reading documents never loads the DOM).
 * Libraries that print (pdf.js warns through console.log) are silenced: the worker's stdout is a
 * stream the parent drains, never the server's JSON-RPC stdout, but nothing should reach it anyway.
 */
import { parentPort } from 'node:worker_threads';
import { ExtractError, parserReason } from './errors.js';
import { extract } from './extract.js';
import type { ConvertedArticle, HtmlRequest, WorkerMessage, WorkerReply } from './types.js';

async function convertHtml(request: HtmlRequest): Promise<ConvertedArticle> {
  const { htmlToArticle } = await import('../net/article.js');
  return htmlToArticle(request.html, request.url);
}

const quiet = () => {};
console.log = quiet;
console.info = quiet;
console.warn = quiet;
console.debug = quiet;
console.error = quiet;

// One request at a time (run.ts never posts a second before the first is answered); a worker
// that outlives its request keeps parsed documents for the next (parsed-cache.ts).
parentPort?.on('message', async ({ id, request }: WorkerMessage) => {
  let reply: WorkerReply;
  try {
    reply =
      request.kind === 'html'
        ? { id, ok: true, article: await convertHtml(request) }
        : { id, ok: true, document: await extract(request) };
  } catch (error) {
    reply =
      error instanceof ExtractError
        ? { id, ok: false, failure: error.failure, message: error.message }
        : error instanceof RangeError && /memory|allocation|buffer/i.test(error.message)
          ? { id, ok: false, failure: 'memory', message: error.message }
          : {
              id,
              ok: false,
              failure: 'corrupt',
              message: `it could not be read (${parserReason(error)})`,
            };
  }
  parentPort?.postMessage(reply);
});
