/**
 * The gate every release tarball passes before it is published: publint in strict mode (its
 * warnings are errors), the file list (only the bundle and its lazily loaded chunks, README,
 * server.json and package.json),
 * a size budget, no internal (@refmcp/*) or local (workspace:, file:, link:) runtime dependency,
 * `bin` paths as npm ≥ 11 keeps them (no leading `./`: npm rewrites and warns), and the MCP
 * Registry's ownership rule: the package's `mcpName` equals the name in its server.json
 * (registry docs, "package verification": the registry reads `mcpName` from the published package).
 */
import { readFileSync } from 'node:fs';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import type { Tarball } from './tarballs.js';

/** Files a server tarball may hold (paths inside `package/`). */
const ALLOWED_FILE =
  /^(package\.json|README\.md|server\.json|LICENSE|dist\/(chunks\/)?[\w.-]+\.(js|cjs|mjs|map|wasm|json))$/;
/** Files it must hold. */
const REQUIRED_FILES = ['package.json', 'README.md', 'server.json', 'dist/index.js'];

/**
 * Budgets in bytes. Each server bundles the SDK, zod and its own code into one script; the servers
 * that read documents (filesystem, drive, slack, search) also ship the document worker and its
 * chunks (pdf.js, SheetJS, mammoth, jimp: dist/chunks, loaded only when a document is read), the
 * largest part of their tarballs (drive: 3.0 MB packed, 11.4 MB unpacked). The .map files ship so
 * stack traces in bug reports point at source.
 */
export const BUDGET = { tarballBytes: 4_000_000, unpackedBytes: 15_000_000 };

const LOCAL_SPEC = /^(workspace:|file:|link:|portal:)/;

/** The gate's problems for `t`, as "<package>: <what>" lines; empty when it may be published. */
export async function gateProblems(t: Tarball, budget = BUDGET): Promise<string[]> {
  const out: string[] = [];
  const say = (what: string) => out.push(`${t.name}@${t.version}: ${what}`);

  const data = readFileSync(t.file);
  const lint = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer },
    strict: true,
    level: 'warning',
  });
  for (const message of lint.messages)
    say(`publint ${message.type}: ${formatMessage(message, lint.pkg, { color: false })}`);

  for (const f of t.files) if (!ALLOWED_FILE.test(f.path)) say(`unexpected file in the tarball: ${f.path}`);
  for (const required of REQUIRED_FILES) {
    if (!t.files.some((f) => f.path === required)) say(`missing from the tarball: ${required}`);
  }
  const unpacked = t.files.reduce((sum, f) => sum + f.bytes, 0);
  if (t.bytes > budget.tarballBytes)
    say(`tarball is ${t.bytes} bytes, over the budget of ${budget.tarballBytes}`);
  if (unpacked > budget.unpackedBytes)
    say(`unpacked size is ${unpacked} bytes, over the budget of ${budget.unpackedBytes}`);

  const pkg = t.packageJson;
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    for (const [dep, spec] of Object.entries(pkg[field] ?? {})) {
      if (dep.startsWith('@refmcp/')) say(`${field} has ${dep}: it is not published; bundle it into dist`);
      if (LOCAL_SPEC.test(spec))
        say(`${field} has ${dep}@${spec}: a local range cannot be installed from a registry`);
    }
  }

  const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
  if (Object.keys(bins).length === 0) say('no bin: `npx -y` would have nothing to run');
  for (const [command, path] of Object.entries(bins)) {
    if (path.startsWith('./'))
      say(`bin ${command} is "${path}": write "${path.slice(2)}" (npm 11 rewrites it and warns)`);
    if (!t.files.some((f) => f.path === path.replace(/^\.\//, '')))
      say(`bin ${command} → ${path} is not in the tarball`);
  }

  if (!t.serverJson) say('server.json is not in the tarball');
  else {
    if (pkg.mcpName !== t.serverJson.name)
      say(
        `mcpName ${pkg.mcpName} ≠ server.json name ${t.serverJson.name} (the registry refuses to publish it)`,
      );
    if (t.serverJson.version !== pkg.version)
      say(`server.json version ${t.serverJson.version} ≠ ${pkg.version}`);
  }
  return out;
}
