/**
 * The launcher hands the server its schemas file (compile-cache.ts, `CompileCache.schemas`): the
 * two sides are bundled apart (the launcher in `dist/index.js`, the server in `dist/server.cjs`)
 * and meet through one global symbol, as refresh.ts does. A server not started by the launcher
 * (tests running the sources, source maps on, no usable cache directory) finds no store and
 * converts its schemas as before.
 */
import type { SideFile } from './compile-cache.js';

const KEY = Symbol.for('refmcp.launch.schemaStore');

type Slot = { [KEY]?: SideFile };

/** Launcher side: offers `file` to the server. */
export function offerSchemaStore(file: SideFile): void {
  (globalThis as Slot)[KEY] = file;
}

/** Server side: the file the launcher offered, if any. */
export function schemaStore(): SideFile | undefined {
  return (globalThis as Slot)[KEY];
}
