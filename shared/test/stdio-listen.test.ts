/**
 * ListenAcks (transport/stdio/listen.ts): a listen acknowledgment lists only the resource URIs the
 * server honours, nothing goes out ahead of a pending acknowledgment, and a cancelled listen is
 * released (issue 28).
 */
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ListenAcks, type ResourceListen } from '../src/transport/stdio/listen.js';

const ack = (id: string | number, notifications: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { notifications, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
});

function recorder(honour: (uris: string[]) => Promise<string[]>) {
  const opened: [string | number, string[]][] = [];
  const closed: (string | number)[] = [];
  const listen: ResourceListen = {
    open: (id, uris) => {
      opened.push([id, uris]);
      return honour(uris);
    },
    close: (id) => void closed.push(id),
  };
  return { listen, opened, closed };
}

describe('ListenAcks', () => {
  it('acknowledges only the URIs the server honours, keeping the other fields', async () => {
    const { listen, opened } = recorder(async (uris) => uris.filter((u) => u.startsWith('file:///ok/')));
    const acks = new ListenAcks(() => listen);
    const sent: unknown[] = [];
    await acks.send(
      ack('listen:1', {
        toolsListChanged: true,
        resourceSubscriptions: ['file:///ok/a', 'file:///etc/passwd'],
      }),
      async (m) => void sent.push(m),
    );
    expect(opened).toEqual([['listen:1', ['file:///ok/a', 'file:///etc/passwd']]]);
    expect(sent).toEqual([
      ack('listen:1', { toolsListChanged: true, resourceSubscriptions: ['file:///ok/a'] }),
    ]);
  });

  it('drops resourceSubscriptions when none is honoured; leaves the ack alone without a handler', async () => {
    const sent: unknown[] = [];
    const refusing = new ListenAcks(() => recorder(async () => []).listen);
    await refusing.send(ack(8, { resourceSubscriptions: ['file:///a'] }), async (m) => void sent.push(m));
    const failing = new ListenAcks(() => recorder(() => Promise.reject(new Error('boom'))).listen);
    await failing.send(ack(9, { resourceSubscriptions: ['file:///a'] }), async (m) => void sent.push(m));
    // A server that serves no ResourceListen (sqlite's memo) keeps the SDK's acknowledgment.
    const none = new ListenAcks(() => undefined);
    await none.send(ack(7, { resourceSubscriptions: ['memo://insights'] }), async (m) => void sent.push(m));
    expect(sent).toEqual([ack(8, {}), ack(9, {}), ack(7, { resourceSubscriptions: ['memo://insights'] })]);
  });

  it('sends nothing ahead of a pending acknowledgment, then everything in order', async () => {
    let release: (uris: string[]) => void = () => {};
    const { listen } = recorder(() => new Promise((resolve) => (release = resolve)));
    const acks = new ListenAcks(() => listen);
    const sent: unknown[] = [];
    const record = async (m: unknown) => void sent.push(m);
    const first = acks.send(ack(1, { resourceSubscriptions: ['file:///a'] }), record);
    const update = {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'file:///a' },
    };
    const second = acks.send(update, record);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
    release(['file:///a']);
    await Promise.all([first, second]);
    expect(sent).toEqual([ack(1, { resourceSubscriptions: ['file:///a'] }), update]);
    // With nothing pending, a message goes out at once.
    const third = { jsonrpc: '2.0', id: 3, result: {} };
    void acks.send(third, record);
    expect(sent.at(-1)).toBe(third);
  });

  it('releases a listen when the client cancels it, and only a listen it acknowledged URIs for', async () => {
    const { listen, closed } = recorder(async (uris) => uris);
    const acks = new ListenAcks(() => listen);
    await acks.send(ack('listen:2', { resourceSubscriptions: ['file:///a'] }), async () => {});
    const cancel = (requestId: unknown) => ({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId },
    });
    acks.received(cancel(99));
    acks.received(cancel('listen:2'));
    acks.received(cancel('listen:2'));
    expect(closed).toEqual(['listen:2']);
  });

  it('drops an update stamped for a subscription whose acknowledgment left its URI out', async () => {
    const { listen } = recorder(async (uris) => uris.filter((u) => u.startsWith('file:///ok/')));
    const acks = new ListenAcks(() => listen);
    const sent: unknown[] = [];
    const record = async (m: unknown) => void sent.push(m);
    await acks.send(ack('listen:4', { resourceSubscriptions: ['file:///ok/a', 'file:///no/b'] }), record);
    const updated = (uri: string, id?: string) => ({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri, ...(id ? { _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } : {}) },
    });
    for (const m of [
      updated('file:///no/b', 'listen:4'),
      updated('file:///ok/a', 'listen:4'),
      updated('file:///no/b', 'listen:5'),
    ])
      await acks.send(m, record);
    expect(sent.slice(1)).toEqual([updated('file:///ok/a', 'listen:4'), updated('file:///no/b', 'listen:5')]);
  });
});
