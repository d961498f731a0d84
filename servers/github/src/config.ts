/**
 * Startup configuration from the environment and flags. Bad input is a ConfigError (exit 2,
 * one line on stderr). The token is read once and never printed.
 *
 * Environment: GITHUB_PERSONAL_ACCESS_TOKEN (or GITHUB_TOKEN), GITHUB_API_URL (default
 * https://api.github.com; e.g. https://ghe.example.com/api/v3).
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
  parseBaseUrl,
  readToken,
  userAgent,
} from '@refmcp/shared';
import pkg from '../package.json' with { type: 'json' };
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

Options:
  --repos a/b,c/*          limit every tool to these repositories (owner/name or owner/*)
  --lockdown               on public repositories, show only content by users with push access
${httpOptionsHelp({ service: 'GitHub', writeNote: "GitHub's guidance", searchNote: '30/min limit' })}`;

/** The token variables, in the order they are read. */
export const TOKEN_VARIABLES = ['GITHUB_PERSONAL_ACCESS_TOKEN', 'GITHUB_TOKEN'] as const;

export function configure({ values, env, common }: ConfigInput): Config {
  const token = readToken(env, TOKEN_VARIABLES);
  const apiUrl = parseBaseUrl(env.GITHUB_API_URL || 'https://api.github.com', 'GITHUB_API_URL');
  const policy: HttpPolicy = httpPolicyFromFlags(values);
  const budgets: Budgets = { ...DEFAULT_CONTENT_BUDGETS, responseBytes: DEFAULT_MAX_RESPONSE_BYTES };
  const github = new GitHubClient({
    baseUrl: apiUrl,
    ...(token ? { token } : {}),
    userAgent: userAgent('github', pkg.version),
    policy,
    maxResponseBytes: budgets.responseBytes,
    log: (line) => process.stderr.write(`[refmcp-github] ${line}\n`),
  });
  if (!token)
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
  };
}
