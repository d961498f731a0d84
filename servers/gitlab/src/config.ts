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
  createLogger,
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
  if (!token) log.warn('no GITLAB_PERSONAL_ACCESS_TOKEN: public data only, writes will fail');
  const apiUrl = parseBaseUrl(env.GITLAB_API_URL || 'https://gitlab.com/api/v4', 'GITLAB_API_URL');
  if (!isApiV4(apiUrl))
    log.warn(
      `GITLAB_API_URL ${apiUrl.href} does not end in /api/v4; GitLab's REST API is at https://HOST[/PATH]/api/v4, so requests here will likely fail (404)`,
    );
  const policy: HttpPolicy = httpPolicyFromFlags(values);
  const scope = typeof values.projects === 'string' ? ProjectScope.parse(values.projects) : undefined;
  const gitlab = new GitLab({
    baseUrl: apiUrl,
    ...(token ? { token } : {}),
    userAgent: userAgent('gitlab', pkg.version),
    policy,
    maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
  });
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
