/**
 * Startup configuration from the environment and flags. Bad flags are a ConfigError (exit 2,
 * one stderr line); missing or unreadable credentials are one stderr line naming the path and the
 * variable to set, and exit 1 (case DR-08).
 *
 * Environment: GDRIVE_CREDENTIALS_PATH (the token `auth` saved), GDRIVE_OAUTH_PATH (the OAuth
 * client keys), GOOGLE_APPLICATION_CREDENTIALS (+ GDRIVE_SUBJECT) for a service account,
 * GDRIVE_API_URL (default https://www.googleapis.com/), GDOCS_API_URL (default GDRIVE_API_URL when
 * that is set, else https://docs.googleapis.com/), GOOGLE_OAUTH_TOKEN_URL (default
 * https://oauth2.googleapis.com/token), GOOGLE_OAUTH_AUTH_URL (Google's consent page, default
 * https://accounts.google.com/o/oauth2/v2/auth).
 */
import {
  type ConfigInput,
  DEFAULT_MAX_RESPONSE_BYTES,
  HTTP_OPTIONS,
  httpOptionsHelp,
  httpPolicyFromFlags,
  intFlag,
  isLoopbackHost,
  parseBaseUrl,
  type SignIn,
} from '@refmcp/shared';
import { commandHint } from '@refmcp/shared/server';
import { DRIVE_SCOPES, driveAuth } from './auth/client.js';
import { CredentialsError } from './auth/files.js';
import { tokenPath } from './auth/paths.js';
import { driveSignIn } from './auth/sign-in.js';
import { DriveClient } from './drive/client.js';
import { googleFetch, googleTransporter } from './drive/transport.js';
import { FolderScope } from './scope.js';
import { TOOLSETS, WRITE_TOOLSETS } from './toolsets.js';

export interface Config {
  drive: DriveClient;
  /** `--folders`: undefined means everything the credentials can reach. */
  scope?: FolderScope;
  readOnly: boolean;
  /** Bytes of text one read returns. */
  readBytes: number;
  /** Bytes of an image or blob one read returns. */
  blobBytes: number;
  /** Where the credentials came from. */
  credentials: { kind: 'oauth' | 'service_account'; source: string };
  secrets: () => string[];
  /** Sign-in through the client, when the server started without a token (the first run). */
  signIn?: SignIn;
}

export const OPTIONS = {
  folders: { type: 'string' },
  'sign-in-timeout': { type: 'string' },
  ...HTTP_OPTIONS,
} as const;

export const OPTIONS_HELP = `Commands:
  mcp-server-drive auth    sign in with Google in a browser and save the token (run once)

Environment:
  GDRIVE_OAUTH_PATH               OAuth client keys JSON from the Google Cloud console
                                  (default <config dir>/refmcp-drive/gcp-oauth.keys.json)
  GDRIVE_CREDENTIALS_PATH         the token \`auth\` saves and the server refreshes
                                  (default <config dir>/refmcp-drive/credentials.json)
  GOOGLE_APPLICATION_CREDENTIALS  a service-account key instead of a user sign-in
  GDRIVE_SUBJECT                  with a service account: the user to act as (domain-wide delegation)
  GDRIVE_API_URL                  Drive API root (default https://www.googleapis.com/); https except loopback
  GDOCS_API_URL                   Docs API root, for a Doc's tabs (default GDRIVE_API_URL when set,
                                  else https://docs.googleapis.com/)
  GOOGLE_OAUTH_TOKEN_URL          token endpoint (default https://oauth2.googleapis.com/token)
  GOOGLE_OAUTH_AUTH_URL           consent page (default https://accounts.google.com/o/oauth2/v2/auth)

Options:
  --folders ID,ID          limit every tool to these folders (or Shared Drives) and what is inside them
  --sign-in-timeout S      first run without a token: how long a sign-in through the client waits
                           for the browser, in seconds (default 300)
${httpOptionsHelp({ service: 'Drive', writeNote: 'to stay clear of write quotas', searchNote: 'files.list searches' })}`;

