/**
 * Startup configuration from the environment and flags. Bad input is a ConfigError (exit 2, one line
 * on stderr). The key is read once and never printed.
 *
 * Environment: BRAVE_API_KEY (or BRAVE_API_KEY_FILE, a file holding it: Docker secrets),
 * BRAVE_API_URL (default https://api.search.brave.com/res/v1), SEARXNG_URL (a SearXNG instance).
 * `--provider brave|searxng` picks one when both are configured (default: brave).
 */
import { readFileSync } from 'node:fs';
import {
  ConfigError,
  type ConfigInput,
  type HttpPolicy,
  httpOptionsHelp,
  httpOptionsWithout,
  httpPolicyFromFlags,
  intFlag,
  parseBaseUrl,
  readToken,
  userAgent,
} from '@refmcp/shared';
import {
  NETWORK_OPTIONS,
  type NetworkPolicy,
  networkOptionsHelp,
  networkPolicyFromFlags,
} from '@refmcp/shared/net/policy';
import pkg from '../package.json' with { type: 'json' };
import { Brave, KEY_FILE_VARIABLE, KEY_VARIABLE } from './brave/client.js';
import { SearXNG } from './searxng/client.js';

export type Provider = 'brave' | 'searxng';

export interface Config {
  provider: Provider;
  brave: Brave;
  braveUrl: URL;
  searxng?: SearXNG;
  key?: string;
  policy: HttpPolicy;
  /** What fetch_url may reach (--allowed-origins, --blocked-origins, --allowed-origins-only). */
  network: NetworkPolicy;
  /** Time limit of turning one fetched HTML page into Markdown, ms (--convert-timeout). */
  convertTimeoutMs: number;
  userAgent: string;
}

/** Default of --convert-timeout: 60 s (a 2 MiB page of article markup took 27 s at load 35 on 2 cores). */
export const DEFAULT_CONVERT_TIMEOUT_MS = 60_000;

/** Largest provider answer read, in bytes (a search answer is tens of KiB; this bounds a hostile one). */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export const DEFAULT_BRAVE_URL = 'https://api.search.brave.com/res/v1';

export const OPTIONS = {
  provider: { type: 'string' },
  'convert-timeout': { type: 'string' },
  ...NETWORK_OPTIONS,
  // No write tools, so no --write-interval.
  ...httpOptionsWithout('write-interval'),
} as const;

export const OPTIONS_HELP = `Environment:
  BRAVE_API_KEY            Brave Search API key (https://api-dashboard.search.brave.com/)
  BRAVE_API_KEY_FILE       a file holding the key (Docker secrets); read when BRAVE_API_KEY is unset
  BRAVE_API_URL            API base (default ${DEFAULT_BRAVE_URL}); https except for loopback
  SEARXNG_URL              a SearXNG instance (its JSON API /search?format=json must be enabled)

Options:
  --provider brave|searxng which provider serves the search tools when both are configured
                           (default brave; searxng when only SEARXNG_URL is set)
  --convert-timeout MS     time limit of turning one fetched HTML page into Markdown, after it
                           is read (default ${DEFAULT_CONVERT_TIMEOUT_MS}); past it fetch_url fails saying so
${networkOptionsHelp('fetch_url', { column: 27 })}
${httpOptionsHelp({ service: 'search', timeoutNote: 'and of reading one page for fetch_url', searchNote: 'SearXNG only: Brave is paced by its plan headers', omit: ['write-interval'] })}`;

/** The key from BRAVE_API_KEY, else the file BRAVE_API_KEY_FILE names (trimmed). */
export function readKey(env: NodeJS.ProcessEnv): string | undefined {
  const direct = readToken(env, [KEY_VARIABLE]);
  if (direct || !env[KEY_FILE_VARIABLE]) return direct;
  let content: string;
  try {
    content = readFileSync(env[KEY_FILE_VARIABLE], 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${KEY_FILE_VARIABLE}: cannot read ${env[KEY_FILE_VARIABLE]} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return readToken({ [KEY_FILE_VARIABLE]: content }, [KEY_FILE_VARIABLE]);
}

export function configure({ values, env }: ConfigInput): Config {
  const key = readKey(env);
  const braveUrl = parseBaseUrl(env.BRAVE_API_URL || DEFAULT_BRAVE_URL, 'BRAVE_API_URL');
  const searxngUrl = env.SEARXNG_URL?.trim()
    ? parseBaseUrl(env.SEARXNG_URL.trim(), 'SEARXNG_URL')
    : undefined;
  const policy = httpPolicyFromFlags(values);
  const network = networkPolicyFromFlags(values);
  const agent = userAgent('search', pkg.version);
  const asked = values.provider;
  if (asked !== undefined && asked !== 'brave' && asked !== 'searxng')
    throw new ConfigError('--provider must be brave or searxng');
  if (asked === 'searxng' && !searxngUrl) throw new ConfigError('--provider searxng needs SEARXNG_URL');
  const provider: Provider = asked ?? (!key && searxngUrl ? 'searxng' : 'brave');
  if (provider === 'brave' && !key)
    process.stderr.write(
      `[refmcp-search] warn: ${KEY_VARIABLE} is not set (nor ${KEY_FILE_VARIABLE}): every Brave search will fail until it is; set SEARXNG_URL to search through SearXNG instead\n`,
    );
  const brave = new Brave({
    baseUrl: braveUrl,
    ...(key ? { key } : {}),
    userAgent: agent,
    policy,
    maxResponseBytes: MAX_ANSWER_BYTES,
  });
  const searxng = searxngUrl
    ? new SearXNG({ baseUrl: searxngUrl, userAgent: agent, policy, maxResponseBytes: MAX_ANSWER_BYTES })
    : undefined;
  return {
    provider,
    brave,
    braveUrl,
    ...(searxng ? { searxng } : {}),
    ...(key ? { key } : {}),
    policy,
    network,
    convertTimeoutMs: intFlag(values, 'convert-timeout', DEFAULT_CONVERT_TIMEOUT_MS, { unit: 'ms' }),
    userAgent: agent,
  };
}
