/**
 * The credentials a Drive client signs its requests with, from the environment:
 * - a service account (`GOOGLE_APPLICATION_CREDENTIALS`, optionally `GDRIVE_SUBJECT` for
 *   domain-wide delegation): google-auth-library's JWT client, its assertion posted to the token
 *   endpoint through the shared transporter (gtoken's URL is fixed; transport.ts redirects it);
 * - otherwise the OAuth token saved by `mcp-server-drive auth` or a sign-in through the client
 *   (`GDRIVE_CREDENTIALS_PATH`; on the first run, with no token yet at the default place and the
 *   client keys readable, the client starts without one: `signedIn()` is false until then), on an
 *   OAuth2Client built WITH the client id and secret from `GDRIVE_OAUTH_PATH`, so that an expired
 *   access token is refreshed (the reference's client had neither and died an hour after `auth`);
 *   a 401 on a token that looked fresh is refreshed once by the Drive client (not by
 *   `forceRefreshOnFailure`, which also refreshes on every 403: rate limits, export limits); each
 *   refreshed token is saved back atomically, 0600, refresh token kept.
 * Both refresh at most once at a time (google-auth-library shares one refresh per refresh token).
 */

import type { gaxios } from 'google-auth-library';
import { JWT, OAuth2Client } from 'google-auth-library';
import {
  CredentialsError,
  type OAuthKeys,
  readOAuthKeys,
  readSavedToken,
  readServiceAccount,
  type SavedToken,
  saveToken,
} from './files.js';
import { oauthKeysPath, tokenPath } from './paths.js';

/** Drive scopes (developers.google.com/drive/api/guides/api-specific-auth). */
export const DRIVE_SCOPES = {
  readonly: 'https://www.googleapis.com/auth/drive.readonly',
  full: 'https://www.googleapis.com/auth/drive',
} as const;

/** What {@link driveAuth} made: the client, where it came from, and the values to keep secret. */
export interface DriveAuth {
  client: OAuth2Client;
  kind: 'oauth' | 'service_account';
  /** The file the credentials came from (for messages). */
  source: string;
  /** True when a new access token can be had (a service account, or a refresh token and client keys). */
  refreshable: boolean;
  /** Token values never to show (the refresh token, the client secret, the current access token). */
  secrets(): string[];
  /** The OAuth client keys, when readable (an OAuth sign-in needs them). */
  keys?: OAuthKeys;
  /** False while an OAuth client started without a token (the first run) has none yet. */
  signedIn(): boolean;
  /** Puts a token a sign-in just saved in use (OAuth). */
  useToken(token: SavedToken): void;
}

/** Options of {@link driveAuth}. */
export interface DriveAuthOptions {
  env: NodeJS.ProcessEnv;
  tokenUrl: string;
  transporter: gaxios.Gaxios;
  /** The scope a service account asks for (OAuth tokens carry what `auth` was granted). */
  scope: string;
  /** A warning line for stderr. */
  warn: (line: string) => void;
}

/** The client for `options.env` (module comment). Errors: CredentialsError (exit 1 at startup). */
export function driveAuth(options: DriveAuthOptions): DriveAuth {
  const { env, tokenUrl, transporter } = options;
  const serviceAccount = env.GOOGLE_APPLICATION_CREDENTIALS;
  if (serviceAccount) {
    const key = readServiceAccount(serviceAccount);
    const client = new JWT({
      email: key.clientEmail,
      key: key.privateKey,
      ...(key.privateKeyId ? { keyId: key.privateKeyId } : {}),
      scopes: [options.scope],
      ...(env.GDRIVE_SUBJECT ? { subject: env.GDRIVE_SUBJECT } : {}),
      transporter,
    });
    return {
      client,
      kind: 'service_account',
      source: serviceAccount,
      refreshable: true,
      signedIn: () => true,
      useToken: () => {},
      secrets: () => [key.privateKey, client.credentials.access_token ?? ''].filter(Boolean),
    };
  }

  const file = tokenPath(env);
  const keysFile = oauthKeysPath(env);
  let keys: OAuthKeys | undefined;
  let keysError: CredentialsError | undefined;
  try {
    keys = readOAuthKeys(keysFile);
  } catch (error) {
    if (!(error instanceof CredentialsError)) throw error;
    keysError = error;
  }
  let token: SavedToken | undefined;
  try {
    token = readSavedToken(file);
  } catch (error) {
    // The first run: no token yet at the default place, and client keys to sign in with. A path the
    // operator named that is not there is still an error (case DR-08).
    const firstRun =
      error instanceof CredentialsError && error.missing && !env.GDRIVE_CREDENTIALS_PATH && keys;
    if (!firstRun) throw unsetAdvice(error, env);
  }
  if (keysError && token?.refresh_token)
    options.warn(`${keysError.message}; the access token will not be refreshed when it expires`);
  const client = new OAuth2Client({
    ...(keys ? { clientId: keys.clientId, clientSecret: keys.clientSecret } : {}),
    endpoints: { oauth2TokenUrl: tokenUrl },
    transporter,
  });
  if (token) client.setCredentials(token);
  let saved: SavedToken | undefined = token;
  client.on('tokens', (fresh) => {
    saved = {
      ...saved,
      ...withoutNulls(fresh),
      refresh_token: fresh.refresh_token ?? saved?.refresh_token ?? null,
    };
    try {
      saveToken(file, saved);
    } catch (error) {
      options.warn(`could not save the refreshed token to ${file}: ${(error as Error).message}`);
    }
  });
  return {
    client,
    kind: 'oauth',
    source: file,
    get refreshable() {
      return Boolean(keys && saved?.refresh_token);
    },
    ...(keys ? { keys } : {}),
    signedIn: () => saved !== undefined,
    useToken: (fresh) => {
      saved = fresh;
      client.setCredentials(fresh);
    },
    secrets: () =>
      [
        token?.refresh_token,
        keys?.clientSecret,
        client.credentials.access_token,
        client.credentials.refresh_token,
        token?.access_token,
      ].filter((s): s is string => typeof s === 'string' && s.length >= 6),
  };
}

function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as Partial<T>;
}

/**
 * `error` for a token file that GDRIVE_CREDENTIALS_PATH names and that does not exist, with the way
 * to a first run added to its one line: unset the variable, and the server starts signed out and
 * signs in through the client, saving the token at the default path (paths.ts). Other errors as
 * they are.
 */
function unsetAdvice(error: unknown, env: NodeJS.ProcessEnv): unknown {
  if (!(error instanceof CredentialsError && error.missing && env.GDRIVE_CREDENTIALS_PATH)) return error;
  const fallback = tokenPath({ ...env, GDRIVE_CREDENTIALS_PATH: '' });
  const advised = new CredentialsError(
    `${error.message}; or unset GDRIVE_CREDENTIALS_PATH to sign in through the client on the first tool call (the token is then saved to ${fallback})`,
  );
  advised.missing = true;
  return advised;
}
