/**
 * The tokens a GitLab sign-in saved (sign-in.ts, session.ts): `GITLAB_OAUTH_TOKEN_PATH`, or
 * `oauth-token.json` in the user's config directory (`refmcp-gitlab`, the shared userConfigDir
 * layout), written atomically 0600 as `{"instance", "access_token", "refresh_token", "expires_at",
 * "scope", "token_type"}`. A file for another instance (its web base URL differs) is not used.
 */
import path from 'node:path';
import { readCredentialsFile, userConfigDir, writeCredentialsFile } from '@refmcp/shared';

/** A saved sign-in. */
export interface SavedGitLabToken {
  /** The instance's web base URL it was issued by, e.g. "https://gitlab.com/". */
  instance: string;
  access_token: string;
  /** GitLab's refresh token (single use: each refresh returns a new one). */
  refresh_token?: string;
  /** When the access token expires, in epoch seconds (GitLab: 2 hours after issue). */
  expires_at?: number;
  /** The scopes granted, space-separated. */
  scope?: string;
  token_type?: string;
}

/** The token file for `env` (module comment). */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  return path.resolve(
    env.GITLAB_OAUTH_TOKEN_PATH || path.join(userConfigDir(env, 'refmcp-gitlab'), 'oauth-token.json'),
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these would break the Authorization header
const BAD_TOKEN = /[\s\u0000-\u001f\u007f]/;

/**
 * The sign-in saved at `file` for `instance`, or undefined when there is none, it is for another
 * instance, or it is unreadable (`warn` then says why: a sign-in will replace it).
 */
export function readSavedToken(
  file: string,
  instance: string,
  warn: (line: string) => void,
): SavedGitLabToken | undefined {
  let json: Partial<SavedGitLabToken>;
  try {
    json = JSON.parse(readCredentialsFile(file)) as Partial<SavedGitLabToken>;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT')
      warn(`cannot read the saved GitLab sign-in ${file} (${(error as Error).message}): signing in again`);
    return undefined;
  }
  const token = typeof json?.access_token === 'string' ? json.access_token.trim() : '';
  if (!token || BAD_TOKEN.test(token) || json.instance !== instance) return undefined;
  const refresh = typeof json.refresh_token === 'string' && !BAD_TOKEN.test(json.refresh_token);
  return {
    instance,
    access_token: token,
    ...(refresh ? { refresh_token: json.refresh_token as string } : {}),
    ...(typeof json.expires_at === 'number' ? { expires_at: json.expires_at } : {}),
    ...(typeof json.scope === 'string' ? { scope: json.scope } : {}),
    ...(typeof json.token_type === 'string' ? { token_type: json.token_type } : {}),
  };
}

/** Saves a sign-in's tokens to `file` (atomic, 0600). Errors: the file system's. */
export function saveToken(file: string, token: SavedGitLabToken): void {
  writeCredentialsFile(file, token);
}
