/**
 * 2026-07-28 `subscriptions/listen` over HTTP through the built server (issue 28): the
 * acknowledgment lists only file:// URIs inside the allowed directories (files never read
 * included), a change of a listened file reaches the stream, and a stream gets no update for a URI
 * it was not acknowledged for, even while another stream is.
 */
import { writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectHttp, type HttpServer, startHttpServer, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Ceiling for an update to arrive (a loaded machine is slow; the wait ends at the event). */
const UPDATE_CEILING_MS = 30_000;

let dir: string;
let outside: string;
let server: HttpServer;
const cleanups: (() => Promise<void>)[] = [];
const uri = (rel: string) => pathToFileURL(join(dir, rel)).href;

type Client = Awaited<ReturnType<typeof connectHttp>>['client'];

/** A modern HTTP client recording every resources/updated URI; `next(uri)` waits for that one. */
async function listener() {
  const { client } = await connectHttp(server.url, 'modern');
  cleanups.push(() => client.close());
  const seen: string[] = [];
  const waiting = new Map<string, () => void>();
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    seen.push(n.params.uri);
    waiting.get(n.params.uri)?.();
  });
  const next = (target: string) =>
    new Promise<void>((resolve, reject) => {
      if (seen.includes(target)) return resolve();
      const timer = setTimeout(
        () => reject(new Error(`no update of ${target}; saw ${seen}`)),
        UPDATE_CEILING_MS,
      );
      waiting.set(target, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  return { client: client as Client, seen, next };
}

/**
 * Appends to `file` until `arrived` settles (a watch may still be starting on a loaded machine, and
 * a change made before it is ready is not seen), then resolves or rejects with it.
 */
async function changeUntil(file: string, arrived: Promise<unknown>): Promise<void> {
  let settled = false;
  const done = arrived.finally(() => {
    settled = true;
  });
  done.catch(() => {});
  while (!settled) {
    await appendFile(file, 'changed\n');
    await Promise.race([done, new Promise((r) => setTimeout(r, 500))]).catch(() => {});
  }
  await done;
}

beforeAll(async () => {
  const a = await tempDir('refmcp-listen-http-');
  const b = await tempDir('refmcp-listen-http-outside-');
  cleanups.push(a.cleanup, b.cleanup);
  dir = a.dir;
  outside = b.dir;
  for (const name of ['a.txt', 'b.txt']) writeFileSync(join(dir, name), `${name}\n`);
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  server = await startHttpServer('filesystem', [dir]);
  cleanups.push(() => server.stop());
}, 30_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe('subscriptions/listen over HTTP (2026-07-28)', () => {
  it('acknowledges only in-root file URIs and delivers updates of those alone', async () => {
    const secret = pathToFileURL(join(outside, 'secret.txt')).href;
    const [a, b] = [uri('a.txt'), uri('b.txt')];
    const one = await listener();
    const two = await listener();
    const first = await one.client.listen({ resourceSubscriptions: [secret, 'https://example.com/x', a] });
    const second = await two.client.listen({ resourceSubscriptions: [a, b, uri('../escape.txt')] });
    try {
      expect(first.honoredFilter.resourceSubscriptions).toEqual([a]);
      expect(second.honoredFilter.resourceSubscriptions).toEqual([a, b]);
      // b changes while only the second stream listens to it; then a, which both listen to.
      await appendFile(join(outside, 'secret.txt'), 'changed\n');
      await changeUntil(join(dir, 'b.txt'), two.next(b));
      await changeUntil(join(dir, 'a.txt'), Promise.all([one.next(a), two.next(a)]));
      // Updates reach a stream in the order they were published: b's came before a's.
      expect(one.seen).not.toContain(b);
      expect(one.seen).not.toContain(secret);
      expect(new Set(one.seen)).toEqual(new Set([a]));
      expect(new Set(two.seen)).toEqual(new Set([a, b]));
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 90_000);

  it('acknowledges no resource URI when none is inside the allowed directories', async () => {
    const { client } = await listener();
    const none = await client.listen({
      resourceSubscriptions: [pathToFileURL(join(outside, 'secret.txt')).href, 'memo://insights'],
    });
    try {
      expect(none.honoredFilter.resourceSubscriptions).toBeUndefined();
    } finally {
      await none.close();
    }
  }, 30_000);

  it('gives one listen at most 100 files, so one client cannot take every watch from the others', async () => {
    const { client } = await listener();
    const asked = Array.from({ length: 150 }, (_, i) => uri(`later-${i}.txt`));
    const greedy = await client.listen({ resourceSubscriptions: asked });
    const other = await (await listener()).client.listen({ resourceSubscriptions: [uri('a.txt')] });
    try {
      expect(greedy.honoredFilter.resourceSubscriptions).toEqual(asked.slice(0, 100));
      expect(other.honoredFilter.resourceSubscriptions).toEqual([uri('a.txt')]);
    } finally {
      await Promise.all([greedy.close(), other.close()]);
    }
  }, 60_000);
});
