/**
 * The release tarballs published to a loopback Verdaccio, and the npm environment of a user whose
 * `@refmcp` scope (and every other package, through Verdaccio's uplink) points there. Used by the
 * rehearsal (test/rehearsal.test.ts) and the bench's first-start row.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readNpmUpstream } from './npm-config.js';
import type { Tarball } from './tarballs.js';
import { startVerdaccio, type Verdaccio } from './verdaccio.js';

const run = promisify(execFile);

export interface LoopbackRelease {
  registry: Verdaccio;
  /** npm's output of each `npm publish`, by package name. */
  published: Map<string, string>;
  /** The `.npmrc` of a user installing from it: the @refmcp scope and the default registry. */
  userNpmrc: string;
  close(): Promise<void>;
}

/**
 * Starts Verdaccio under `workDir` (uplink: this machine's npm registry) and publishes `tarballs`
 * with `npm publish`, all at once (`beforePublish` runs first, on the empty registry). Rejects with npm's message when a publish fails (Verdaccio is
 * stopped then).
 */
export async function publishToLoopback(
  workDir: string,
  tarballs: Tarball[],
  beforePublish?: (registryUrl: string) => Promise<void>,
): Promise<LoopbackRelease> {
  const registry = await startVerdaccio(join(workDir, 'verdaccio'), readNpmUpstream());
  const userconfig = join(workDir, 'publisher.npmrc');
  writeFileSync(userconfig, registry.npmrc);
  const published = new Map<string, string>();
  try {
    await beforePublish?.(registry.url);
    await Promise.all(
      tarballs.map(async (t) => {
        const { stdout, stderr } = await run(
          'npm',
          ['publish', t.file, '--access', 'public', '--registry', registry.url, '--userconfig', userconfig],
          { env: { ...process.env, npm_config_cache: join(workDir, 'publisher-cache') } },
        );
        published.set(t.name, `${stdout}${stderr}`);
      }),
    );
  } catch (error) {
    await registry.close();
    throw error;
  }
  return {
    registry,
    published,
    userNpmrc: `@refmcp:registry=${registry.url}\nregistry=${registry.url}\n`,
    close: () => registry.close(),
  };
}
