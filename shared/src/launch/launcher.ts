/**
 * The bin of every server (`dist/index.js`): runs the bundled server (`dist/server.cjs`) with V8's code
 * cache, so that a start after the first skips parsing and compiling the bundle's ~0.6–1.1 MB of
 * JavaScript (measured on the PostgreSQL server here: spawn → tools/list 383 → 273 ms median).
 *
 * Node 22.1+ has this built in (`module.enableCompileCache()`), Node 20 does not; the engines field
 * says >= 20.19, so the bin does it itself with the V8 API Node exposes on both (`vm.Script`'s
 * `cachedData`/`createCachedData`, the mechanism of `v8-compile-cache`). Bundled alone (Node
 * built-ins only) by `refmcp-bundle --bin`, so it loads in a few milliseconds.
 *
 * Where, and how the files are kept safe: compile-cache.ts. Disabled by `NODE_DISABLE_COMPILE_CACHE=1`
 * (Node's own switch for its compile cache), and when source maps are on (`--enable-source-maps`), so
 * stack traces map to the TypeScript sources. Any failure to read or write the cache only costs the
 * time it would have saved: the server runs the same.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { compileCache } from './compile-cache.js';
import { offerCodeCacheRefresh } from './refresh.js';
import { offerSchemaStore } from './schema-store.js';

/**
 * The server's V8 flags (`refmcp-bundle --v8-flags`), set before the bundle is compiled: a code cache
 * made under other flags is rejected, so flags changed later would make every start recompile.
 */
declare const __REFMCP_V8_FLAGS: string;
/** The npm package's name (names its cache files). */
declare const __REFMCP_PACKAGE: string;
if (__REFMCP_V8_FLAGS) setFlagsFromString(__REFMCP_V8_FLAGS);

const file = fileURLToPath(new URL('./server.cjs', import.meta.url));
const require = createRequire(file);
if (process.sourceMapsEnabled) {
  require(file);
} else {
  const cache = compileCache(file, __REFMCP_PACKAGE);
  // The tools' JSON Schemas converted by an earlier start of this build (server/schema-cache.ts).
  if (cache.schemas) offerSchemaStore(cache.schemas);
  // The CommonJS wrapper ends its first line (lineOffset -1), so the bundle keeps its line and column
  // numbers, and the bundle's own 'use strict' stays the first statement of the function.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {\n${cache.source}\n})`,
    { filename: file, lineOffset: -1, cachedData: cache.data },
  );
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, file, dirname(file));
  // Saved once the bundle's top level has run (so the functions it compiled are included) and before
  // anything async: V8 stamps a cache with the flags of the moment, and a server may change flags
  // later (filesystem's young-generation growth), which would make every later start reject it.
  if (cache.data === undefined || script.cachedDataRejected) {
    cache.save(script.createCachedData());
    // Again once the server has answered its first tools/list, with what it compiled for that (refresh.ts).
    offerCodeCacheRefresh(() => cache.save(script.createCachedData()));
  }
}
