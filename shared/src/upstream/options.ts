/**
 * The HTTP flags every API server takes, declared once: option definitions for parseArgs, their
 * help (numbers from DEFAULT_HTTP_POLICY, so help never disagrees with behaviour) and the policy
 * they set.
 *
 *   --timeout MS            time limit of one upstream request (policy.timeoutMs, ≥ 1)
 *   --rate-limit-wait MS    longest rate-limit wait sat out (policy.maxRetryWaitMs)
 *   --write-interval MS     least time between two writes (policy.minWriteIntervalMs)
 *   --search-interval MS    least time between two searches (policy.minSearchIntervalMs)
 */
import { intFlag } from '../server/int-flag.js';
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from './policy.js';

/** parseArgs option definitions of the HTTP flags (spread into a server's OPTIONS). */
export const HTTP_OPTIONS = {
  timeout: { type: 'string' },
  'rate-limit-wait': { type: 'string' },
  'write-interval': { type: 'string' },
  'search-interval': { type: 'string' },
} as const;

/** The name of one HTTP flag, without its dashes. */
export type HttpFlag = keyof typeof HTTP_OPTIONS;

/**
 * {@link HTTP_OPTIONS} without the flags a server has no use for, e.g.
 * `httpOptionsWithout('write-interval')` for a server without write tools (parseArgs then refuses
 * the flag as unknown; {@link httpPolicyFromFlags} keeps the default for it).
 */
export function httpOptionsWithout<K extends HttpFlag>(...omit: K[]): Omit<typeof HTTP_OPTIONS, K> {
  return Object.fromEntries(
    Object.entries(HTTP_OPTIONS).filter(([name]) => !omit.includes(name as K)),
  ) as Omit<typeof HTTP_OPTIONS, K>;
}

/** How a server names its upstream and its pacing guidance in the help. */
export interface HttpHelpWords {
  /** The upstream in "time limit of one <service> request", e.g. "GitHub". */
  service: string;
  /** What else --timeout bounds, on its own line after the default, e.g. "and of reading one page for fetch_url". */
  timeoutNote?: string;
  /** Why the write interval is what it is, e.g. "GitHub's guidance". */
  writeNote?: string;
  /** Why the search interval is what it is, e.g. "30/min limit". */
  searchNote?: string;
  /** Flags left out of the help, as left out of the options by {@link httpOptionsWithout}. */
  omit?: readonly HttpFlag[];
}

/** The help lines of {@link HTTP_OPTIONS} (no trailing newline), defaults from DEFAULT_HTTP_POLICY. */
export function httpOptionsHelp({
  service,
  timeoutNote,
  writeNote,
  searchNote,
  omit = [],
}: HttpHelpWords): string {
  const d = DEFAULT_HTTP_POLICY;
  const note = (value: number, why?: string) => (why ? `${value}, ${why}` : `${value}`);
  const lines: Record<HttpFlag, string[]> = {
    timeout: [
      `  --timeout MS             time limit of one ${service} request in ms (default ${d.timeoutMs})${timeoutNote ? ',' : ''}`,
      ...(timeoutNote ? [`                           ${timeoutNote}`] : []),
    ],
    'rate-limit-wait': [
      '  --rate-limit-wait MS     longest rate-limit wait sat out before failing with the retry time',
      `                           (default ${d.maxRetryWaitMs})`,
    ],
    'write-interval': [
      `  --write-interval MS      least time between two writes (default ${note(d.minWriteIntervalMs, writeNote)})`,
    ],
    'search-interval': [
      `  --search-interval MS     least time between two searches (default ${note(d.minSearchIntervalMs, searchNote)})`,
    ],
  };
  return (Object.keys(lines) as HttpFlag[])
    .filter((name) => !omit.includes(name))
    .flatMap((name) => lines[name])
    .join('\n');
}

/**
 * The policy the HTTP flags in `values` set over `base` (default DEFAULT_HTTP_POLICY). The call
 * budget grows to cover a --rate-limit-wait longer than it, so the operator's wait is the one
 * applied. Errors: ConfigError naming the flag (not a whole number of ms, or --timeout 0).
 */
export function httpPolicyFromFlags(
  values: Record<string, unknown>,
  base: Readonly<HttpPolicy> = DEFAULT_HTTP_POLICY,
): HttpPolicy {
  const ms = (name: string, fallback: number, min = 0) =>
    intFlag(values, name, fallback, { min, unit: 'ms' });
  const maxRetryWaitMs = ms('rate-limit-wait', base.maxRetryWaitMs);
  return {
    ...base,
    timeoutMs: ms('timeout', base.timeoutMs, 1),
    maxRetryWaitMs,
    budgetMs: Math.max(base.budgetMs, maxRetryWaitMs),
    minWriteIntervalMs: ms('write-interval', base.minWriteIntervalMs),
    minSearchIntervalMs: ms('search-interval', base.minSearchIntervalMs),
  };
}
