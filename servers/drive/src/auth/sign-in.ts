/**
 * Sign-in through the client for a Drive server started without a token (the first run, see
 * client.ts): the shared gate (shared/src/server/sign-in.ts) asks the user to open Google's consent
 * URL by URL elicitation, and this runs the same loopback flow as `mcp-server-drive auth`
 * (loopback.ts: `state`, PKCE, 127.0.0.1, the token saved 0600), then puts the token in use.
 * One flow at a time per process, bounded by `timeoutMs`; its listener is closed when it ends.
 * Off over HTTP unless the server listens on loopback (`off`): a loopback redirect only reaches a
 * server on the machine where the user's browser runs.
 */
import { commandHint, oneFlowAtATime, type SignIn, type SignInFlow } from '@refmcp/shared/server';
import type { DriveAuth } from './client.js';
import { oauthClient, startLoopbackFlow } from './loopback.js';

/** Options of {@link driveSignIn}. */
export interface DriveSignInOptions {
  auth: DriveAuth;
  scope: string;
  tokenUrl: string;
  /** Google's consent page (GOOGLE_OAUTH_AUTH_URL). */
  authUrl: string;
  tokenFile: string;
  /** How long one flow waits for the browser, in ms. */
  timeoutMs: number;
  /** Why sign-in through the client is off in this mode, when it is (HTTP on a non-loopback host). */
  off?: string;
}

/** The message shown with the URL: who asks, for what access. */
function askFor(scope: string): string {
  const access = scope.endsWith('.readonly') ? 'read your Google Drive' : 'read and change your Google Drive';
  return `Sign in with Google to let this MCP server ${access}: open the link and allow access. The call continues when you are signed in.`;
}

/** The SignIn of a Drive server (module comment). */
export function driveSignIn(options: DriveSignInOptions): SignIn {
  const { auth } = options;
  const start = async (): Promise<SignInFlow> => {
    const keys = auth.keys;
    if (options.off || !keys) throw new Error(options.off ?? 'no OAuth client keys to sign in with');
    const loopback = await startLoopbackFlow({
      client: oauthClient(keys, options.tokenUrl, options.authUrl),
      scope: options.scope,
      port: 0,
      timeoutMs: options.timeoutMs,
      tokenFile: options.tokenFile,
    });
    const flow: SignInFlow = {
      url: loopback.url,
      message: askFor(options.scope),
      done: loopback.done.then(
        (tokens) => auth.useToken(tokens),
        (error: Error) => {
          throw new Error(`${error.message}; call the tool again to sign in again`);
        },
      ),
      cancel: (reason) => loopback.cancel(reason),
    };
    return flow;
  };
  return {
    needed: () => !auth.signedIn(),
    ...oneFlowAtATime(start),
    unavailable: () => options.off,
    cannotAsk: () =>
      options.off ??
      `Google Drive is not signed in yet, and this client cannot open a sign-in link (it declares no URL elicitation). Run ${commandHint('mcp-server-drive', 'auth')} in a terminal, then call again.`,
  };
}
