/**
 * Where the Drive server keeps its files: the OAuth client keys (`GDRIVE_OAUTH_PATH`) and the
 * saved token (`GDRIVE_CREDENTIALS_PATH`), by default in the user's config directory (env-paths'
 * layout: `$XDG_CONFIG_HOME/refmcp-drive` or `~/.config/refmcp-drive` on Linux,
 * `~/Library/Preferences/refmcp-drive` on macOS, `%APPDATA%\refmcp-drive\Config` on Windows) —
 * never next to the package, which under `npx` is a cache directory (the reference looked there).
 */
import os from 'node:os';
import path from 'node:path';

/** The config directory for `env` (module comment). */
export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'refmcp-drive');
  if (platform === 'win32')
    return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'refmcp-drive', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'refmcp-drive');
}

/** The OAuth client keys file: `GDRIVE_OAUTH_PATH`, or `gcp-oauth.keys.json` in {@link configDir}. */
export function oauthKeysPath(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.GDRIVE_OAUTH_PATH || path.join(configDir(env), 'gcp-oauth.keys.json'));
}

/** The token file: `GDRIVE_CREDENTIALS_PATH`, or `credentials.json` in {@link configDir}. */
export function tokenPath(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.GDRIVE_CREDENTIALS_PATH || path.join(configDir(env), 'credentials.json'));
}
