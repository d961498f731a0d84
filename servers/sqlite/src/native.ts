/**
 * better-sqlite3's compiled addon must be in place before the server says it is ready. npm installs a
 * prebuilt binary or compiles one (a minute or two); a host that gives up on a slow first `npx` start
 * can leave the package without it, and every call would then fail with "Could not locate the
 * bindings file". Checked by path at startup (the engine processes load the addon; loading it here too
 * would cost the main process memory): `build/Release/better_sqlite3.node`, where better-sqlite3's
 * install (prebuild-install or node-gyp) puts it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ConfigError } from '@refmcp/shared/server';

/**
 * Throws ConfigError (a startup error, exit 2) naming what to do when better-sqlite3 or its addon is
 * missing. `resolve` finds a module's file (default: Node's resolution from this module).
 */
export function checkNativeModule(
  resolve: (id: string) => string = createRequire(import.meta.url).resolve,
): void {
  let manifest: string;
  try {
    manifest = resolve('better-sqlite3/package.json');
  } catch {
    throw new ConfigError(
      'better-sqlite3 is not installed next to the server: reinstall @refmcp/server-sqlite',
    );
  }
  const addon = path.join(path.dirname(manifest), 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(addon)) {
    throw new ConfigError(
      `better-sqlite3's native module is missing (${addon}): its install did not finish. ` +
        'If you run the server through npx, delete the npx cache entry that holds it (~/.npm/_npx/<hash>, ' +
        'the directory above its node_modules), run "npx -y @refmcp/server-sqlite --version" once from a ' +
        'terminal and let npm finish (compiling takes a minute or two), then restart the host.',
    );
  }
}
