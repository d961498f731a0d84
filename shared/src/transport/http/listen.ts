/**
 * 2026-07-28 resource subscriptions over HTTP. The SDK's `createMcpHandler` serves a
 * `subscriptions/listen` from a router of its own: it closes the request's server instance at once,
 * acknowledges the filter as it was asked, and delivers what is published on the handler's bus
 * (`handler.notify.resourceUpdated`), filtered by that acknowledged filter
 * (@modelcontextprotocol/server 2.4.0, createListenRouter). So the request is narrowed before the
 * SDK reads it: the process-wide {@link ResourceListen} is told the URIs asked for, and the request
 * goes on with only those it honours (as `parsedBody`, the handler's public pre-parsed-body input).
 * The SDK then acknowledges exactly those (spec 2026-07-28, Subscriptions, "Acknowledgment": the
 * acknowledged filter "reflects the subset the server agreed to honor") and forwards only their
 * updates to the stream. The subscription is released when its HTTP exchange ends (stream closed by
 * either side, or the request refused), told by the exchange's signal (see narrow).
 */
import { readRequestBody } from '@modelcontextprotocol/server';
import type { ResourceListen } from '../listen.js';

/** The method whose requests are narrowed; the SDK refuses a body whose method differs from `Mcp-Method`. */
const LISTEN = 'subscriptions/listen';

interface ListenBody {
  method?: unknown;
  params?: { notifications?: { resourceSubscriptions?: unknown } & Record<string, unknown> };
}

/** Narrows the `subscriptions/listen` requests of one HTTP handler through `listen`. */
export class HttpListens {
  /** Subscriptions opened so far: their keys, unique in the process (JSON-RPC ids repeat across clients). */
  #opened = 0;

  constructor(private readonly listen: ResourceListen) {}

  /**
   * The body to serve `request` with, when it is a `subscriptions/listen` (its `Mcp-Method` header
   * says so) asking for resource URIs: the same request with `resourceSubscriptions` cut to what
   * the server honours (left out when none is). Undefined for any other request, or a body that
   * cannot be read within `maxBodyBytes` or is malformed: the SDK reads and answers it as usual.
   * What is opened is closed when `ended` aborts: the HTTP exchange's own signal, held by its
   * response. Not `request.signal`: undici links a Request's signal to its parent through a WeakRef,
   * so once the Request is collected (route() has returned while the stream stays open) the abort
   * would never arrive and the watches would be held for good.
   */
  async narrow(request: Request, maxBodyBytes: number, ended: AbortSignal): Promise<unknown> {
    if (request.method !== 'POST' || request.headers.get('mcp-method')?.trim() !== LISTEN) return undefined;
    let body: ListenBody;
    try {
      const read = await readRequestBody(request.clone(), maxBodyBytes);
      if (read.tooLarge) return undefined;
      body = JSON.parse(read.text) as ListenBody;
    } catch {
      return undefined;
    }
    const filter = body?.params?.notifications;
    const asked = filter?.resourceSubscriptions;
    if (
      !filter ||
      body.method !== LISTEN ||
      !Array.isArray(asked) ||
      !asked.every((u) => typeof u === 'string')
    )
      return undefined;
    const id = `http:${++this.#opened}`;
    const honoured = await this.listen.open(id, asked).catch(() => []);
    const release = () => this.listen.close(id);
    if (ended.aborted) release();
    else ended.addEventListener('abort', release, { once: true });
    const { resourceSubscriptions: _asked, ...others } = filter;
    return {
      ...body,
      params: {
        ...body.params,
        notifications: { ...others, ...(honoured.length > 0 ? { resourceSubscriptions: honoured } : {}) },
      },
    };
  }
}
