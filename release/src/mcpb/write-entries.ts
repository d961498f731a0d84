/**
 * `refmcp-release mcpb-entries`: the release workflow's step before `mcp-publisher publish`.
 * Writes servers/<dir>/server.json's MCPB entries from the bundles built for this release, then
 * checks the file as the registry will (schema and publish rules, test-harness checkRegistry) and
 * the entries against the bundles (entries.ts), optionally against what the URLs serve.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRegistry, readServerPackages, writeRegistry } from '@refmcp/test-harness';
import {
  DEFAULT_REPO,
  downloadProblems,
  mcpbEntries,
  mcpbEntryProblems,
  readBuiltBundles,
  withMcpbEntries,
} from './entries.js';

/**
 * Replaces the MCPB entries of servers/`dir`/server.json (and registry.json) in `repoRoot` with
 * those of the bundles in `bundlesDir`. Returns the problems found afterwards (empty: ready to
 * publish). Throws when `dir` is not a server of the repo (a directory servers/<dir> with a
 * server.json), when server.json's `packages` is not an array, or when a bundle the release needs
 * is missing or there twice (readBuiltBundles).
 */
export async function writeMcpbEntries(
  repoRoot: string,
  dir: string,
  bundlesDir: string,
  opts: { repo?: string; verifyUrls?: boolean } = {},
): Promise<string[]> {
  const repo = opts.repo ?? DEFAULT_REPO;
  const known = readServerPackages(repoRoot).map((p) => p.dir);
  if (!known.includes(dir))
    throw new Error(`--server ${dir}: not a server of this repo (one of: ${known.join(', ')})`);
  const serverDir = join(repoRoot, 'servers', dir);
  const { name, version } = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const bundles = readBuiltBundles(bundlesDir, dir, version);
  const path = join(serverDir, 'server.json');
  const text = withMcpbEntries(readFileSync(path, 'utf8'), mcpbEntries(repo, name, version, bundles));
  writeFileSync(path, text);
  writeRegistry(repoRoot);
  const serverJson = JSON.parse(text) as { packages?: { registryType?: string }[] };
  const problems = [
    ...checkRegistry(repoRoot).filter((p) => p.startsWith(`servers/${dir}`)),
    ...mcpbEntryProblems(serverJson, name, version, { repo, dir, bundles }),
  ];
  if (opts.verifyUrls && problems.length === 0)
    problems.push(...(await downloadProblems(serverJson.packages ?? [])));
  return problems;
}
