/**
 * The directories a call may touch: the operator's allowed directories, narrowed (never widened)
 * by the client's MCP roots when the client offers them (2025-11-25 era; the 2026-07-28 era has no
 * server→client roots request, so the operator's directories apply as configured).
 */
import type { AllowedRoots } from '@refmcp/shared/paths';

export class Workspace {
  #current: AllowedRoots;
  #pending: Promise<void> = Promise.resolve();
  /** Whether the client's roots were ever asked for (until then the operator's directories apply as they are). */
  #clientRoots = false;

  constructor(readonly operator: AllowedRoots) {
    this.#current = operator;
  }

  /** The roots in force for the next call. */
  get roots(): AllowedRoots {
    return this.#current;
  }

  /** Tool calls wait for `update` (a roots refresh in flight) before they run. */
  track(update: Promise<void>): void {
    this.#clientRoots = true;
    this.#pending = update;
  }

  /** True once a roots refresh began: the roots may differ from the operator's. */
  get narrowedByClient(): boolean {
    return this.#clientRoots;
  }

  /** A workspace of its own for one client connection, starting from the operator's directories. */
  forConnection(): Workspace {
    return new Workspace(this.operator);
  }

  /** Resolves when no roots refresh is in flight. */
  settled(): Promise<void> {
    return this.#pending;
  }

  /** Applies the client's roots (file:// URIs); an empty list restores the operator's directories. */
  async applyClientRoots(uris: string[]): Promise<void> {
    this.#current = uris.length ? await this.operator.narrow(uris) : this.operator;
  }
}
