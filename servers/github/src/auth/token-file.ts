/**
 * The token a GitHub sign-in saved (sign-in.ts): `GITHUB_OAUTH_TOKEN_PATH`, or `oauth-token.json`
 * in the user's config directory (`refmcp-github`, the shared userConfigDir layout), written
 * atomically 0600 as `{"host", "access_token", "token_type", "scope"}`. A file for another GitHub
 * host (github.com vs an Enterprise server) is not used.
 */
import path from 'node:path';
import { readCredentialsFile, userConfigDir, writeCredentialsFile } from '@refmcp/shared';

/** A saved sign-in. */
export interface SavedGitHubToken {
  /** The web host it was issued by, e.g. "github.com". */
  host: string;
  access_token: string;
  token_type?: string;
  /** The scopes GitHub granted (comma-separated, as GitHub sends them). */
  scope?: string;
}

/** The token file for `env` (module comment). */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  return path.resolve(
    env.GITHUB_OAUTH_TOKEN_PATH || path.join(userConfigDir(env, 'refmcp-github'), 'oauth-token.json'),
  );
}

/**
 * The token saved at `file` for `host`, or undefined when there is none, it is for another host,
 * or it is unreadable (`warn` then says why: a sign-in will replace it).
 */
export function readSavedToken(file: string, host: string, warn: (line: string) => void): string | undefined {
  let json: Partial<SavedGitHubToken>;
  try {
    json = JSON.parse(readCredentialsFile(file)) as Partial<SavedGitHubToken>;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT')
      warn(`cannot read the saved GitHub sign-in ${file} (${(error as Error).message}): signing in again`);
    return undefined;
  }
  const token = typeof json?.access_token === 'string' ? json.access_token.trim() : '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these would break the Authorization header
  if (!token || /[\s\u0000-\u001f\u007f]/.test(token) || json.host !== host) return undefined;
  return token;
}

/** Saves a sign-in's token to `file` (atomic, 0600). Errors: the file system's. */
export function saveToken(file: string, token: SavedGitHubToken): void {
  writeCredentialsFile(file, token);
}