/** The API roots, the token endpoint and the consent page from `env`. Errors: ConfigError. */
export function endpoints(env: NodeJS.ProcessEnv): {
  rootUrl: string;
  docsUrl: string;
  tokenUrl: string;
  authUrl: string;
} {
  const root = parseBaseUrl(env.GDRIVE_API_URL || 'https://www.googleapis.com/', 'GDRIVE_API_URL');
  // A redirected Drive API (a proxy, a test fake) redirects Docs too unless told otherwise: no
  // call then goes to Google's own host beside it.
  const docs = env.GDOCS_API_URL
    ? parseBaseUrl(env.GDOCS_API_URL, 'GDOCS_API_URL')
    : env.GDRIVE_API_URL
      ? root
      : parseBaseUrl('https://docs.googleapis.com/', 'GDOCS_API_URL');
  const token = parseBaseUrl(
    env.GOOGLE_OAUTH_TOKEN_URL || 'https://oauth2.googleapis.com/token',
    'GOOGLE_OAUTH_TOKEN_URL',
  );
  const auth = parseBaseUrl(
    env.GOOGLE_OAUTH_AUTH_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
    'GOOGLE_OAUTH_AUTH_URL',
  );
  return {
    authUrl: auth.href,
    rootUrl: root.href.endsWith('/') ? root.href : `${root.href}/`,
    docsUrl: docs.href.endsWith('/') ? docs.href : `${docs.href}/`,
    tokenUrl: token.href.replace(/\/+$/, ''),
  };
}

/** The scope to ask for: drive.readonly unless a write toolset is selected (and not --read-only). */
export function scopeFor(common: ConfigInput['common']): string {
  if (common.readOnly) return DRIVE_SCOPES.readonly;
  const wanted = common.toolsets ?? TOOLSETS.filter((t) => t.default).map((t) => t.name);
  const writes = wanted.includes('all') || wanted.some((t) => (WRITE_TOOLSETS as string[]).includes(t));
  return writes || common.tools ? DRIVE_SCOPES.full : DRIVE_SCOPES.readonly;
}

/** Writes `line` to stderr as this server's one line and exits 1. */
export function exitWith(line: string): never {
  process.stderr.write(`mcp-server-drive: ${line}\n`);
  process.exit(1);
}

export function configure({ values, env, common }: ConfigInput): Config {
  const { rootUrl, docsUrl, tokenUrl, authUrl } = endpoints(env);
  const policy = httpPolicyFromFlags(values);
  const scope = typeof values.folders === 'string' ? FolderScope.parse(values.folders) : undefined;
  const fetchImpl = googleFetch(tokenUrl, policy.timeoutMs, 16 * 1024 * 1024);
  const warn = (line: string) => process.stderr.write(`[refmcp-drive] warn: ${line}\n`);
  let auth: ReturnType<typeof driveAuth>;
  try {
    auth = driveAuth({
      env,
      tokenUrl,
      transporter: googleTransporter(fetchImpl),
      scope: scopeFor(common),
      warn,
    });
  } catch (error) {
    if (error instanceof CredentialsError) exitWith(error.message);
    throw error;
  }
  const signIn = auth.signedIn()
    ? undefined
    : driveSignIn({
        auth,
        scope: scopeFor(common),
        tokenUrl,
        authUrl,
        tokenFile: tokenPath(env),
        timeoutMs: intFlag(values, 'sign-in-timeout', 300, { min: 1, max: 3600 }) * 1000,
        ...(signInOff(common) ? { off: signInOff(common) } : {}),
      });
  const drive = new DriveClient({
    rootUrl,
    docsUrl,
    tokenUrl,
    auth: auth.client,
    get refreshable() {
      return auth.refreshable;
    },
    policy,
    secrets: auth.secrets,
    ...(signIn ? { unavailable: () => (signIn.needed() ? signIn.cannotAsk() : undefined) } : {}),
  });
  scope?.attach(drive);
  return {
    drive,
    ...(scope ? { scope } : {}),
    readOnly: common.readOnly,
    readBytes: 256 * 1024,
    blobBytes: Math.min(DEFAULT_MAX_RESPONSE_BYTES, 1024 * 1024),
    credentials: { kind: auth.kind, source: auth.source },
    secrets: auth.secrets,
    ...(signIn ? { signIn } : {}),
  };
}

/**
 * Why sign-in through the client is off, or undefined over stdio and over HTTP bound to loopback:
 * the loopback redirect only reaches this server from a browser on its machine, and a server other
 * machines can reach would sign everyone in as whoever signed in first.
 */
function signInOff(common: ConfigInput['common']): string | undefined {
  const http = common.http;
  if (!http) return undefined;
  const remote = !isLoopbackHost(http.host) || http.allowedHosts.some((h) => !isLoopbackHost(h));
  return remote
    ? `Google Drive is not signed in yet, and sign-in through the client is off for a server reachable from other machines (HTTP on ${http.host}): run ${commandHint('mcp-server-drive', 'auth')} on the server's machine, then call again.`
    : undefined;
}
