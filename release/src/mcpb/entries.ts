/**
 * server.json's MCPB package entries, generated from the built bundles, never written by hand.
 * Per the MCP Registry's server.json schema (2025-12-11, shared/schemas/server.schema.json,
 * `Package`) and its publish rules for MCPB (official-registry-requirements.md): `registryType`
 * "mcpb", `identifier` the bundle's GitHub release asset URL, `version`, `fileSha256` the sha256
 * of that file (required), `transport` stdio. One entry per bundle: one for a server without a
 * native module, one per platform for one with (platforms.ts).
 *
 * The release workflow builds the bundles, attaches them to the server's GitHub release
 * (`<name>@<version>`), then writes these entries into the server.json it publishes
 * (`refmcp-release mcpb-entries`); `mcpbEntryProblems` refuses an entry whose version, URL or
 * sha256 does not match the package and the bundles it was built from.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEdits, type Edit, modify } from 'jsonc-parser';
import { type BundlePlatform, bundleFileName, bundleMatrix } from './platforms.js';

/** The repository whose GitHub releases carry the bundles (server.json `repository.url`). */
export const DEFAULT_REPO = 'refmcp/refmcp';

export interface McpbEntry {
  registryType: 'mcpb';
  identifier: string;
  version: string;
  fileSha256: string;
  transport: { type: 'stdio' };
}

export interface BuiltBundle {
  /** The file name, e.g. refmcp-server-sqlite-0.2.0-linux-x64.mcpb. */
  file: string;
  /** sha256 of its bytes, hex. */
  sha256: string;
}

