/**
 * The official MCP Registry's publish-time rules beyond the JSON schema, checked before a release
 * so `mcp-publisher publish` cannot fail on them (modelcontextprotocol/registry: docs/reference/
 * server-json/official-registry-requirements.md and its validators): `$schema` present and the
 * vendored revision; description ≤ 100 characters; `version` and every package `version` an exact
 * semver (no range, no `latest`); an npm package's version equal to the package's own; npm only
 * from https://registry.npmjs.org; MCPB only from GitHub or GitLab releases, with its sha256;
 * `_meta` only under `io.modelcontextprotocol.registry/publisher-provided`, at most 4 KiB.
 */

/** The schema revision server.json files are written against (shared/schemas/server.schema.json). */
export const SERVER_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

const EXACT_SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided';

interface RegistryPackage {
  registryType?: string;
  registryBaseUrl?: string;
  identifier?: string;
  version?: string;
  fileSha256?: string;
  transport?: { type?: string; url?: string };
}

export interface RegistryEntry {
  $schema?: string;
  name?: string;
  description?: string;
  version?: string;
  packages?: RegistryPackage[];
  _meta?: Record<string, unknown>;
}

function versionProblem(what: string, version: string | undefined): string | undefined {
  if (version === undefined) return `${what} is missing`;
  if (version === 'latest') return `${what} is "latest": the registry needs the exact version`;
  if (!EXACT_SEMVER.test(version)) return `${what} "${version}" is not an exact semver version (no ranges)`;
  return undefined;
}

/**
 * Problems the registry would refuse `entry` for, as "<field>: <what>" lines. `packageVersion` is
 * the version of the npm package the entry describes (its package.json), `packageName` its name.
 */
export function publishRuleProblems(
  entry: RegistryEntry,
  packageName: string,
  packageVersion: string,
): string[] {
  const out: string[] = [];
  if (!entry.$schema) out.push('$schema: missing (the registry reads the revision from it)');
  else if (entry.$schema !== SERVER_SCHEMA_URL)
    out.push(`$schema: ${entry.$schema}, expected ${SERVER_SCHEMA_URL}`);
  const description = entry.description ?? '';
  if (description.length === 0) out.push('description: missing');
  if ([...description].length > 100)
    out.push(`description: ${[...description].length} characters, at most 100`);
  const v = versionProblem('version', entry.version);
  if (v) out.push(v);
  entry.packages?.forEach((p, i) => {
    const where = `packages[${i}] (${p.registryType} ${p.identifier})`;
    if (p.registryType === 'npm') {
      const pv = versionProblem(`${where}.version`, p.version);
      if (pv) out.push(pv);
      if (p.registryBaseUrl !== undefined && p.registryBaseUrl !== 'https://registry.npmjs.org')
        out.push(`${where}.registryBaseUrl: only https://registry.npmjs.org is accepted`);
      if (p.identifier === packageName && p.version !== packageVersion)
        out.push(`${where}.version ${p.version} ≠ the package's ${packageVersion}`);
    }
    if (p.registryType === 'mcpb') {
      if (!/^https:\/\/(github\.com|gitlab\.com)\/.+\/releases\/download\/.+\.mcpb$/.test(p.identifier ?? ''))
        out.push(`${where}.identifier: an MCPB must be a GitHub or GitLab release asset URL`);
      if (!/^[a-f0-9]{64}$/.test(p.fileSha256 ?? '')) out.push(`${where}.fileSha256: required for MCPB`);
    }
  });
  for (const key of Object.keys(entry._meta ?? {})) {
    if (key !== PUBLISHER_META) out.push(`_meta.${key}: dropped by the registry; use ${PUBLISHER_META}`);
  }
  const meta = entry._meta?.[PUBLISHER_META];
  if (meta !== undefined && JSON.stringify(meta).length > 4096)
    out.push(`_meta.${PUBLISHER_META}: over 4096 bytes`);
  return out;
}
