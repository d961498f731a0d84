/**
 * The Drive server's credential files: the OAuth client keys Google's console downloads
 * (`{"installed"|"web": {client_id, client_secret, redirect_uris}}`), the saved token
 * (`{access_token, refresh_token, expiry_date, scope, token_type}`, what google-auth-library's
 * `Credentials` are) and a service-account key (`{type: "service_account", client_email,
 * private_key}`). Unreadable files are a {@link CredentialsError}: one line naming the path and the
 * variable to set (the CLI prints it and exits 1).
 */
import fs from 'node:fs';
import { writeCredentialsFile } from '@refmcp/shared';
import { commandHint } from '@refmcp/shared/server';

/** A credential file that is missing or unreadable; `message` is the one stderr line. */
export class CredentialsError extends Error {
  override name = 'CredentialsError';
  /** True when the file does not exist (ENOENT); false when it is there but unreadable. */
  missing = false;
}

/** The client id and secret of an OAuth client (an "installed" or "web" client). */
export interface OAuthKeys {
  clientId: string;
  clientSecret: string;
}

/** A saved OAuth token, as google-auth-library's Credentials. */
export interface SavedToken {
  access_token?: string | null;
  refresh_token?: string | null;
  expiry_date?: number | null;
  scope?: string;
  token_type?: string | null;
  id_token?: string | null;
}

/** A service-account key file's fields the JWT client needs. */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
}

function why(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES') return 'permission denied';
  if (error instanceof SyntaxError) return 'not valid JSON';
  return (error as Error).message;
}

/** `file` parsed as a JSON object; CredentialsError `${what} ${file}: ${reason}; ${advice}`. */
function readJson(file: string, what: string, advice: string): Record<string, unknown> {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SyntaxError('not an object');
    return value as Record<string, unknown>;
  } catch (error) {
    const failure = new CredentialsError(`cannot read ${what} ${file}: ${why(error)}; ${advice}`);
    failure.missing = (error as { code?: string }).code === 'ENOENT';
    throw failure;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** The OAuth client keys at `file` (GDRIVE_OAUTH_PATH). Errors: CredentialsError. */
export function readOAuthKeys(file: string): OAuthKeys {
  const advice =
    'set GDRIVE_OAUTH_PATH to the OAuth client keys JSON downloaded from the Google Cloud console';
  const json = readJson(file, 'the OAuth client keys', advice);
  const client = (json.installed ?? json.web ?? json) as Record<string, unknown>;
  const clientId = str(client.client_id);
  const clientSecret = str(client.client_secret);
  if (!clientId || !clientSecret)
    throw new CredentialsError(
      `cannot read the OAuth client keys ${file}: no client_id and client_secret; ${advice}`,
    );
  return { clientId, clientSecret };
}

/** The saved token at `file` (GDRIVE_CREDENTIALS_PATH). Errors: CredentialsError. */
export function readSavedToken(file: string): SavedToken {
  const advice = `set GDRIVE_CREDENTIALS_PATH to the token file, or run ${commandHint('mcp-server-drive', 'auth')} to create it`;
  const json = readJson(file, 'the Drive token', advice);
  if (!str(json.access_token) && !str(json.refresh_token))
    throw new CredentialsError(
      `cannot read the Drive token ${file}: no access_token or refresh_token; ${advice}`,
    );
  return json as SavedToken;
}

/** The service-account key at `file` (GOOGLE_APPLICATION_CREDENTIALS). Errors: CredentialsError. */
export function readServiceAccount(file: string): ServiceAccountKey {
  const advice = 'set GOOGLE_APPLICATION_CREDENTIALS to a service-account key JSON';
  const json = readJson(file, 'the service-account key', advice);
  const clientEmail = str(json.client_email);
  const privateKey = str(json.private_key);
  if (!clientEmail || !privateKey)
    throw new CredentialsError(
      `cannot read the service-account key ${file}: no client_email and private_key; ${advice}`,
    );
  return {
    clientEmail,
    privateKey,
    ...(str(json.private_key_id) ? { privateKeyId: json.private_key_id as string } : {}),
  };
}

/** Writes `token` to `file` atomically with mode 0600 (the shared writeCredentialsFile). */
export function saveToken(file: string, token: SavedToken): void {
  writeCredentialsFile(file, token);
}
