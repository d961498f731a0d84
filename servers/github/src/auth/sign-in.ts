/**
 * Sign-in through the client for a GitHub server given an OAuth app's client id
 * (GITHUB_OAUTH_CLIENT_ID) and no token: the shared gate (shared/src/server/sign-in.ts) asks the
 * user, by URL elicitation, to open GitHub's device verification page and enter a one-time code;
 * the server meanwhile polls GitHub's token endpoint (OAuth device flow, RFC 8628, through the
 * shared poller; GitHub docs "Authorizing OAuth apps → Device flow"), then saves the token
 * (token-file.ts, 0600) and uses it for every later call. GitHub sends no
 * `verification_uri_complete` (its documented response is device_code, user_code,
 * verification_uri, expires_in, interval), so the code is in the message.
 * The flow itself is the shared device-grant SignIn (shared/src/server/device-sign-in.ts): one at a
 * time per process, bounded by GitHub's `expires_in` (15 minutes); cancelling it stops the polling. A token GitHub later refuses (401: revoked, expired)
 * is dropped by the client, and the next call signs in again.
 * Off over HTTP reachable from other machines (`off`): one process holds one token, so a shared
 * server would act for every caller as whoever signed in.
 */
import type { HttpPolicy } from '@refmcp/shared';
import { deviceFlowSignIn, type SignIn } from '@refmcp/shared/server';
import type { GitHubClient } from '../github/client.js';
import { saveToken } from './token-file.js';

/** Options of {@link githubSignIn}. */
export interface GitHubSignInOptions {
  github: GitHubClient;
  clientId: string;
  /** OAuth scopes asked for, space-separated. */
  scope: string;
  /** The web origin serving /login/... (web-url.ts). */
  webUrl: URL;
  tokenFile: string;
  policy: HttpPolicy;
  userAgent: string;
  /** Writes one line to stderr. */
  log: (line: string) => void;
  /** Why sign-in through the client is off in this mode (HTTP reachable from other machines). */
  off?: string;
}

/** The error text for a client that cannot open URLs (see SignIn.cannotAsk). */
export const CANNOT_ASK =
  'GitHub is not signed in yet, and this client cannot open a sign-in link (it declares no URL elicitation). Set GITHUB_PERSONAL_ACCESS_TOKEN in the server environment (a token from GitHub Settings → Developer settings) and restart the server, or use a client that supports URL elicitation.';

function endpoint(web: URL, path: string): string {
  return new URL(path, web.href.endsWith('/') ? web.href : `${web.href}/`).href;
}

/** The SignIn of a GitHub server (module comment). */
export function githubSignIn(options: GitHubSignInOptions): SignIn {
  const { github } = options;
  return deviceFlowSignIn({
    vendor: 'GitHub',
    deviceCodeUrl: endpoint(options.webUrl, 'login/device/code'),
    tokenUrl: endpoint(options.webUrl, 'login/oauth/access_token'),
    clientId: options.clientId,
    scope: options.scope,
    timeoutMs: options.policy.timeoutMs,
    userAgent: options.userAgent,
    log: options.log,
    needed: () => !github.signedInToken,
    onToken: (token) => {
      github.useToken(token.access_token);
      try {
        saveToken(options.tokenFile, {
          host: options.webUrl.host,
          access_token: token.access_token,
          ...(token.token_type ? { token_type: token.token_type } : {}),
          ...(token.scope !== undefined ? { scope: token.scope } : {}),
        });
      } catch (error) {
        options.log(
          `warn: signed in, but cannot save the token to ${options.tokenFile} (${(error as Error).message}): the next start signs in again`,
        );
      }
    },
    message: (code) =>
      `Sign in to GitHub (${options.webUrl.host}) to let this MCP server act as you: open the link and enter the code ${code.user_code}. The call continues when you have authorized it.`,
    cannotAsk: CANNOT_ASK,
    ...(options.off ? { off: options.off } : {}),
  });
}
