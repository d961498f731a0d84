/**
 * The directories a call may touch: the operator's allowed directories, narrowed (never widened)
 * by the client's MCP roots when the client offers them (2025-11-25 era; the 2026-07-28 era has no
 * server→client roots request, so the operator's directories apply as configured).
 */
import type { AllowedRoots } from '@refmcp/shared/paths';

export class Workspace {
  #current: AllowedRoots;
  #pending: Promise<void> = Promise.resolve();

  constructor(readonly operator: AllowedRoots) {
    this.#current = operator;
  }

  /** The roots in force for the next call. */
  get roots(): AllowedRoots {
    return this.#current;
  }

  /** Tool calls wait for `update` (a roots refresh in flight) before they run. */
  track(update: Promise<void>): void {
    this.#pending = update;
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
