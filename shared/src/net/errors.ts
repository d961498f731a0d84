/**
 * The two ways reading a page fails, both with a model-facing message (ToolError, so the bootstrap
 * shows the message as it is): the network policy refused the URL, an address or a redirect
 * ({@link NetworkRefusal}), or the page could not be read ({@link PageReadError}).
 */
import { ToolError } from '../server/errors.js';
import type { RefusalRule, Verdict } from './policy/network-policy.js';

/**
 * A URL, resolved address, redirect target or scheme refused by the network policy. The message
 * names the rule and the operator flag that changes it (tool arguments never can).
 */
export class NetworkRefusal extends ToolError {
  override name = 'NetworkRefusal';
  constructor(
    message: string,
    /** Which rule refused: an address class ('loopback', 'metadata', …), 'scheme', 'blocked-origins', …. */
    readonly rule: RefusalRule,
    /** The URL or host:port refused. */
    readonly target: string,
  ) {
    super(message);
  }
}

/** Why a page could not be read (beside a {@link NetworkRefusal}). */
export type PageReadFailure =
  | 'invalid-url'
  | 'timeout'
  | 'network'
  | 'http-status'
  | 'redirects'
  | 'content-type';

/** A page that could not be read: invalid URL, timeout, unreachable, HTTP error status, redirect loop, unsupported type. */
export class PageReadError extends ToolError {
  override name = 'PageReadError';
  constructor(
    message: string,
    readonly reason: PageReadFailure,
    /** The HTTP status, for 'http-status'. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The error of a refused policy verdict: a NetworkRefusal, except that a host name that does not
 * resolve ('dns') is a PageReadError 'network' — the policy did not refuse it, it is unreachable.
 */
export function verdictError(
  verdict: Extract<Verdict, { ok: false }>,
  target: string,
): NetworkRefusal | PageReadError {
  if (verdict.rule === 'dns')
    return new PageReadError(`Could not read ${target}: ${verdict.message}`, 'network');
  return new NetworkRefusal(verdict.message, verdict.rule, target);
}
