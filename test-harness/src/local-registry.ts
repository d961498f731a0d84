/**
 * A loopback npm registry, so a server whose tarball has real runtime dependencies can be installed
 * with `npx -y ./<tgz>` exactly as a user would — without the network and without a native compile
 * (the pack test, test/pack.test.ts, and the bench's first-start row, bench/src/workloads/firststart.ts):
 *
 * - it serves packuments and tarballs for the dependency closure of the server package, built from
 *   the packages already installed in this workspace (pnpm's virtual store: the same versions the
 *   lockfile chose), nothing else — a dependency the tarball forgot to declare is not found;
 * - native packages that install with `prebuild-install || node-gyp rebuild` (better-sqlite3) get a
 *   local prebuild made from the binary already compiled in the store, found through
 *   prebuild-install's `npm_config_<name>_local_prebuilds` (prebuild-install/util.js
 *   `localPrebuild`), so the install script succeeds offline in well under a second;
 * - the prebuild download host points back at this registry (which has none) and node-gyp's
 *   `nodedir` at an empty directory, so a missing prebuild is a fast, clear failure instead of a
 *   request to GitHub, a minutes-long compile or a download of Node headers.
 *
 * The published tarball of each dependency is reproduced from its installed files (the npm `files`
 * the package shipped), minus build output (`build/`), so the install script really runs.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  [key: string]: unknown;
}

interface Found {
  dir: string;
  manifest: Manifest;
}

export interface LocalRegistry {
  /** Environment for npm/npx: registry, local prebuilds, no compile, no network. */
  env: Record<string, string>;
  /** name@version of every package served. */
  packages: string[];
  close(): Promise<void>;
}

/** The directory of dependency `name` as Node resolves it from `fromDir` (no `exports` involved). */
function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name, 'package.json');
      if (existsSync(candidate)) return realpathSync(dirname(candidate));
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Every package `manifest` depends on, transitively, as installed under `rootDir`. */
function dependencyClosure(rootDir: string, manifest: Manifest): Found[] {
  const found = new Map<string, Found>();
  const visit = (fromDir: string, deps: Record<string, string>, optional: boolean) => {
    for (const name of Object.keys(deps)) {
      const dir = resolvePackageDir(name, fromDir);
      if (!dir) {
        if (optional) continue;
        throw new Error(`dependency ${name} (needed from ${fromDir}) is not installed in the workspace`);
      }
      const m = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      const key = `${m.name}@${m.version}`;
      if (found.has(key)) continue;
      found.set(key, { dir, manifest: m });
      visit(dir, m.dependencies ?? {}, false);
      visit(dir, m.optionalDependencies ?? {}, true);
    }
  };
  visit(rootDir, manifest.dependencies ?? {}, false);
  return [...found.values()];
}

/** Packs an installed package directory as an npm tarball (`package/` prefix), without build output. */
function packDirectory(dir: string, out: string): Buffer {
  execFileSync(
    'tar',
    [
      '-czf',
      out,
      '--exclude=./build',
      '--exclude=./node_modules',
      // pnpm's store hard-links files of equal content (@pgsql/types' types.js and enums.js);
      // npm drops hard-link entries when it unpacks, so store them as plain files.
      '--hard-dereference',
      '--transform',
      's,^\\.,package,',
      '-C',
      dir,
      '.',
    ],
    { stdio: 'pipe' },
  );
  return readFileSync(out);
}

/** prebuild-install's asset name for this Node (util.js: `{name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz`). */
function prebuildName(name: string, version: string): string {
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
    ?.header?.glibcVersionRuntime;
  const libc = process.platform === 'linux' && !glibc ? 'musl' : '';
  return `${name}-v${version}-node-v${process.versions.modules}-${process.platform}${libc}-${process.arch}.tar.gz`;
}

/** The env prefix prebuild-install reads per package (util.js `getEnvPrefix`). */
function envPrefix(name: string): string {
  return `npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_').replace(/^_/, '')}`;
}

/**
 * Starts a registry on 127.0.0.1 serving the dependency closure of the package in `packageDir`;
 * `workDir` receives the tarballs, prebuilds and helper script. Throws if a dependency is not
 * installed, or a native dependency has no compiled binary to reuse.
 */
export async function startLocalRegistry(packageDir: string, workDir: string): Promise<LocalRegistry> {
  const root = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  const closure = dependencyClosure(packageDir, root);
  const tarballs = join(workDir, 'registry-tarballs');
  const prebuilds = join(workDir, 'registry-prebuilds');
  mkdirSync(tarballs, { recursive: true });
  mkdirSync(prebuilds, { recursive: true });
  const env: Record<string, string> = {};

  const files = new Map<string, Buffer>();
  const packuments = new Map<
    string,
    { name: string; 'dist-tags': Record<string, string>; versions: Record<string, unknown> }
  >();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    const file = path.startsWith('/-/tarballs/') ? files.get(path.slice('/-/tarballs/'.length)) : undefined;
    const doc = file ? undefined : packuments.get(path.slice(1));
    if (file) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length });
      res.end(file);
    } else if (doc) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `not served by the local registry: ${path}` }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  for (const { dir, manifest } of closure) {
    const fileName = `${manifest.name.replace('/', '-')}-${manifest.version}.tgz`;
    const data = packDirectory(dir, join(tarballs, fileName));
    files.set(fileName, data);
    const doc = packuments.get(manifest.name) ?? { name: manifest.name, 'dist-tags': {}, versions: {} };
    doc.versions[manifest.version] = {
      ...manifest,
      dist: {
        tarball: `${base}/-/tarballs/${fileName}`,
        integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
        shasum: createHash('sha1').update(data).digest('hex'),
      },
    };
    doc['dist-tags'].latest = manifest.version;
    packuments.set(manifest.name, doc);

    if (/prebuild-install/.test(manifest.scripts?.install ?? '')) {
      const binaries = join(dir, 'build', 'Release');
      if (!existsSync(binaries)) {
        throw new Error(
          `${manifest.name}@${manifest.version} has no compiled build/Release to reuse as a prebuild`,
        );
      }
      const asset = join(prebuilds, manifest.name, prebuildName(manifest.name, manifest.version));
      mkdirSync(dirname(asset), { recursive: true });
      const nodeFiles = execFileSync('find', ['build/Release', '-maxdepth', '1', '-name', '*.node'], {
        cwd: dir,
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean);
      execFileSync('tar', ['-czf', asset, '-C', dir, ...nodeFiles], { stdio: 'pipe' });
      env[`${envPrefix(manifest.name)}_local_prebuilds`] = dirname(asset);
      // Were the local prebuild not taken, the download would go to this registry (a 404), not GitHub.
      env[`${envPrefix(manifest.name)}_binary_host`] = `${base}/-/no-prebuilds`;
    }
  }

  // node-gyp reads npm_config_nodedir: with no headers there it stops at once instead of compiling.
  const noHeaders = join(workDir, 'registry-no-node-headers');
  mkdirSync(noHeaders, { recursive: true });
  Object.assign(env, {
    npm_config_registry: `${base}/`,
    npm_config_offline: 'false',
    npm_config_prefer_online: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_nodedir: noHeaders,
  });
  return {
    env,
    packages: closure.map((f) => `${f.manifest.name}@${f.manifest.version}`),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
