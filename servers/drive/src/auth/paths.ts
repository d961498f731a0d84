/**
 * Where the Drive server keeps its files: the OAuth client keys (`GDRIVE_OAUTH_PATH`) and the
 * saved token (`GDRIVE_CREDENTIALS_PATH`), by default in the user's config directory (env-paths'
 * layout: `$XDG_CONFIG_HOME/refmcp-drive` or `~/.config/refmcp-drive` on Linux,
 * `~/Library/Preferences/refmcp-drive` on macOS, `%APPDATA%\refmcp-drive\Config` on Windows) —
 * never next to the package, which under `npx` is a cache directory (the reference looked there).
 */
import path from 'node:path';
import { userConfigDir } from '@refmcp/shared';

/** The config directory for `env` (module comment). */
export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return userConfigDir(env, 'refmcp-drive', platform);
}

/** The OAuth client keys file: `GDRIVE_OAUTH_PATH`, or `gcp-oauth.keys.json` in {@link configDir}. */
export function oauthKeysPath(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.GDRIVE_OAUTH_PATH || path.join(configDir(env), 'gcp-oauth.keys.json'));
}

/** The token file: `GDRIVE_CREDENTIALS_PATH`, or `credentials.json` in {@link configDir}. */
export function tokenPath(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.GDRIVE_CREDENTIALS_PATH || path.join(configDir(env), 'credentials.json'));
}
