/**
 * Startup configuration from the environment and flags. Bad input is a ConfigError (exit 2,
 * usage on stderr). The token is read once and never printed.
 *
 * Environment: GITHUB_PERSONAL_ACCESS_TOKEN (or GITHUB_TOKEN), GITHUB_API_URL (default
 * https://api.github.com; e.g. https://ghe.example.com/api/v3).
 */
import {
  ConfigError,
  type ConfigInput,
  DEFAULT_HTTP_POLICY,
  type HttpPolicy,
  parseBaseUrl,
  userAgent,
} from '@refmcp/shared';
import pkg from '../package.json' with { type: 'json' };
import { GitHubClient } from './github/client.js';
import { Lockdown } from './lockdown.js';
import { RepoScope } from './scope.js';

export interface Budgets {
  /** Largest file text `get_file_contents` returns, in bytes; more is cut with a marker. */
  fileBytes: number;
  /** Largest body (issue, PR, comment) in a single-item result, in bytes. */
  bodyBytes: number;
  /** Largest body per item in a list result, in bytes. */
  listBodyBytes: number;
  /** Largest diff or patch text, in bytes. */
  diffBytes: number;
  /** Largest job-log tail, in bytes. */
  logBytes: number;
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
  timeout: { type: 'string' },
  'rate-limit-wait': { type: 'string' },
  'write-interval': { type: 'string' },
  'search-interval': { type: 'string' },
} as const;

export const OPTIONS_HELP = `Environment:
  GITHUB_PERSONAL_ACCESS_TOKEN  token (GITHUB_TOKEN also read); without one only public data is visible
  GITHUB_API_URL                API base URL (default https://api.github.com; GitHub Enterprise:
                                https://HOST/api/v3); https required except for loopback hosts

Options:
  --repos a/b,c/*          limit every tool to these repositories (owner/name or owner/*)
  --lockdown               on public repositories, show only content by users with push access
  --timeout MS             time limit of one GitHub request in ms (default ${DEFAULT_HTTP_POLICY.timeoutMs})
  --rate-limit-wait MS     longest rate-limit wait sat out before failing with the retry time
                           (default ${DEFAULT_HTTP_POLICY.maxRetryWaitMs})
  --write-interval MS      least time between two writes (default ${DEFAULT_HTTP_POLICY.minWriteIntervalMs}, GitHub's guidance)
  --search-interval MS     least time between two searches (default ${DEFAULT_HTTP_POLICY.minSearchIntervalMs}, 30/min limit)`;

function millis(values: Record<string, unknown>, name: string, fallback: number, min = 0): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min)
    throw new ConfigError(`--${name}: expected a whole number of milliseconds ≥ ${min}, got "${raw}"`);
  return n;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these would break the Authorization header
const HEADER_BREAKERS = /[\s\u0000-\u001f\u007f]/;

/** The token from the environment, refusing values that would break an HTTP header. */
export function readToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = (env.GITHUB_PERSONAL_ACCESS_TOKEN || env.GITHUB_TOKEN || '').trim();
  if (!token) return undefined;
  if (HEADER_BREAKERS.test(token))
    throw new ConfigError('GITHUB_PERSONAL_ACCESS_TOKEN contains whitespace or control characters');
  return token;
}

export function configure({ values, env, common }: ConfigInput): Config {
  const token = readToken(env);
  const apiUrl = parseBaseUrl(env.GITHUB_API_URL || 'https://api.github.com', 'GITHUB_API_URL');
  const policy: HttpPolicy = {
    ...DEFAULT_HTTP_POLICY,
    timeoutMs: millis(values, 'timeout', DEFAULT_HTTP_POLICY.timeoutMs, 1),
    maxRetryWaitMs: millis(values, 'rate-limit-wait', DEFAULT_HTTP_POLICY.maxRetryWaitMs),
    minWriteIntervalMs: millis(values, 'write-interval', DEFAULT_HTTP_POLICY.minWriteIntervalMs),
    minSearchIntervalMs: millis(values, 'search-interval', DEFAULT_HTTP_POLICY.minSearchIntervalMs),
  };
  const budgets: Budgets = {
    fileBytes: 256 * 1024,
    bodyBytes: 64 * 1024,
    listBodyBytes: 2 * 1024,
    diffBytes: 128 * 1024,
    logBytes: 64 * 1024,
    responseBytes: 32 * 1024 * 1024,
  };
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
