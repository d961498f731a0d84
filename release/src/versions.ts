/**
 * Keeps each server's MCP Registry entry in step with its package after `changeset version`:
 * server.json `version` and the version of every npm entry of this package become the
 * package.json version; an MCPB entry of another version is removed (its sha256 is the old
 * bundle's; the release writes the new ones from the bundles it builds, mcpb/entries.ts). Edits
 * are made in place with jsonc-parser, so the file keeps its layout (the formatter's check stays
 * clean) and nothing else in it changes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readServerPackages, writeRegistry } from '@refmcp/test-harness';
import { applyEdits, type Edit, modify } from 'jsonc-parser';

interface PackageEntry {
  registryType?: string;
  identifier?: string;
  version?: string;
}

/**
 * The text of `serverJsonText` with its versions set to `version` for package `name`.
 * Returns the input unchanged when it is already current. Throws an Error when the text is not
 * JSON or its `packages` is not an array (the MCP Registry schema's shape), naming which.
 */
export function syncServerJsonText(serverJsonText: string, name: string, version: string): string {
  const json = JSON.parse(serverJsonText) as { version?: string; packages?: unknown };
  if (json.packages !== undefined && !Array.isArray(json.packages))
    throw new Error('"packages" is not an array (the MCP Registry schema wants a list of package entries)');
  const packages = (json.packages ?? []) as PackageEntry[];
  const format = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
  const edits: Edit[] = [];
  const mcpbStale: number[] = [];
  const previous = json.version;
  if (previous !== version) edits.push(...modify(serverJsonText, ['version'], version, format));
  packages.forEach((p, i) => {
    if (p?.registryType === 'npm' && p.identifier === name && p.version !== version) {
      edits.push(...modify(serverJsonText, ['packages', i, 'version'], version, format));
    }
    // An MCPB entry holds the sha256 of the previous version's bundle: dropped, the release
    // workflow writes the new version's from the bundles it builds (mcpb/entries.ts).
    if (p?.registryType === 'mcpb' && p.version !== version) mcpbStale.push(i);
  });
  let text = applyEdits(serverJsonText, edits);
  for (const i of mcpbStale.reverse())
    text = applyEdits(text, modify(text, ['packages', i], undefined, format));
  return text;
}

/** Brings every servers/*\/server.json and registry.json to the package.json versions; returns what changed. */
export function syncVersions(repoRoot: string): string[] {
  // Every file is checked before any is written, so a bad one leaves them all as they were.
  const writes = readServerPackages(repoRoot).map(({ dir, packageJson }) => {
    const path = join(repoRoot, 'servers', dir, 'server.json');
    const before = readFileSync(path, 'utf8');
    try {
      return {
        dir,
        path,
        before,
        after: syncServerJsonText(before, packageJson.name, packageJson.version),
        version: packageJson.version,
      };
    } catch (error) {
      throw new Error(`servers/${dir}/server.json: ${(error as Error).message}; no file was changed`);
    }
  });
  const changed: string[] = [];
  for (const { dir, path, before, after, version } of writes) {
    if (after === before) continue;
    writeFileSync(path, after);
    changed.push(`servers/${dir}/server.json → ${version}`);
  }
  const registryPath = join(repoRoot, 'registry.json');
  const before = readFileSync(registryPath, 'utf8');
  writeRegistry(repoRoot);
  if (readFileSync(registryPath, 'utf8') !== before) changed.push('registry.json');
  return changed;
}
