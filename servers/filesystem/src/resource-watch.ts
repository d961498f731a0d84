/**
 * File watches behind resource subscriptions: one chokidar watcher per subscribed path, a change
 * (modify, create, delete, replace) reported once per burst as the resource's URI. Bounded in
 * number; `closeAll` releases every watcher (shutdown, connection close).
 */
import type { FSWatcher } from 'chokidar';

export interface ResourceWatchOptions {
  /** Called with the URI of a watched resource that changed. */
  onChange(uri: string): void;
  /** Most watches held at once; `add` beyond it refuses. */
  max: number;
  /** Milliseconds a burst of events is collapsed into one notification. */
  debounceMs?: number;
  onError?(error: unknown): void;
}

/** Milliseconds to wait for a new watcher to be ready before the subscription is confirmed anyway. */
const READY_TIMEOUT_MS = 2000;

export class ResourceWatches {
  #watches = new Map<string, { watcher: FSWatcher; timer?: NodeJS.Timeout }>();
  #closed = false;

  constructor(private readonly opts: ResourceWatchOptions) {}

  get size(): number {
    return this.#watches.size;
  }

  has(uri: string): boolean {
    return this.#watches.has(uri);
  }

  /**
   * Watches `real` (a contained, canonical path; it need not exist yet) for `uri`. Idempotent.
   * Returns false when the limit is reached.
   */
  async add(uri: string, real: string, opts: { directory?: boolean } = {}): Promise<boolean> {
    // chokidar is loaded on the first subscription, not at startup (first, so the checks below stay atomic).
    const { watch } = await import('chokidar');
    if (this.#closed) return false;
    if (this.#watches.has(uri)) return true;
    if (this.#watches.size >= this.opts.max) return false;
    const watcher = watch(real, {
      ignoreInitial: true,
      followSymlinks: false,
      atomic: true,
      ...(opts.directory ? { depth: 0 } : {}),
    });
    const entry: { watcher: FSWatcher; timer?: NodeJS.Timeout } = { watcher };
    this.#watches.set(uri, entry);
    const fire = () => {
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        if (this.#watches.get(uri) === entry) this.opts.onChange(uri);
      }, this.opts.debounceMs ?? 50);
    };
    watcher.on('all', fire);
    watcher.on('error', (error) => this.opts.onError?.(error));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, READY_TIMEOUT_MS);
      watcher.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return true;
  }

  async remove(uri: string): Promise<void> {
    const entry = this.#watches.get(uri);
    if (!entry) return;
    this.#watches.delete(uri);
    if (entry.timer) clearTimeout(entry.timer);
    await entry.watcher.close().catch((error: unknown) => this.opts.onError?.(error));
  }

  async closeAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#watches.keys()].map((uri) => this.remove(uri)));
  }
}
