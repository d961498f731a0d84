/**
 * Resource subscriptions of the 2026-07-28 era over stdio (`subscriptions/listen` with
 * `resourceSubscriptions`). The SDK's stdio entry serves the listen request itself and acknowledges
 * every URI asked for when the server declares `resources.subscribe`, without telling the server
 * instance which URIs those are (@modelcontextprotocol/server 2.4.0, StdioListenRouter). So the
 * acknowledgment is rewritten on its way out: the server's {@link ResourceListen} is told the URIs
 * and answers the ones it will send `notifications/resources/updated` for, and only those are
 * acknowledged (spec 2026-07-28, Subscriptions, "Acknowledgment": the acknowledged filter "reflects
 * the subset the server agreed to honor"). Outbound messages wait behind a pending acknowledgment,
 * so none carrying its subscription id goes out before it (same section: the acknowledgment "MUST
 * be the first message carrying the subscription's ID"). The SDK's router stamps updates by the URIs
 * asked for, not those acknowledged: an update stamped for a subscription whose acknowledgment left
 * its URI out is dropped. A `notifications/cancelled` naming a listen request ends that
 * subscription's share of the watches.
 */
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { ListenId, ResourceListen } from '../listen.js';

export type { ResourceListen } from '../listen.js';

type Id = ListenId;

interface Message {
  method?: unknown;
  params?: Record<string, unknown>;
}

/** The subscription id and filter of an acknowledgment listing resource URIs, else undefined. */
function resourceAck(message: unknown): { id: Id; uris: string[] } | undefined {
  const { method, params } = (message ?? {}) as Message;
  if (method !== 'notifications/subscriptions/acknowledged' || !params) return undefined;
  const id = (params._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META_KEY];
  const uris = (params.notifications as { resourceSubscriptions?: unknown } | undefined)
    ?.resourceSubscriptions;
  if ((typeof id !== 'string' && typeof id !== 'number') || !Array.isArray(uris)) return undefined;
  return { id, uris: uris.filter((u): u is string => typeof u === 'string') };
}

/**
 * Routes a stdio connection's listen acknowledgments through the current server instance's
 * {@link ResourceListen} (`current()`; a server that registered none keeps the SDK's
 * acknowledgment as it is).
 */
export class ListenAcks {
  /** While an acknowledgment is pending, the outbound messages queued behind it, in order. */
  #tail: Promise<unknown> = Promise.resolve();
  #queued = 0;
  /** Narrowed subscriptions and the URIs each was acknowledged for (its updates; release on cancel). */
  readonly #acked = new Map<Id, Set<string>>();

  constructor(private readonly current: () => ResourceListen | undefined) {}

  /** Sends `message` with `send` after every earlier message, its resource URIs narrowed if it is an acknowledgment. */
  send<M>(message: M, send: (message: M) => Promise<void>): Promise<void> {
    const ack = this.current() ? resourceAck(message) : undefined;
    if (!ack && this.#queued === 0) return this.#unacknowledged(message) ? Promise.resolve() : send(message);
    this.#queued++;
    const sent = this.#tail.then(async () => {
      if (ack) return send(await this.#narrowed(message, ack));
      if (!this.#unacknowledged(message)) return send(message);
    });
    this.#tail = sent.catch(() => {}).finally(() => this.#queued--);
    return sent;
  }

  /** Observes an inbound message: a cancel of a listen request releases its subscription. */
  received(message: unknown): void {
    const { method, params } = (message ?? {}) as Message;
    if (method !== 'notifications/cancelled') return;
    const id = params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const uris = this.#acked.get(id);
    this.#acked.delete(id);
    if (uris?.size) this.current()?.close(id);
  }

  /** Whether `message` is a resource update stamped for a subscription not acknowledged for its URI. */
  #unacknowledged(message: unknown): boolean {
    if (this.#acked.size === 0) return false;
    const { method, params } = (message ?? {}) as Message;
    if (method !== 'notifications/resources/updated' || !params) return false;
    const id = (params._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META_KEY];
    const uris = typeof id === 'string' || typeof id === 'number' ? this.#acked.get(id) : undefined;
    return uris !== undefined && !uris.has(params.uri as string);
  }

  async #narrowed<M>(message: M, ack: { id: Id; uris: string[] }): Promise<M> {
    const listen = this.current();
    if (!listen) return message;
    const honoured = await listen.open(ack.id, ack.uris).catch(() => []);
    this.#acked.set(ack.id, new Set(honoured));
    const params = (message as Message).params ?? {};
    const { resourceSubscriptions: _asked, ...others } = params.notifications as Record<string, unknown>;
    return {
      ...message,
      params: {
        ...params,
        notifications: { ...others, ...(honoured.length > 0 ? { resourceSubscriptions: honoured } : {}) },
      },
    };
  }
}
