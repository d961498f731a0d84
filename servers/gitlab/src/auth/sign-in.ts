/**
 * Sign-in through the client for a GitLab server given an OAuth application's client id
 * (GITLAB_OAUTH_CLIENT_ID: a non-confidential application) and no token: the shared gate
 * (shared/src/server/sign-in.ts) asks the user, by URL elicitation, to open the instance's device
 * verification page (`verification_uri_complete`, the code filled in) and authorize; the server
 * meanwhile polls the instance's token endpoint (GitLab 17.1+ device authorization grant, RFC 8628,
 * through the shared poller; docs.gitlab.com "OAuth 2.0 identity provider API → Device
 * authorization grant flow": `POST /oauth/authorize_device`, `POST /oauth/token`), then hands the
 * tokens to the session (session.ts: saved 0600, refreshed when they expire).
 * One flow at a time per process, bounded by GitLab's `expires_in`; cancelling it (the user
 * declined) stops the polling. Off over HTTP reachable from other machines (`off`): one process
 * holds one sign-in, so a shared server would act for every caller as whoever signed in.
 */
import { DeviceFlowError, type HttpPolicy, pollDeviceToken, requestDeviceCode } from '@refmcp/shared';
import type { SignIn, SignInFlow } from '@refmcp/shared/server';
import type { OAuthSession } from './session.js';

/** Options of {@link gitlabSignIn}. */
export interface GitLabSignInOptions {
  session: OAuthSession;
  clientId: string;
  /** OAuth scopes asked for, space-separated ("api", or "read_api" under --read-only). */
  scope: string;
  /** The instance's web base URL (ends in "/"). */
  instance: URL;
  policy: HttpPolicy;
  userAgent: string;
  /** Writes one line to stderr. */
  log: (line: string) => void;
  /** Why sign-in through the client is off in this mode (HTTP reachable from other machines). */
  off?: string;
}

/** The error text for a client that cannot open URLs (see SignIn.cannotAsk). */
export const CANNOT_ASK =
  'GitLab is not signed in yet, and this client cannot open a sign-in link (it declares no URL elicitation). Set GITLAB_PERSONAL_ACCESS_TOKEN in the server environment (a token from GitLab User settings → Access tokens) and restart the server, or use a client that supports URL elicitation.';

function why(error: unknown): string {
  if (error instanceof DeviceFlowError) {
    if (error.code === 'access_denied') return 'the user denied access on GitLab';
    if (error.code === 'expired_token' || error.code === 'timeout') return error.message;
    return `GitLab refused the device authorization (${error.message})`;
  }
  return (error as Error).message;
}

/** The SignIn of a GitLab server (module comment). */
export function gitlabSignIn(options: GitLabSignInOptions): SignIn {
  const { session } = options;
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
      new URL('oauth/authorize_device', options.instance).href,
      options.scope,
      request(stop.signal),
    ).catch((error: unknown) => {
      throw new Error(why(error));
    });
    const done = pollDeviceToken({
      ...request(stop.signal),
      url: new URL('oauth/token', options.instance).href,
      code,
    }).then(
      (token) => session.use(token),
      (error: unknown) => {
        throw new Error(
          `${stop.signal.aborted ? String(stop.signal.reason) : why(error)}; call the tool again to sign in again`,
        );
      },
    );
    const flow: SignInFlow = {
      url: code.verification_uri_complete ?? code.verification_uri,
      message: `Sign in to GitLab (${options.instance.host}) to let this MCP server act as you with scope ${options.scope}: open the link, check that it shows the code ${code.user_code}, and authorize. The call continues when you have authorized it.`,
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
    needed: () => !session.signedIn,
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
