/**
 * Which servers the release must publish: those whose package.json version is not yet on the
 * registry (`npm view <name>@<version> version` prints nothing or fails with E404). This is the
 * version-exists guard: re-running a release after a partial failure publishes only what is missing.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readServerPackages } from '@refmcp/test-harness';

const run = promisify(execFile);

export interface Planned {
  dir: string;
  name: string;
  version: string;
}

/**
 * True when `registry` serves `name@version`. Rejects on any failure other than "not found"
 * (network, auth), so a broken registry never reads as "publish everything".
 */
export async function versionExists(name: string, version: string, registry: string): Promise<boolean> {
  try {
    const { stdout } = await run('npm', ['view', `${name}@${version}`, 'version', '--registry', registry], {
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    return stdout.trim() === version;
  } catch (error) {
    const text = `${(error as { stderr?: string }).stderr ?? ''}`;
    if (/E404|404 Not Found|is not in this registry/.test(text)) return false;
    throw new Error(`npm view ${name}@${version} failed: ${text.trim() || (error as Error).message}`);
  }
}

/** The servers whose current version `registry` does not serve yet, sorted by directory. */
export async function planRelease(repoRoot: string, registry: string): Promise<Planned[]> {
  const servers = readServerPackages(repoRoot).map(({ dir, packageJson }) => ({
    dir,
    name: packageJson.name,
    version: packageJson.version,
  }));
  const exists = await Promise.all(servers.map((s) => versionExists(s.name, s.version, registry)));
  return servers.filter((_, i) => !exists[i]);
}