/** The GitHub release asset URL of `file` on the release tagged `<name>@<version>` (the tag URL-encoded). */
export function releaseAssetUrl(repo: string, name: string, version: string, file: string): string {
  return `https://github.com/${repo}/releases/download/${encodeURIComponent(`${name}@${version}`)}/${file}`;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The bundles of `dir`@`version` in `bundlesDir` (searched one level deep, as artifacts download),
 * hashed. Throws when one the release needs is missing (every platform of a native server), a
 * bundle of another version is there, or two files of the same name are (naming both paths).
 */
export function readBuiltBundles(bundlesDir: string, dir: string, version: string): BuiltBundle[] {
  const files = readdirSync(bundlesDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.startsWith(`refmcp-server-${dir}-`) && e.name.endsWith('.mcpb'))
    .map((e) => ({ file: e.name, path: join(e.parentPath, e.name) }));
  const expected = bundleMatrix([{ dir, name: '', version }]).map((j) =>
    bundleFileName(dir, version, j.platform),
  );
  const byName = new Map<string, string>();
  for (const f of files) {
    const other = byName.get(f.file);
    if (other)
      throw new Error(`two bundles named ${f.file} in ${bundlesDir}: ${other} and ${f.path}; keep one`);
    byName.set(f.file, f.path);
  }
  const stray = files.filter((f) => !expected.includes(f.file)).map((f) => f.file);
  if (stray.length)
    throw new Error(`bundles in ${bundlesDir} that are not ${dir}@${version}'s: ${stray.join(', ')}`);
  const missing = expected.filter((name) => !files.some((f) => f.file === name));
  if (missing.length)
    throw new Error(`${dir}@${version}: bundles missing from ${bundlesDir}: ${missing.join(', ')}`);
  return expected.map((name) => {
    const found = files.find((f) => f.file === name) as { path: string };
    return { file: name, sha256: sha256(readFileSync(found.path)) };
  });
}

/** The MCPB entries of package `name`@`version` for `bundles`, in their order. */
export function mcpbEntries(
  repo: string,
  name: string,
  version: string,
  bundles: BuiltBundle[],
): McpbEntry[] {
  return bundles.map((b) => ({
    registryType: 'mcpb',
    identifier: releaseAssetUrl(repo, name, version, b.file),
    version,
    fileSha256: b.sha256,
    transport: { type: 'stdio' },
  }));
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };

/** `serverJsonText` with its MCPB entries replaced by `entries` (after the other packages); layout otherwise kept. */
export function withMcpbEntries(serverJsonText: string, entries: McpbEntry[]): string {
  let text = serverJsonText;
  const packages = packagesOf(JSON.parse(text) as { packages?: unknown });
  const edits: Edit[] = [];
  for (let i = packages.length - 1; i >= 0; i--) {
    if (packages[i]?.registryType === 'mcpb') edits.push(...modify(text, ['packages', i], undefined, FORMAT));
    text = applyEdits(text, edits.splice(0));
  }
  let at = packages.filter((p) => p.registryType !== 'mcpb').length;
  for (const entry of entries) {
    text = applyEdits(text, modify(text, ['packages', at++], entry, { ...FORMAT, isArrayInsertion: true }));
  }
  return text;
}

/**
 * server.json's `packages` (absent: none). Throws when it is not an array, naming the field
 * (server.schema.json: `packages` is an array of Package).
 */
export function packagesOf<T = { registryType?: string }>(serverJson: { packages?: unknown }): T[] {
  const packages = serverJson.packages ?? [];
  if (!Array.isArray(packages))
    throw new Error(
      `server.json "packages" must be an array of package entries (server.schema.json), found ${packages === null ? 'null' : typeof packages}`,
    );
  return packages as T[];
}

interface EntryLike {
  registryType?: string;
  identifier?: string;
  version?: string;
  fileSha256?: string;
}

/**
 * Problems with the MCPB entries of a server.json (as "packages[i] …: what" lines): each must be
 * of `name`@`version` — its `version` that, its URL the asset of a bundle of that version on the
 * `<name>@<version>` release of `repo` — and, when `bundles` (the built files) are given, the
 * entries must be exactly one per bundle with the bundle's sha256. So a version bump or a rebuilt
 * bundle cannot leave a stale entry.
 */
export function mcpbEntryProblems(
  serverJson: { packages?: unknown },
  name: string,
  version: string,
  opts: { repo?: string; dir?: string; bundles?: BuiltBundle[] } = {},
): string[] {
  const repo = opts.repo ?? DEFAULT_REPO;
  const dir = opts.dir ?? name.replace(/^@refmcp\/server-/, '');
  const allowed = new Map<string, BundlePlatform>(
    bundleMatrix([{ dir, name, version }]).map((j) => [
      releaseAssetUrl(repo, name, version, bundleFileName(dir, version, j.platform)),
      j.platform,
    ]),
  );
  const out: string[] = [];
  const seen = new Set<string>();
  if (serverJson.packages !== undefined && !Array.isArray(serverJson.packages))
    return ['packages: must be an array of package entries (server.schema.json)'];
  packagesOf<EntryLike>(serverJson).forEach((p, i) => {
    if (p.registryType !== 'mcpb') return;
    const where = `packages[${i}] (mcpb ${p.identifier})`;
    if (p.version !== version)
      out.push(`${where}.version ${p.version} ≠ the package's ${version}: stale entry`);
    if (!allowed.has(p.identifier ?? ''))
      out.push(
        `${where}.identifier: not the URL of a ${name}@${version} bundle on ${repo}'s releases (${[...allowed.keys()].join(' | ')})`,
      );
    if (seen.has(p.identifier ?? '')) out.push(`${where}: listed twice`);
    seen.add(p.identifier ?? '');
    if (opts.bundles) {
      const built = opts.bundles.find((b) => releaseAssetUrl(repo, name, version, b.file) === p.identifier);
      if (!built) out.push(`${where}: no such bundle was built`);
      else if (built.sha256 !== p.fileSha256)
        out.push(`${where}.fileSha256 ${p.fileSha256} ≠ the built bundle's ${built.sha256}`);
    }
  });
  for (const b of opts.bundles ?? []) {
    if (!seen.has(releaseAssetUrl(repo, name, version, b.file)))
      out.push(`${b.file}: built but has no MCPB entry`);
  }
  return out;
}

/**
 * Downloads each entry's file and compares its sha256 with `fileSha256` (what an MCP client does
 * before running it). Returns the problems (unreachable URL, other bytes); `fetchImpl` for tests.
 */
export async function downloadProblems(
  entries: EntryLike[],
  fetchImpl: typeof fetch = fetch,
): Promise<string[]> {
  const out: string[] = [];
  for (const e of entries.filter((p) => p.registryType === 'mcpb')) {
    const response = await fetchImpl(e.identifier ?? '', { redirect: 'follow' });
    if (!response.ok) {
      out.push(`${e.identifier}: HTTP ${response.status}`);
      continue;
    }
    const got = sha256(Buffer.from(await response.arrayBuffer()));
    if (got !== e.fileSha256) out.push(`${e.identifier}: served sha256 ${got} ≠ fileSha256 ${e.fileSha256}`);
  }
  return out;
}
