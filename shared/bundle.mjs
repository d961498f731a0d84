#!/usr/bin/env node
// Bundles a package's entry points (src/*.ts) into dist/*.js: one ESM file per entry with every
// dependency inlined except Node built-ins and the packages named by `--external`. Servers ship
// this output alone, so `npx` installs nothing else (no unresolvable @refmcp/shared) and cold
// start reads one file instead of resolving hundreds of modules.
// Usage: refmcp-bundle [--bin src/index.ts [--v8-flags=FLAGS]] [src/other.ts …] [--external pkg …]
//                      [--asset pkg/file …]
// `--bin ENTRY` is a server's bin: ENTRY is bundled as CommonJS into dist/server.cjs and started by
// dist/index.js, shared/src/launch/launcher.ts, which runs it with V8's code cache (Node 20 has no
// module.enableCompileCache). `--v8-flags` are V8 flags the launcher sets before anything is compiled:
// a code cache is valid only under the flags it was made with, so a server sets its flags there, never
// at runtime. The other entries are ES modules, dist/<name>.js.
// `--worker ENTRY` (repeatable) bundles a worker_thread script as dist/<name>.js, an ES module whose
// dynamically imported libraries are split into chunks beside it, so a worker loads only what its task
// needs (the document worker: pdf.js for a PDF, SheetJS for a sheet). Nothing of it enters the server's
// own bundle, so it costs cold start nothing.
// `--asset PKG/FILE` copies a file that a bundled package reads beside its own script at run time
// (e.g. libpg-query's .wasm, located through __dirname) into dist/, resolved as an import of it.
import { chmod, copyFile, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    bin: { type: 'string' },
    'v8-flags': { type: 'string', default: '' },
    external: { type: 'string', multiple: true, default: [] },
    asset: { type: 'string', multiple: true, default: [] },
    worker: { type: 'string', multiple: true, default: [] },
  },
});
if (positionals.length === 0 && !values.bin) {
  console.error('usage: refmcp-bundle [--bin ENTRY.ts] [ENTRY.ts …] [--external PKG …]');
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

// dist holds this build's output only: nothing stale (an old bundle or map) is packed.
await rm('dist', { recursive: true, force: true });

// V8 drops a script's dynamic-import callback from functions it restores from a code cache ("A
// dynamic import callback was not specified"), so in the CommonJS bundle `import('pkg')` of an
// external package becomes a require() of it (each one has a CommonJS build).
function externalImportsAsRequire(externals) {
  return {
    name: 'external-imports-as-require',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import' && externals.includes(args.path)
          ? { path: args.path, namespace: 'external-require' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'external-require' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

const common = {
  bundle: true,
  platform: 'node',
  // Prefer a package's ESM build where it has one (e.g. jsonc-parser's UMD main hides its requires).
  mainFields: ['module', 'main'],
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
};

if (positionals.length > 0)
  await build({
    ...common,
    entryPoints: positionals,
    outdir: 'dist',
    format: 'esm',
    // CommonJS dependencies inside an ESM bundle still call require() for built-ins.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __refmcpCreateRequire } from 'node:module';\nconst require = __refmcpCreateRequire(import.meta.url);",
    },
  });

if (values.bin) {
  await build({
    ...common,
    entryPoints: [values.bin],
    outfile: 'dist/server.cjs',
    format: 'cjs',
    // import.meta.url (e.g. a file beside the bundle) means the bundle's own URL.
    define: { 'import.meta.url': '__refmcpImportMetaUrl' },
    plugins: [englishZodLocalesOnly, externalImportsAsRequire(values.external)],
    // Strict first (a directive must open the file; the ES modules it was built from were strict).
    banner: {
      js: "'use strict';var __refmcpImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    },
  });
  await build({
    ...common,
    entryPoints: [fileURLToPath(new URL('./src/launch/launcher.ts', import.meta.url))],
    outfile: 'dist/index.js',
    format: 'esm',
    sourcemap: false,
    define: {
      __REFMCP_V8_FLAGS: JSON.stringify(values['v8-flags']),
      __REFMCP_PACKAGE: JSON.stringify(JSON.parse(await readFile('package.json', 'utf8')).name),
    },
    banner: { js: '#!/usr/bin/env node' },
  });
}
if (values.worker.length > 0) {
  await build({
    ...common,
    entryPoints: values.worker,
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    banner: {
      js: "import { createRequire as __refmcpCreateRequire } from 'node:module';\nconst require = __refmcpCreateRequire(import.meta.url);",
    },
  });
}
const resolveFromPackage = createRequire(join(process.cwd(), 'package.json')).resolve;
for (const asset of values.asset) {
  const file = resolveFromPackage(asset);
  await copyFile(file, join('dist', basename(file)));
}
for (const entry of positionals) await chmod(`dist/${basename(entry).replace(/\.ts$/, '.js')}`, 0o755);
if (values.bin) await chmod('dist/index.js', 0o755);
