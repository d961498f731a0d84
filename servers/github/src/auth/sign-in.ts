/**
 * Sign-in through the client for a GitHub server given an OAuth app's client id
 * (GITHUB_OAUTH_CLIENT_ID) and no token: the shared gate (shared/src/server/sign-in.ts) asks the
 * user, by URL elicitation, to open GitHub's device verification page and enter a one-time code;
 * the server meanwhile polls GitHub's token endpoint (OAuth device flow, RFC 8628, through the
 * shared poller; GitHub docs "Authorizing OAuth apps → Device flow"), then saves the token
 * (token-file.ts, 0600) and uses it for every later call. GitHub sends no
 * `verification_uri_complete` (its documented response is device_code, user_code,
 * verification_uri, expires_in, interval), so the code is in the message.
 * One flow at a time per process, bounded by GitHub's `expires_in` (15 minutes); cancelling it
 * (the user declined) stops the polling. A token GitHub later refuses (401: revoked, expired)
 * is dropped by the client, and the next call signs in again.
 * Off over HTTP reachable from other machines (`off`): one process holds one token, so a shared
 * server would act for every caller as whoever signed in.
 */
import {
  DeviceFlowError,
  type DeviceToken,
  type HttpPolicy,
  pollDeviceToken,
  requestDeviceCode,
} from '@refmcp/shared';
import type { SignIn, SignInFlow } from '@refmcp/shared/server';
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

function why(error: unknown): string {
  if (error instanceof DeviceFlowError) {
    if (error.code === 'access_denied') return 'the user denied access on GitHub';
    if (error.code === 'expired_token' || error.code === 'timeout') return error.message;
    return `GitHub refused the device flow (${error.message})`;
  }
  return (error as Error).message;
}

/** The SignIn of a GitHub server (module comment). */
export function githubSignIn(options: GitHubSignInOptions): SignIn {
  const { github } = options;
  let current: SignInFlow | undefined;
  const live = new WeakSet<SignInFlow>();
  let starting: Promise<SignInFlow> | undefined;
  const request = (signal: AbortSignal) => ({
    clientId: options.clientId,
    timeoutMs: options.policy.timeoutMs,
    userAgent: options.userAgent,
    signal,
  });
  const start = async (): Promise<SignInFlow> => {
    if (options.off) throw new Error(options.off);
    const stop = new AbortController();
    const code = await requestDeviceCode(
      endpoint(options.webUrl, 'login/device/code'),
      options.scope,
      request(stop.signal),
    ).catch((error: unknown) => {
      throw new Error(why(error));
    });
    const done = pollDeviceToken({
      ...request(stop.signal),
      url: endpoint(options.webUrl, 'login/oauth/access_token'),
      code,
      onSlowDown: (seconds) => options.log(`GitHub asked to poll slower: every ${seconds} s`),
    }).then(
      (token: DeviceToken) => {
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
      (error: unknown) => {
        throw new Error(
          `${stop.signal.aborted ? String(stop.signal.reason) : why(error)}; call the tool again to sign in again`,
        );
      },
    );
    const url = code.verification_uri_complete ?? code.verification_uri;
    const flow: SignInFlow = {
      url,
      message: `Sign in to GitHub (${options.webUrl.host}) to let this MCP server act as you: open the link and enter the code ${code.user_code}. The call continues when you have authorized it.`,
      done,
      cancel: (reason) => stop.abort(reason),
    };
    live.add(flow);
    done
      .catch(() => {})
      .finally(() => {
        live.delete(flow);
        stop.abort('the sign-in ended');
      });
    return flow;
  };
  return {
    needed: () => !github.signedInToken,
    current: () => current,
    async begin() {
      if (current && live.has(current)) return { flow: current, fresh: false };
      if (starting) return { flow: await starting, fresh: false };
      starting = start();
      try {
        current = await starting;
        return { flow: current, fresh: true };
      } finally {
        starting = undefined;
      }
    },
    unavailable: () => options.off,
    cannotAsk: () => options.off ?? CANNOT_ASK,
  };
}
