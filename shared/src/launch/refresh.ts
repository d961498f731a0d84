/**
 * The code cache's second save (see launcher.ts). The launcher saves a new cache as soon as the
 * bundle's top level has run, so that even a start that ends early leaves one; but what a server
 * compiles later to answer its first requests (the SDK's handlers, converting the tools' schemas for
 * `tools/list`) is compiled lazily and is not in that cache. So when it saved one, the launcher also
 * offers a one-shot refresh, and the server takes it once it has answered its first `tools/list`:
 * the cache is saved again with those functions in it, and later starts skip compiling them too.
 *
 * V8 stamps a cache with the flags of the moment it is made: a server that changed V8 flags before
 * its first `tools/list` (filesystem's heap.ts does only under load) leaves a cache the next start
 * rejects, and that start saves a fresh one — the same cost as a first start, never a wrong cache.
 *
 * The two sides are bundled apart (the launcher in `dist/index.js`, the server in `dist/server.cjs`)
 * and meet through one global symbol.
 */
const KEY = Symbol.for('refmcp.launch.refreshCodeCache');

type Slot = { [KEY]?: () => void };

/** Launcher side: `save` runs (at most once) when the server calls {@link refreshCodeCache}. */
export function offerCodeCacheRefresh(save: () => void): void {
  (globalThis as Slot)[KEY] = save;
}

/**
 * Server side: saves the code cache again if the launcher offered it (a first start), in a later
 * turn of the event loop (after the answer being sent now is written); else does nothing.
 */
export function refreshCodeCache(): void {
  const save = (globalThis as Slot)[KEY];
  if (!save) return;
  delete (globalThis as Slot)[KEY];
  setTimeout(save, 0).unref();
}
