/**
 * Startup configuration from the environment and flags. Bad input is a ConfigError (exit 2, usage
 * on stderr). The token is read once and never printed.
 *
 * Environment: GITLAB_PERSONAL_ACCESS_TOKEN (or GITLAB_TOKEN), GITLAB_API_URL (the API base
 * including /api/v4; default https://gitlab.com/api/v4; e.g. https://git.example.com/gitlab/api/v4).
 * Without a token, GITLAB_OAUTH_CLIENT_ID (an OAuth application of that instance, not confidential)
 * turns on sign-in through the client (auth/sign-in.ts, GitLab 17.1+ device authorization grant;
 * GITLAB_OAUTH_SCOPES, GITLAB_OAUTH_TOKEN_PATH).
 */
import {
  type ConfigInput,
  type ContentBudgets,
  createLogger,
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
import { OAuthSession } from './auth/session.js';
import { gitlabSignIn } from './auth/sign-in.js';
import { readSavedToken, tokenFilePath } from './auth/token-file.js';
import { GitLab } from './gitlab/client.js';
import { Lockdown } from './lockdown.js';
import { ProjectScope } from './scope.js';

export interface Config {
  gitlab: GitLab;
  apiUrl: URL;
  token?: string;
  /** `--projects`: undefined means every project the token can reach. */
  scope?: ProjectScope;
  lockdown: Lockdown;
  readOnly: boolean;
  budgets: ContentBudgets;
  /** Sign-in through the client (GITLAB_OAUTH_CLIENT_ID set, no token). */
  signIn?: SignIn;
}

export const OPTIONS = {
  projects: { type: 'string' },
  lockdown: { type: 'boolean' },
  ...HTTP_OPTIONS,
} as const;

export const OPTIONS_HELP = `Environment:
  GITLAB_PERSONAL_ACCESS_TOKEN  token (GITLAB_TOKEN also read); without one only public data is visible
  GITLAB_API_URL                API base including /api/v4 (default https://gitlab.com/api/v4;
                                self-hosted: https://HOST[/PATH]/api/v4); https except for loopback
  GITLAB_OAUTH_CLIENT_ID        without a token: an OAuth application's id on that instance (not
                                confidential; GitLab 17.1+); the user signs in through the client
                                (URL elicitation, device authorization grant)
  GITLAB_OAUTH_SCOPES           scopes the sign-in asks for (default "api"; "read_api" with --read-only)
  GITLAB_OAUTH_TOKEN_PATH       where the sign-in's tokens are saved (default: the user's config
                                directory, refmcp-gitlab/oauth-token.json)

Options:
  --projects g/p,g/*       limit every tool to these projects (group/project or group/*)
  --lockdown               on public projects, show only content by members with Developer access
${httpOptionsHelp({ service: 'GitLab', writeNote: 'to stay clear of abuse limits', searchNote: 'project searches and the /search API' })}`;

/** The token variables, in the order they are read. */
export const TOKEN_VARIABLES = ['GITLAB_PERSONAL_ACCESS_TOKEN', 'GITLAB_TOKEN'] as const;

/** True when the configured API base's path ends in `/api/v4` (GitLab's REST API root). */
export function isApiV4(url: URL): boolean {
  return /\/api\/v4$/.test(url.pathname);
}

/**
 * The config from env and flags. Writes at most one stderr line per condition, before anything can
 * refuse the flags (the bootstrap checks --toolsets after this): no token, and a GITLAB_API_URL
 * whose path does not end in /api/v4 (a common slip: the instance's web URL).
 */
export function configure({ values, env, common }: ConfigInput): Config {
  const log = createLogger('refmcp-gitlab');
  const token = readToken(env, TOKEN_VARIABLES);
  const clientId = token ? undefined : readToken(env, ['GITLAB_OAUTH_CLIENT_ID']);
  if (!token && !clientId) log.warn('no GITLAB_PERSONAL_ACCESS_TOKEN: public data only, writes will fail');
  const apiUrl = parseBaseUrl(env.GITLAB_API_URL || 'https://gitlab.com/api/v4', 'GITLAB_API_URL');
  if (!isApiV4(apiUrl))
    log.warn(
      `GITLAB_API_URL ${apiUrl.href} does not end in /api/v4; GitLab's REST API is at https://HOST[/PATH]/api/v4, so requests here will likely fail (404)`,
    );
  const policy: HttpPolicy = httpPolicyFromFlags(values);
  const scope = typeof values.projects === 'string' ? ProjectScope.parse(values.projects) : undefined;
  const secrets: string[] = [];
  const instance = instanceUrl(apiUrl);
  const line = (text: string) => process.stderr.write(`[refmcp-gitlab] ${text}\n`);
  const session = clientId
    ? new OAuthSession({
        instance,
        clientId,
        tokenFile: tokenFilePath(env),
        policy,
        userAgent: userAgent('gitlab', pkg.version),
        log: line,
        secrets,
      })
    : undefined;
  const gitlab = new GitLab({
    baseUrl: apiUrl,
    ...(token ? { token } : {}),
    ...(session ? { auth: session } : {}),
    secrets,
    userAgent: userAgent('gitlab', pkg.version),
    policy,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  });
  let signIn: SignIn | undefined;
  if (session && clientId) {
    const saved = readSavedToken(tokenFilePath(env), instance.href, (text) => log.warn(text));
    if (saved) session.load(saved);
    const off = signInOff(common);
    signIn = gitlabSignIn({
      session,
      clientId,
      scope: (env.GITLAB_OAUTH_SCOPES ?? (common.readOnly ? 'read_api' : 'api')).trim(),
      instance,
      policy,
      userAgent: userAgent('gitlab', pkg.version),
      log: line,
      ...(off ? { off } : {}),
    });
  }
  return {
    gitlab,
    apiUrl,
    ...(token ? { token } : {}),
    ...(scope ? { scope } : {}),
    lockdown: new Lockdown(gitlab, values.lockdown === true),
    readOnly: common.readOnly,
    budgets: DEFAULT_CONTENT_BUDGETS,
    ...(signIn ? { signIn } : {}),
  };
}

/** The instance's web base for an API base: https://HOST[/PATH]/api/v4 → https://HOST[/PATH]/ (OAuth lives there). */
export function instanceUrl(apiUrl: URL): URL {
  const web = new URL(apiUrl.href);
  web.pathname = `${web.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '')}/`;
  web.search = '';
  web.hash = '';
  return web;
}

/**
 * Why sign-in through the client is off, or undefined over stdio and over HTTP bound to loopback
 * only (the rule GitHub and Drive follow): the process holds one sign-in, so a server other
 * machines reach would act for every caller as whoever signed in.
 */
function signInOff(common: ConfigInput['common']): string | undefined {
  const http = common.http;
  if (!http) return undefined;
  const remote = !isLoopbackHost(http.host) || http.allowedHosts.some((h) => !isLoopbackHost(h));
  return remote
    ? `GitLab is not signed in, and sign-in through the client is off for a server reachable from other machines (HTTP on ${http.host}): it would act for every caller as whoever signed in. Set GITLAB_PERSONAL_ACCESS_TOKEN in the server environment instead.`
    : undefined;
}
