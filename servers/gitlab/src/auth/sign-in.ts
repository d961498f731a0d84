/**
 * Sign-in through the client for a GitLab server given an OAuth application's client id
 * (GITLAB_OAUTH_CLIENT_ID: a non-confidential application) and no token: the shared gate
 * (shared/src/server/sign-in.ts) asks the user, by URL elicitation, to open the instance's device
 * verification page (`verification_uri_complete`, the code filled in) and authorize; the server
 * meanwhile polls the instance's token endpoint (GitLab 17.1+ device authorization grant, RFC 8628,
 * through the shared poller; docs.gitlab.com "OAuth 2.0 identity provider API → Device
 * authorization grant flow": `POST /oauth/authorize_device`, `POST /oauth/token`), then hands the
 * tokens to the session (session.ts: saved 0600, refreshed when they expire).
 * The flow itself is the shared device-grant SignIn (shared/src/server/device-sign-in.ts): one at a
 * time per process, bounded by GitLab's `expires_in`; cancelling it stops the polling. Off over HTTP reachable from other machines (`off`): one process
 * holds one sign-in, so a shared server would act for every caller as whoever signed in.
 */
import type { HttpPolicy } from '@refmcp/shared';
import { deviceFlowSignIn, type SignIn } from '@refmcp/shared/server';
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

/** The SignIn of a GitLab server (module comment). */
export function gitlabSignIn(options: GitLabSignInOptions): SignIn {
  const { session } = options;
  return deviceFlowSignIn({
    vendor: 'GitLab',
    deviceCodeUrl: new URL('oauth/authorize_device', options.instance).href,
    tokenUrl: new URL('oauth/token', options.instance).href,
    clientId: options.clientId,
    scope: options.scope,
    timeoutMs: options.policy.timeoutMs,
    userAgent: options.userAgent,
    log: options.log,
    needed: () => !session.signedIn,
    onToken: (token) => session.use(token),
    message: (code) =>
      `Sign in to GitLab (${options.instance.host}) to let this MCP server act as you with scope ${options.scope}: open the link, check that it shows the code ${code.user_code}, and authorize. The call continues when you have authorized it.`,
    cannotAsk: CANNOT_ASK,
    ...(options.off ? { off: options.off } : {}),
  });
}
