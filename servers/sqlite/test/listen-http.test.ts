/**
 * 2026-07-28 `subscriptions/listen` over HTTP through the built server (issue 28): memo://insights
 * alone is acknowledged, and an append_insight made by any client reaches its listen stream.
 */
import { join } from 'node:path';
import { connectHttp, type HttpServer, startHttpServer, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SQL, makeDb } from './support.js';

/** Ceiling for an update to arrive (a loaded machine is slow; the wait ends at the event). */
const UPDATE_CEILING_MS = 30_000;

let server: HttpServer;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const tmp = await tempDir('refmcp-sqlite-listen-http-');
  cleanups.push(tmp.cleanup);
  const file = join(tmp.dir, 'listen.db');
  makeDb(file, FIXTURE_SQL);
  server = await startHttpServer('sqlite', ['--db-path', file]);
  cleanups.push(() => server.stop());
}, 30_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const connect = async () => {
  const { client } = await connectHttp(server.url, 'modern');
  cleanups.push(() => client.close());
  return client;
};

describe('subscriptions/listen over HTTP (2026-07-28)', () => {
  it('acknowledges memo://insights only, and its stream gets the update of an append_insight', async () => {
    const listening = await connect();
    const seen: string[] = [];
    const updated = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no memo://insights update')), UPDATE_CEILING_MS);
      listening.setNotificationHandler('notifications/resources/updated', (n) => {
        seen.push(n.params.uri);
        clearTimeout(timer);
        resolve();
      });
    });
    const subscription = await listening.listen({
      resourceSubscriptions: ['sqlite://schema/users', 'memo://insights', 'memo://other'],
    });
    try {
      expect(subscription.honoredFilter.resourceSubscriptions).toEqual(['memo://insights']);
      const writer = await connect();
      const result = await writer.callTool({ name: 'append_insight', arguments: { insight: 'Over HTTP.' } });
      expect(result.isError).toBeFalsy();
      await updated;
      expect(seen).toEqual(['memo://insights']);
    } finally {
      await subscription.close();
    }
  }, 90_000);

  it('acknowledges no resource URI for a listen naming only other resources', async () => {
    const client = await connect();
    const none = await client.listen({ resourceSubscriptions: ['sqlite://schema/users', 'memo://other'] });
    try {
      expect(none.honoredFilter.resourceSubscriptions).toBeUndefined();
    } finally {
      await none.close();
    }
  }, 30_000);
});
