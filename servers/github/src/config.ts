/**
 * Startup configuration from the environment and flags. Bad input is a ConfigError (exit 2,
 * one line on stderr). The token is read once and never printed.
 *
 * Environment: GITHUB_PERSONAL_ACCESS_TOKEN (or GITHUB_TOKEN), GITHUB_API_URL (default
 * https://api.github.com; e.g. https://ghe.example.com/api/v3). Without a token, GITHUB_OAUTH_CLIENT_ID
 * (an OAuth app with the device flow enabled) turns on sign-in through the client
 * (auth/sign-in.ts; GITHUB_OAUTH_SCOPES, GITHUB_OAUTH_TOKEN_PATH).
 */
import {
  type ConfigInput,
  type ContentBudgets,
  DEFAULT_CONTENT_BUDGETS,
  DEFAULT_MAX_RESPONSE_BYTES,
  HTTP_OPTIONS,
  type HttpPolicy,
  httpOptionsHelp,
  httpPolicyFromFlags,
  isLoopbackHost,
  parseBaseUrl,
  readToken,
  userAgent,
} from '@refmcp/shared';
import type { SignIn } from '@refmcp/shared/server';
import pkg from '../package.json' with { type: 'json' };
import { githubSignIn } from './auth/sign-in.js';
import { readSavedToken, tokenFilePath } from './auth/token-file.js';
import { webUrlFor } from './auth/web-url.js';
import { GitHubClient } from './github/client.js';
import { Lockdown } from './lockdown.js';
import { RepoScope } from './scope.js';

export interface Budgets extends ContentBudgets {
  /** Largest response body accepted from GitHub, in bytes. */
  responseBytes: number;
}

export interface Config {
  github: GitHubClient;
  apiUrl: URL;
  token?: string;
  /** `--repos`: undefined means every repository the token can reach. */
  scope?: RepoScope;
  lockdown: Lockdown;
  readOnly: boolean;
  policy: HttpPolicy;
  budgets: Budgets;
  /** Sign-in through the client (GITHUB_OAUTH_CLIENT_ID set, no token). */
  signIn?: SignIn;
}

export const OPTIONS = {
  repos: { type: 'string' },
  lockdown: { type: 'boolean' },
  ...HTTP_OPTIONS,
} as const;

export const OPTIONS_HELP = `Environment:
  GITHUB_PERSONAL_ACCESS_TOKEN  token (GITHUB_TOKEN also read); without one only public data is visible
  GITHUB_API_URL                API base URL (default https://api.github.com; GitHub Enterprise:
                                https://HOST/api/v3); https required except for loopback hosts
  GITHUB_OAUTH_CLIENT_ID        without a token: an OAuth app's client id (device flow enabled);
                                the user signs in through the client (URL elicitation)
  GITHUB_OAUTH_SCOPES           scopes the sign-in asks for (default "repo read:org")
  GITHUB_OAUTH_TOKEN_PATH       where the sign-in's token is saved (default: the user's config
                                directory, refmcp-github/oauth-token.json)

Options:
  --repos a/b,c/*          limit every tool to these repositories (owner/name or owner/*)
  --lockdown               on public repositories, show only content by users with push access
${httpOptionsHelp({ service: 'GitHub', writeNote: "GitHub's guidance", searchNote: '30/min limit' })}`;

/** The token variables, in the order they are read. */
export const TOKEN_VARIABLES = ['GITHUB_PERSONAL_ACCESS_TOKEN', 'GITHUB_TOKEN'] as const;

/** The scopes a sign-in asks for by default: what the tools need (private repositories, org teams). */
export const DEFAULT_OAUTH_SCOPES = 'repo read:org';

export function configure({ values, env, common }: ConfigInput): Config {
  const token = readToken(env, TOKEN_VARIABLES);
  const apiUrl = parseBaseUrl(env.GITHUB_API_URL || 'https://api.github.com', 'GITHUB_API_URL');
  const policy: HttpPolicy = httpPolicyFromFlags(values);
  const budgets: Budgets = { ...DEFAULT_CONTENT_BUDGETS, responseBytes: DEFAULT_MAX_RESPONSE_BYTES };
  const log = (line: string) => process.stderr.write(`[refmcp-github] ${line}\n`);
  const clientId = token ? undefined : readToken(env, ['GITHUB_OAUTH_CLIENT_ID']);
  const tokenFile = tokenFilePath(env);
  const webUrl = webUrlFor(apiUrl);
  const github = new GitHubClient({
    baseUrl: apiUrl,
    ...(token ? { token } : {}),
    userAgent: userAgent('github', pkg.version),
    policy,
    maxResponseBytes: budgets.responseBytes,
    log,
    ...(clientId
      ? {
          onTokenRefused: () =>
            log('GitHub refused the signed-in token (revoked or expired): the next call signs in again'),
        }
      : {}),
  });
  let signIn: SignIn | undefined;
  if (clientId) {
    const saved = readSavedToken(tokenFile, webUrl.host, (line) => log(`warn: ${line}`));
    if (saved) github.useToken(saved);
    const off = signInOff(common);
    signIn = githubSignIn({
      github,
      clientId,
      scope: (env.GITHUB_OAUTH_SCOPES ?? DEFAULT_OAUTH_SCOPES).trim(),
      webUrl,
      tokenFile,
      policy,
      userAgent: userAgent('github', pkg.version),
      log,
      ...(off ? { off } : {}),
    });
  }
  if (!token && !clientId)
    process.stderr.write(
      '[refmcp-github] warn: no GITHUB_PERSONAL_ACCESS_TOKEN: public data only, 60 requests/hour\n',
    );
  return {
    github,
    apiUrl,
    ...(token ? { token } : {}),
    ...(typeof values.repos === 'string' ? { scope: RepoScope.parse(values.repos) } : {}),
    lockdown: new Lockdown(github, values.lockdown === true),
    readOnly: common.readOnly,
    policy,
    budgets,
    ...(signIn ? { signIn } : {}),
  };
}

/**
 * Why sign-in through the client is off, or undefined over stdio and over HTTP bound to loopback
 * only (the rule Drive follows): the process holds one token, so a server other machines reach
 * would act for every caller as whoever signed in. The device flow itself would work remotely.
 */
function signInOff(common: ConfigInput['common']): string | undefined {
  const http = common.http;
  if (!http) return undefined;
  const remote = !isLoopbackHost(http.host) || http.allowedHosts.some((h) => !isLoopbackHost(h));
  return remote
    ? `GitHub is not signed in, and sign-in through the client is off for a server reachable from other machines (HTTP on ${http.host}): it would act for every caller as whoever signed in. Set GITHUB_PERSONAL_ACCESS_TOKEN in the server environment instead.`
    : undefined;
}
