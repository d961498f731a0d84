/**
 * Tests that run shared from source need the document worker built (a worker_thread cannot load
 * TypeScript on Node 20): `useBuiltDocumentWorker()` bundles it once into a temporary directory, as
 * the servers' bundle script does, and points run.ts at it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { setDocumentWorker } from '../src/documents/run.js';

export async function useBuiltDocumentWorker(): Promise<void> {
  const outfile = join(mkdtempSync(join(tmpdir(), 'doc-worker-')), 'document-worker.mjs');
  await build({
    entryPoints: [new URL('../src/documents/document-worker.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  setDocumentWorker(outfile);
}
