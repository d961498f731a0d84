/**
 * Startup configuration from the environment and flags. Bad input is a ConfigError (exit 2, usage
 * on stderr). The token is read once and never printed.
 *
 * Environment: GITLAB_PERSONAL_ACCESS_TOKEN (or GITLAB_TOKEN), GITLAB_API_URL (the API base
 * including /api/v4; default https://gitlab.com/api/v4; e.g. https://git.example.com/gitlab/api/v4).
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

Options:
  --projects g/p,g/*       limit every tool to these projects (group/project or group/*)
  --lockdown               on public projects, show only content by members with Developer access
${httpOptionsHelp({ service: 'GitLab', writeNote: 'to stay clear of abuse limits', searchNote: 'the /search API' })}`;

/** The token variables, in the order they are read. */
export const TOKEN_VARIABLES = ['GITLAB_PERSONAL_ACCESS_TOKEN', 'GITLAB_TOKEN'] as const;

export function configure({ values, env, common }: ConfigInput): Config {
  const token = readToken(env, TOKEN_VARIABLES);
  const apiUrl = parseBaseUrl(env.GITLAB_API_URL || 'https://gitlab.com/api/v4', 'GITLAB_API_URL');
  const policy: HttpPolicy = httpPolicyFromFlags(values);
  const scope = typeof values.projects === 'string' ? ProjectScope.parse(values.projects) : undefined;
  const gitlab = new GitLab({
    baseUrl: apiUrl,
    ...(token ? { token } : {}),
    userAgent: userAgent('gitlab', pkg.version),
    policy,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  });
  if (!token)
    process.stderr.write(
      '[refmcp-gitlab] warn: no GITLAB_PERSONAL_ACCESS_TOKEN: public data only, writes will fail\n',
    );
  return {
    gitlab,
    apiUrl,
    ...(token ? { token } : {}),
    ...(scope ? { scope } : {}),
    lockdown: new Lockdown(gitlab, values.lockdown === true),
    readOnly: common.readOnly,
    budgets: DEFAULT_CONTENT_BUDGETS,
  };
}
