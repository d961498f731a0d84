#!/usr/bin/env node
// Writes src/reader/readability-source.gen.ts: the source text of @mozilla/readability's
// Readability.js as a string constant, so the bundled server can inject it into a page (the reader
// runs in the browser, on the live DOM, instead of pulling a DOM implementation into Node).
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const file = require.resolve('@mozilla/readability/Readability.js');
const { version } = JSON.parse(await readFile(require.resolve('@mozilla/readability/package.json'), 'utf8'));
const source = await readFile(file, 'utf8');
const out = new URL('../src/reader/readability-source.gen.ts', import.meta.url);
const text =
  `// Generated from @mozilla/readability ${version} (Apache-2.0) by scripts/embed-readability.mjs; do not edit.\n` +
  `export const READABILITY_VERSION = ${JSON.stringify(version)};\n` +
  `export const READABILITY_SOURCE = ${JSON.stringify(source)};\n`;
let current = '';
try {
  current = await readFile(out, 'utf8');
} catch {}
if (current !== text) await writeFile(out, text);
