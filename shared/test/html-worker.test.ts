/**
 * convertHtml (documents/run.ts): a page's article is made in the worker exactly as article.ts makes
 * it inline; a conversion past its time limit fails naming the limit, an aborted one with the
 * caller's reason, and the next page converts in a fresh worker.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ExtractError } from '../src/documents/errors.js';
import { MAX_WORKERS, workerCounts } from '../src/documents/pool.js';
import { convertHtml } from '../src/documents/run.js';
import { htmlToArticle } from '../src/net/article.js';
import { useBuiltDocumentWorker } from './document-worker-support.js';

const ARTICLE = `<!doctype html><html><head><title>Tide tables</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>Tide tables</h1>${'<p>The harbour master publishes the tide tables every week; see <a href="/archive">the archive</a>. '.repeat(6)}</p></article></body></html>`;

/** One-cell tables: cheap to send, slow to convert (2 MiB took 47 s at load 19 on 2 cores). */
function slowPage(bytes: number): string {
  let out = '<html><body>';
  for (let i = 0; out.length < bytes; i++) out += `<table><tr><td>cell ${i}, text</td></tr></table>`;
  return out;
}

beforeAll(useBuiltDocumentWorker, 120_000);

describe('convertHtml', () => {
  it('gives the article htmlToArticle gives, links absolute against the URL', async () => {
    const url = 'https://news.example/tides/today';
    const article = await convertHtml(ARTICLE, url);
    expect(article).toEqual(htmlToArticle(ARTICLE, url));
    expect(article.markdown).toContain('https://news.example/archive');
  });

  it('a conversion past its time limit fails naming the limit; the next page converts', async () => {
    const error = await convertHtml(slowPage(2 * 1024 * 1024), 'https://x.example/', {
      timeoutMs: 1000,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExtractError);
    expect((error as ExtractError).failure).toBe('timeout');
    expect((error as ExtractError).message).toMatch(/took longer than 1 s and was stopped/);
    expect((await convertHtml(ARTICLE, 'https://x.example/')).extraction).toBe('article');
  }, 120_000);

  it('an aborted conversion fails with the caller’s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the client');
    const pending = convertHtml(slowPage(2 * 1024 * 1024), 'https://x.example/', {
      signal: controller.signal,
    });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    const already = convertHtml(ARTICLE, 'https://x.example/', { signal: controller.signal });
    await expect(already).rejects.toBe(reason);
  }, 120_000);

  it('at most MAX_WORKERS conversions run (and threads live) at once; the rest wait in turn, cancellable; a normal page still converts', async () => {
    const poll = async (done: () => boolean) => {
      for (let i = 0; i < 2400 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
    };
    const controllers = Array.from({ length: MAX_WORKERS + 2 }, () => new AbortController());
    const calls = controllers.map((c) =>
      convertHtml(slowPage(2 * 1024 * 1024), 'https://x.example/', { signal: c.signal }).then(
        () => 'converted',
        (e: unknown) => e,
      ),
    );
    expect(workerCounts()).toMatchObject({ running: MAX_WORKERS, queued: 2 });
    // A waiting call, cancelled, leaves the queue with the caller's reason and starts no worker.
    const reason = new Error('cancelled while waiting');
    controllers[3]?.abort(reason);
    expect(await calls[3]).toBe(reason);
    expect(workerCounts()).toMatchObject({ running: MAX_WORKERS, queued: 1 });
    // The running ones cancelled: the waiting one gets a worker once a thread has exited.
    controllers[0]?.abort(new Error('stop 0'));
    controllers[1]?.abort(new Error('stop 1'));
    await poll(() => workerCounts().queued === 0 && workerCounts().running === 1);
    expect(workerCounts()).toMatchObject({ running: 1, queued: 0 });
    controllers[2]?.abort(new Error('stop 2'));
    expect((await Promise.all(calls)).map((e) => (e as Error).message)).toEqual([
      'stop 0',
      'stop 1',
      'stop 2',
      'cancelled while waiting',
    ]);
    expect((await convertHtml(ARTICLE, 'https://x.example/')).extraction).toBe('article');
    // Over the whole file (every test above included), never more threads than the cap.
    expect(workerCounts().peakLive).toBeLessThanOrEqual(MAX_WORKERS);
    expect(workerCounts().peakLive).toBeGreaterThan(0);
  }, 180_000);
});
