#!/usr/bin/env node
// Bundles a package's entry points (src/*.ts) into dist/*.js: one ESM file per entry with every
// dependency inlined except Node built-ins and the packages named by `--external`. Servers ship
// this output alone, so `npx` installs nothing else (no unresolvable @refmcp/shared) and cold
// start reads one file instead of resolving hundreds of modules.
// Usage: refmcp-bundle src/index.ts [src/other.ts …] [--external pkg …]
import { chmod } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { external: { type: 'string', multiple: true, default: [] } },
});
if (positionals.length === 0) {
  console.error('usage: refmcp-bundle ENTRY.ts [ENTRY.ts …] [--external PKG …]');
  process.exit(2);
}
// zod re-exports its 60 error-message locales as a namespace (`z.locales`), which keeps all of them in
// any bundle that imports zod as a namespace (the SDK does): 267 KB, a quarter of a server's bundle.
// Only English is ever used here (zod's default), so the namespace is cut down to it.
const englishZodLocalesOnly = {
  name: 'english-zod-locales-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
    }));
  },
};

await build({
  entryPoints: positionals,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  // Prefer a package's ESM build where it has one (e.g. jsonc-parser's UMD main hides its requires).
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  // Minified: half the bytes to read and parse at cold start, and ASCII only (V8 holds a source with any
  // non-ASCII character, even in a comment, as a two-byte string: 4 MB instead of 1 MB of heap). Names
  // are kept, so error names and stack traces read the same.
  minify: true,
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  external: values.external,
  plugins: [englishZodLocalesOnly],
  // CommonJS dependencies inside an ESM bundle still call require() for built-ins.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __refmcpCreateRequire } from 'node:module';\nconst require = __refmcpCreateRequire(import.meta.url);",
  },
});
for (const entry of positionals) await chmod(`dist/${basename(entry).replace(/\.ts$/, '.js')}`, 0o755);
