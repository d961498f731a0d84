/**
 * What a server honours of a 2026-07-28 `subscriptions/listen` with `resourceSubscriptions`, for
 * both transports: over stdio the connection's instance answers (stdio/listen.ts, ListenAcks), over
 * HTTP one process-wide handler does (http/listen.ts), as the per-request instances are closed
 * before the stream opens. The acknowledgment lists only what `open` resolved with (spec
 * 2026-07-28, Subscriptions, "Acknowledgment": the acknowledged filter "reflects the subset the
 * server agreed to honor").
 */

/** A listen subscription's key: its JSON-RPC id over stdio, a process-unique string over HTTP. */
export type ListenId = string | number;

/** What a server does for resource subscriptions (2026-07-28 era). */
export interface ResourceListen {
  /**
   * Subscription `id` asks for updates of `uris`: start sending `notifications/resources/updated`
   * for those that will be honoured and resolve with them (a subset of `uris`; never rejects).
   */
  open(id: ListenId, uris: string[]): Promise<string[]>;
  /** Subscription `id` ended (cancelled, stream closed): stop what `open` started for it. */
  close(id: ListenId): void;
}
