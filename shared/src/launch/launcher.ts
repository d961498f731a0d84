/**
 * The bin of every server (`dist/index.js`): runs the bundled server (`dist/server.cjs`) with V8's code
 * cache, so that a start after the first skips parsing and compiling the bundle's ~0.7–1.1 MB of
 * JavaScript (measured on the PostgreSQL server here: spawn → tools/list 383 → 273 ms median).
 *
 * Node 22.1+ has this built in (`module.enableCompileCache()`), Node 20 does not; the engines field
 * says >= 20.19, so the bin does it itself with the V8 API Node exposes on both (`vm.Script`'s
 * `cachedData`/`createCachedData`, the same mechanism as `v8-compile-cache`). Bundled alone (Node
 * built-ins only) by `refmcp-bundle --bin`, so it loads in a few milliseconds.
 *
 * Where: `$XDG_CACHE_HOME/refmcp` or `~/.cache/refmcp`, else `<tmpdir>/refmcp-<uid>` (see cache-dir.ts).
 * Disabled by `NODE_DISABLE_COMPILE_CACHE=1`, Node's own switch for its compile cache. Any failure to
 * read or write the cache only costs the time it would have saved: the server runs the same.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { compileCache } from './compile-cache.js';

/** The server's V8 flags (`refmcp-bundle --v8-flags`), set before the bundle is compiled: a code cache
 * made under other flags is rejected, so flags changed later would make every start recompile. */
declare const __REFMCP_V8_FLAGS: string;
if (__REFMCP_V8_FLAGS) setFlagsFromString(__REFMCP_V8_FLAGS);

const file = fileURLToPath(new URL('./server.cjs', import.meta.url));
const cache = compileCache(file);
// The CommonJS wrapper on its own line (lineOffset -1) keeps the bundle's line and column numbers.
const script = new Script(
  `(function (exports, require, module, __filename, __dirname) {\n${cache.source}\n})`,
  {
    filename: file,
    lineOffset: -1,
    cachedData: cache.data,
  },
);
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
// Saved once the bundle's top level has run (so the functions it compiled are included) and before
// anything async: V8 stamps a cache with the flags of the moment, and a server may change flags later
// (filesystem's young-generation growth), which would make every later start reject the cache.
if (cache.data === undefined || script.cachedDataRejected) cache.save(script.createCachedData());
