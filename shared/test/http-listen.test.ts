// 2026-07-28 `subscriptions/listen` over HTTP (transport/http/listen.ts, issue 28), through serveHttp
// and the SDK's createMcpHandler: the acknowledgment lists only what the server's ResourceListen
// honours, `updated` reaches the stream for those URIs only, and the stream's end releases the
// subscription. It relies on two things of the SDK's public API, checked here so that an SDK
// upgrade that changes them fails this test: `fetch(request, { parsedBody })` serves that body, and
// the listen router forwards `notify.resourceUpdated` only for URIs of the acknowledged filter.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS } from '../src/transport/http/limits.js';
import { serveHttp } from '../src/transport/http/serve.js';
import type { ListenId } from '../src/transport/listen.js';

const CONFIG = {
  host: '127.0.0.1',
  port: 0,
  allowedHosts: [],
  allowedOrigins: [],
  limits: DEFAULT_HTTP_LIMITS,
};

const listenRequest = (url: string, uris: string[], signal: AbortSignal) =>
  fetch(url, {
    method: 'POST',
    signal,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'subscriptions/listen',
      params: {
        notifications: { resourceSubscriptions: uris },
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
          [CLIENT_INFO_META_KEY]: { name: 'probe', version: '1' },
          [CLIENT_CAPABILITIES_META_KEY]: {},
        },
      },
    }),
  });

/** Reads one SSE `data:` message at a time off `body` (keep-alive comments skipped). */
function sseMessages(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return async (): Promise<{ method?: string; params?: Record<string, unknown> }> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended; left: ${buffer}`);
      buffer += decoder.decode(value, { stream: true });
    }
  };
}

describe('subscriptions/listen over HTTP', () => {
  it('acknowledges what ResourceListen honours, forwards only its updates, releases at the end', async () => {
    const opened: [ListenId, string[]][] = [];
    let closed: (id: ListenId) => void = () => {};
    const released = new Promise<ListenId>((resolve) => {
      closed = resolve;
    });
    let updated: (uri: string) => void = () => {};
    const handle = await serveHttp(
      () =>
        new McpServer(
          { name: 'probe', version: '1.0.0' },
          { capabilities: { resources: { subscribe: true } } },
        ),
      CONFIG,
      {
        onerror: () => {},
        resourceListen: (send) => {
          updated = send;
          return {
            open: async (id, uris) => {
              opened.push([id, uris]);
              return uris.filter((u) => u.startsWith('ok://'));
            },
            close: (id) => closed(id),
          };
        },
      },
    );
    const client = new AbortController();
    try {
      const response = await listenRequest(handle.url, ['no://b', 'ok://a'], client.signal);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const next = sseMessages(response.body as ReadableStream<Uint8Array>);
      const ack = await next();
      expect(ack.method).toBe('notifications/subscriptions/acknowledged');
      expect(ack.params?.notifications).toEqual({ resourceSubscriptions: ['ok://a'] });
      expect(opened).toEqual([[expect.any(String), ['no://b', 'ok://a']]]);
      // The stream is open (its acknowledgment arrived): both are published, in this order.
      updated('no://b');
      updated('ok://a');
      const update = await next();
      expect(update.method).toBe('notifications/resources/updated');
      expect(update.params?.uri).toBe('ok://a');
      client.abort();
      expect(await released).toBe(opened[0]?.[0]);
    } finally {
      client.abort();
      await handle.close();
    }
  });

  it('releases the subscription when its stream closes after a garbage collection', async () => {
    // The hostile run's F1: the release hung on the web Request's signal, which undici links to the
    // exchange's signal by a WeakRef; once collected, a closed stream kept its watches for good.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let closed: (id: ListenId) => void = () => {};
    const released = new Promise<ListenId>((resolve) => {
      closed = resolve;
    });
    const handle = await serveHttp(
      () =>
        new McpServer(
          { name: 'probe', version: '1.0.0' },
          { capabilities: { resources: { subscribe: true } } },
        ),
      CONFIG,
      {
        onerror: () => {},
        resourceListen: () => ({ open: async (_id, uris) => uris, close: (id) => closed(id) }),
      },
    );
    const client = new AbortController();
    try {
      const response = await listenRequest(handle.url, ['ok://a'], client.signal);
      const ack = await sseMessages(response.body as ReadableStream<Uint8Array>)();
      expect(ack.params?.notifications).toEqual({ resourceSubscriptions: ['ok://a'] });
      for (let i = 0; i < 5; i++) {
        gc();
        await new Promise((r) => setImmediate(r));
      }
      client.abort();
      const outcome = await Promise.race([
        released.then(() => 'released'),
        new Promise((r) => setTimeout(r, 10_000, 'still held')),
      ]);
      expect(outcome).toBe('released');
    } finally {
      client.abort();
      await handle.close();
    }
  });

  it('does not count open listen streams against the concurrency cap', async () => {
    const handle = await serveHttp(
      () =>
        new McpServer(
          { name: 'probe', version: '1.0.0' },
          { capabilities: { resources: { subscribe: true } } },
        ),
      { ...CONFIG, limits: { ...DEFAULT_HTTP_LIMITS, maxRequests: 2 } },
      { onerror: () => {}, resourceListen: () => ({ open: async (_id, uris) => uris, close: () => {} }) },
    );
    const client = new AbortController();
    try {
      for (let i = 0; i < 4; i++) {
        const response = await listenRequest(handle.url, [`ok://${i}`], client.signal);
        expect(response.status).toBe(200);
        const ack = await sseMessages(response.body as ReadableStream<Uint8Array>)();
        expect(ack.params?.notifications).toEqual({ resourceSubscriptions: [`ok://${i}`] });
      }
    } finally {
      client.abort();
      await handle.close();
    }
  });
});
