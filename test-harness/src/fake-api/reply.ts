// Replies of the fake-API toolkit: what a handler answers, its thrown form, and what the fake
// records of every reply it sent.

/** What a handler answers: JSON `body` (default), or `raw` text/bytes with its own content type. */
export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  raw?: string | Uint8Array;
}

/**
 * The thrown form of a reply, so handlers can bail out from helpers (`throw new Reply(notFound)`);
 * the fake answers with `reply` (vendor headers still added by a {@link FakeVendor} wrapper).
 */
export class Reply extends Error {
  constructor(readonly reply: FakeReply) {
    super(`reply ${reply.status ?? 200}`);
  }
}

/** A reply as the fake sent it, recorded next to its request. */
export interface RecordedReply {
  status: number;
  /** Every header sent (names lower-case), content-type included. */
  headers: Record<string, string>;
  /** The JSON body as sent (parsed form); undefined for no body or a raw one. */
  body?: unknown;
  /** A raw (non-JSON) body as sent. */
  raw?: string | Uint8Array;
  /** True when an injected {@link Fault} answered instead of the route. */
  fault?: boolean;
}

/** The reply `reply` becomes on the wire: status defaulted, JSON content type added, no body for 204/304. */
export function finalReply(reply: FakeReply, fault = false): RecordedReply {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(reply.headers ?? {})) headers[k.toLowerCase()] = v;
  const out: RecordedReply = { status, headers, ...(fault ? { fault } : {}) };
  if (reply.raw !== undefined) out.raw = reply.raw;
  else if (reply.body !== undefined && status !== 204 && status !== 304) {
    out.body = reply.body;
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  return out;
}
