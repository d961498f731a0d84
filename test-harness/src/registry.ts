/**
 * registry.json: every `servers/*\/server.json` in the MCP registry API's list shape
 * (`{"servers":[{"server":{…}}],"metadata":{"count":N}}`, registry API v0 `GET /v0/servers`),
 * generated, never hand-edited; and the checks that keep each server.json valid (official schema,
 * vendored at shared/schemas/server.schema.json) and consistent with its package.json.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateJson } from '@refmcp/shared/json-schema';
import { publishRuleProblems, type RegistryEntry } from './registry-rules.js';

interface PackageJson {
  name: string;
  version: string;
  mcpName?: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
}

interface ServerJson {
  name: string;
  version: string;
  packages?: { registryType: string; identifier: string; version?: string }[];
  [key: string]: unknown;
}

export interface ServerPackage {
  /** Directory name under servers/, e.g. "filesystem". */
  dir: string;
  packageJson: PackageJson;
  serverJson: ServerJson;
}

/** Reads every servers/<dir> that has both package.json and server.json, sorted by dir. */
export function readServerPackages(repoRoot: string): ServerPackage[] {
  const serversDir = join(repoRoot, 'servers');
  return readdirSync(serversDir)
    .filter((dir) => existsSync(join(serversDir, dir, 'server.json')))
    .sort()
    .map((dir) => ({
      dir,
      packageJson: JSON.parse(readFileSync(join(serversDir, dir, 'package.json'), 'utf8')) as PackageJson,
      serverJson: JSON.parse(readFileSync(join(serversDir, dir, 'server.json'), 'utf8')) as ServerJson,
    }));
}

/** The registry list document for `servers`. */
export function buildRegistry(servers: ServerPackage[]) {
  return { servers: servers.map((s) => ({ server: s.serverJson })), metadata: { count: servers.length } };
}

/** registry.json's exact text for the repo (2-space JSON, trailing newline). */
export function registryText(repoRoot: string): string {
  return `${JSON.stringify(buildRegistry(readServerPackages(repoRoot)), null, 2)}\n`;
}

/**
 * Problems with the repo's registry data, as "<where>: <what>" lines (empty when all is well):
 * each server.json valid against the official schema and the registry's publish-time rules
 * (registry-rules.ts); package.json `mcpName` = server.json
 * `name`; versions equal; npm identifier = package name; bin `mcp-server-<dir>`; no internal
 * (@refmcp/*) runtime dependency; registry.json current.
 */
export function checkRegistry(repoRoot: string): string[] {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'shared/schemas/server.schema.json'), 'utf8'));
  const problems: string[] = [];
  for (const { dir, packageJson: pkg, serverJson: server } of readServerPackages(repoRoot)) {
    const where = `servers/${dir}`;
    for (const p of validateJson(schema, server)) problems.push(`${where}/server.json ${p}`);
    for (const p of publishRuleProblems(server as RegistryEntry, pkg.name, pkg.version))
      problems.push(`${where}/server.json ${p} (registry publish rule)`);
    if (pkg.name !== `@refmcp/server-${dir}`)
      problems.push(`${where}/package.json: name should be @refmcp/server-${dir}`);
    if (pkg.mcpName !== server.name)
      problems.push(`${where}: package.json mcpName ${pkg.mcpName} ≠ server.json name ${server.name}`);
    if (server.name !== `io.github.refmcp/server-${dir}`)
      problems.push(`${where}/server.json: name should be io.github.refmcp/server-${dir}`);
    if (server.version !== pkg.version)
      problems.push(`${where}: server.json version ${server.version} ≠ package.json ${pkg.version}`);
    if (!pkg.bin?.[`mcp-server-${dir}`])
      problems.push(`${where}/package.json: bin mcp-server-${dir} missing`);
    const npm = server.packages?.find((p) => p.registryType === 'npm');
    if (!npm) problems.push(`${where}/server.json: no npm package entry`);
    else {
      if (npm.identifier !== pkg.name)
        problems.push(`${where}/server.json: npm identifier ${npm.identifier} ≠ ${pkg.name}`);
      if (npm.version !== pkg.version)
        problems.push(`${where}/server.json: npm version ${npm.version} ≠ ${pkg.version}`);
    }
    for (const dep of Object.keys(pkg.dependencies ?? {})) {
      if (dep.startsWith('@refmcp/'))
        problems.push(
          `${where}/package.json: runtime dependency ${dep} cannot be installed from npm; bundle it`,
        );
    }
  }
  const path = join(repoRoot, 'registry.json');
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (current !== registryText(repoRoot)) problems.push('registry.json: out of date; run `npm run registry`');
  return problems;
}

/** Writes registry.json from the server.json files. */
export function writeRegistry(repoRoot: string): void {
  writeFileSync(join(repoRoot, 'registry.json'), registryText(repoRoot));
}
