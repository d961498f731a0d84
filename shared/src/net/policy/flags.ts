/**
 * The network-policy flags every server that reaches arbitrary URLs takes (the browser, the
 * web-search server's page reader), declared once: parseArgs option definitions, their help and
 * the {@link NetworkPolicy} they build.
 *
 *   --allowed-origins LIST  origins exempt from the address rules (repeatable; comma or semicolon separated)
 *   --blocked-origins LIST  origins always refused (wins over everything)
 *   --allowed-origins-only  nothing but --allowed-origins may be reached
 *
 * Entry syntax: origins.ts. Schemes beyond http/https are the browser's own flag (--allowed-schemes).
 */
import { ConfigError } from '../../server/errors.js';
import { NetworkPolicy, type PolicyOptions } from './network-policy.js';
import { type OriginRule, parseOriginList } from './origins.js';

/** parseArgs option definitions of the network-policy flags (spread into a server's OPTIONS). */
export const NETWORK_OPTIONS = {
  'allowed-origins': { type: 'string', multiple: true },
  'blocked-origins': { type: 'string', multiple: true },
  'allowed-origins-only': { type: 'boolean' },
} as const;

/**
 * The help lines of {@link NETWORK_OPTIONS} (no trailing newline). `subject` names who connects,
 * e.g. "the browser" or "the server"; `column` is where the descriptions start (default 26, the
 * browser's; the API servers' help uses 27).
 */
export function networkOptionsHelp(
  subject = 'the server',
  { column = 26 }: { column?: number } = {},
): string {
  const line = (flag: string, text: string) => `${`  ${flag}`.padEnd(column - 1)} ${text}`;
  const more = (text: string) => `${' '.repeat(column)}${text}`;
  return [
    line(
      '--allowed-origins LIST',
      `origins ${subject} may reach even on loopback/private/link-local/metadata`,
    ),
    more('addresses: http://127.0.0.1:8080, example.com, *.corp.example (comma or'),
    more('semicolon separated, repeatable)'),
    line('--allowed-origins-only', 'refuse every origin not in --allowed-origins'),
    line('--blocked-origins LIST', 'origins always refused (wins over everything)'),
  ].join('\n');
}

/** The flag values {@link networkPolicyFromFlags} reads (parseArgs output; a single string is accepted too). */
export interface NetworkFlagValues {
  'allowed-origins'?: string | string[];
  'blocked-origins'?: string | string[];
  'allowed-origins-only'?: boolean;
  [flag: string]: unknown;
}

/** What a server sets beside the flags. */
export type NetworkPolicyExtras = Partial<Pick<PolicyOptions, 'schemes' | 'resolve' | 'dnsTimeoutMs'>>;

/** The origin rules of one list flag; ConfigError "--<name>: <why>" on a bad entry. */
export function originRulesFromFlag(values: NetworkFlagValues, name: string): OriginRule[] {
  const value = values[name];
  const raw = value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [String(value)];
  try {
    return parseOriginList(raw.flatMap((v) => v.split(/[;,]/)));
  } catch (error) {
    throw new ConfigError(`--${name}: ${(error as Error).message}`);
  }
}

/**
 * The policy the network flags in `values` set. Schemes default to http and https (the browser
 * passes its --allowed-schemes); `resolve` and `dnsTimeoutMs` are for tests. Errors: ConfigError
 * naming the flag and the bad entry.
 */
export function networkPolicyFromFlags(
  values: NetworkFlagValues,
  extras: NetworkPolicyExtras = {},
): NetworkPolicy {
  return new NetworkPolicy({
    allowed: originRulesFromFlag(values, 'allowed-origins'),
    blocked: originRulesFromFlag(values, 'blocked-origins'),
    allowedOnly: values['allowed-origins-only'] === true,
    schemes: extras.schemes ?? ['http', 'https'],
    resolve: extras.resolve,
    dnsTimeoutMs: extras.dnsTimeoutMs,
  });
}
