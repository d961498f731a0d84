/**
 * The platforms an MCPB bundle is built for. A bundle of a server with no native module runs
 * anywhere Node does ("any"); a server with one (sqlite: better-sqlite3) gets one bundle per
 * `<os>-<arch>`, built on a machine of that platform, where npm installs (and the bundle's smoke
 * test loads) that platform's prebuilt binary. `runner` is the GitHub-hosted runner label
 * (docs.github.com "GitHub-hosted runners": ubuntu-24.04-arm is arm64, macos-14 is Apple silicon,
 * macos-13 the last Intel image).
 */

/** Servers whose bundle holds a native module, so is built per platform. */
export const NATIVE = new Set(['sqlite']);

export const NATIVE_PLATFORMS = {
  'linux-x64': 'ubuntu-24.04',
  'linux-arm64': 'ubuntu-24.04-arm',
  'darwin-arm64': 'macos-14',
  'darwin-x64': 'macos-13',
  'win32-x64': 'windows-2022',
} as const;

export type NativePlatform = keyof typeof NATIVE_PLATFORMS;
/** "any", or the `<os>-<arch>` of a native server's bundle. */
export type BundlePlatform = 'any' | NativePlatform;

/** This machine's `<os>-<arch>` (Node's process.platform and process.arch). */
export const hostPlatform = (): string => `${process.platform}-${process.arch}`;

/**
 * The platform `dir`'s bundle is built for when `requested` is asked for (undefined: this
 * machine's for a native server, "any" otherwise). Throws a message saying what to do when a
 * native bundle is asked for another platform than this one (npm would install this machine's
 * binary into it) or for an unknown one, or a platform is asked of a server that has no native module.
 */
export function bundlePlatform(
  dir: string,
  requested?: string,
  host: string = hostPlatform(),
): BundlePlatform {
  if (!NATIVE.has(dir)) {
    if (requested === undefined || requested === 'any') return 'any';
    throw new Error(`servers/${dir} has no native module: its one bundle runs anywhere (omit --platform)`);
  }
  const platform = requested ?? host;
  if (!(platform in NATIVE_PLATFORMS))
    throw new Error(
      `no bundle platform ${platform} for servers/${dir}: one of ${Object.keys(NATIVE_PLATFORMS).join(', ')}`,
    );
  if (platform !== host)
    throw new Error(
      `the ${platform} bundle of servers/${dir} must be built on ${platform} (runner ${NATIVE_PLATFORMS[platform as NativePlatform]}), not on ${host}: npm installs this machine's native binary`,
    );
  return platform as NativePlatform;
}

/** The bundle's file name: `refmcp-server-<dir>-<version>.mcpb`, `-<os>-<arch>` before `.mcpb` for a native one. */
export function bundleFileName(dir: string, version: string, platform: BundlePlatform): string {
  return `refmcp-server-${dir}-${version}${platform === 'any' ? '' : `-${platform}`}.mcpb`;
}

export interface BundleJob {
  dir: string;
  name: string;
  version: string;
  platform: BundlePlatform;
  runner: string;
}

/** The release workflow's bundle matrix for `servers`: one job per server, one per platform for a native one. */
export function bundleMatrix(servers: { dir: string; name: string; version: string }[]): BundleJob[] {
  return servers.flatMap((s): BundleJob[] =>
    NATIVE.has(s.dir)
      ? Object.entries(NATIVE_PLATFORMS).map(([platform, runner]) => ({
          ...s,
          platform: platform as NativePlatform,
          runner,
        }))
      : [{ ...s, platform: 'any' as const, runner: 'ubuntu-24.04' }],
  );
}
