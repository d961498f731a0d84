/**
 * The rehearsal's one departure from a user's machine: a native dependency installed with
 * `prebuild-install || node-gyp rebuild` (better-sqlite3) takes its binary from the one already
 * compiled in this workspace, offered as a local prebuild through prebuild-install's
 * `npm_config_<name>_local_prebuilds` (prebuild-install/util.js `localPrebuild`). A user gets the
 * same file from the package's GitHub release; here there is no route to it, and a compile takes
 * minutes. The download host points at a closed port and node-gyp's `nodedir` at an empty
 * directory, so a missing prebuild fails at once instead of reaching out or compiling.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** prebuild-install's asset name for this Node (util.js: `{name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz`). */
export function prebuildName(name: string, version: string): string {
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
    ?.header?.glibcVersionRuntime;
  const libc = process.platform === 'linux' && !glibc ? 'musl' : '';
  return `${name}-v${version}-node-v${process.versions.modules}-${process.platform}${libc}-${process.arch}.tar.gz`;
}

/** The env prefix prebuild-install reads per package (util.js `getEnvPrefix`). */
export function envPrefix(name: string): string {
  return `npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_').replace(/^_/, '')}`;
}

/**
 * Makes a local prebuild of native package `name` from its compiled copy installed for
 * `packageDir` (the server that depends on it) in `outDir`, and returns the environment that makes
 * its install script take it. Throws when the package is not installed or has no build/Release.
 */
export function localPrebuildEnv(name: string, packageDir: string, outDir: string): Record<string, string> {
  const dir = realpathSync(
    dirname(createRequire(join(packageDir, 'package.json')).resolve(`${name}/package.json`)),
  );
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  if (!existsSync(join(dir, 'build', 'Release'))) {
    throw new Error(`${name}@${version} in ${dir} has no compiled build/Release to offer as a prebuild`);
  }
  const assetDir = join(outDir, name);
  mkdirSync(assetDir, { recursive: true });
  const nodeFiles = execFileSync('find', ['build/Release', '-maxdepth', '1', '-name', '*.node'], {
    cwd: dir,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  execFileSync('tar', ['-czf', join(assetDir, prebuildName(name, version)), '-C', dir, ...nodeFiles], {
    stdio: 'pipe',
  });
  const noHeaders = join(outDir, 'no-node-headers');
  mkdirSync(noHeaders, { recursive: true });
  return {
    [`${envPrefix(name)}_local_prebuilds`]: assetDir,
    [`${envPrefix(name)}_binary_host`]: 'http://127.0.0.1:9/no-prebuilds',
    npm_config_nodedir: noHeaders,
  };
}
