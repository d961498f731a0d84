/**
 * One GET under the network policy, redirects followed by hand: the URL and every redirect target
 * must be absolute http(s) without credentials and pass `policy.checkUrl` up front (so a refusal
 * names its rule and hop before any request), and every connection passes the policy again at
 * connect time, on the resolved address (connect.ts). Used by `readPage`.
 */
import { type PolicyResponse, policyGet } from './connect.js';
import { NetworkRefusal, PageReadError, verdictError } from './errors.js';
import type { NetworkPolicy } from './policy/network-policy.js';

export interface FetchPageOptions {
  policy: NetworkPolicy;
  userAgent: string;
  maxRedirects: number;
  /** Aborts the request and its body (the caller's time limit and cancellation). */
  signal: AbortSignal;
  /** The time limit `signal` enforces, ms (for the message). */
  timeoutMs: number;
}

/** The final 2xx (or non-redirect) response and its URL. */
export interface FetchedPage {
  url: URL;
  response: PolicyResponse;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.1';

/** A refusal of redirect `hop` names the hop: "Redirect 2 (A → B) refused: <policy message>". */
function onHop(refusal: NetworkRefusal, hop: number, from: URL | undefined, to: string): NetworkRefusal {
  if (!from) return refusal;
  const message = `Redirect ${hop} (${from.href} → ${to.slice(0, 500)}) refused. ${refusal.message}`;
  return new NetworkRefusal(message, refusal.rule, refusal.target);
}

/**
 * Parses `raw` as an absolute http(s) URL without credentials, fragment dropped. Errors:
 * PageReadError 'invalid-url'; NetworkRefusal 'scheme' for any other scheme.
 */
export function httpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PageReadError(
      `"${raw.slice(0, 200)}" is not an absolute URL (e.g. https://example.com/)`,
      'invalid-url',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new NetworkRefusal(
      `Refused by the network policy (rule: scheme): "${url.protocol}" URLs cannot be read; only http and https pages can.`,
      'scheme',
      url.href.slice(0, 500),
    );
  if (url.username || url.password)
    throw new PageReadError(
      `${url.host} in the URL carries credentials (user:password@), which are never sent`,
      'invalid-url',
    );
  url.hash = '';
  return url;
}

/** A fetch failure as the error the model reads: the policy's refusal, a timeout, or unreachable. */
export function fetchFailure(error: unknown, url: URL, signal: AbortSignal, timeoutMs: number): Error {
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof NetworkRefusal || error instanceof PageReadError) return error;
  if (cause instanceof NetworkRefusal || cause instanceof PageReadError) return cause;
  if (signal.aborted) {
    if ((signal.reason as Error | undefined)?.name === 'TimeoutError')
      return new PageReadError(`Timed out after ${timeoutMs} ms reading ${url.href}`, 'timeout');
    return new PageReadError(`Reading ${url.href} was cancelled`, 'network');
  }
  const detail = cause as NodeJS.ErrnoException | undefined;
  const why = detail?.code ?? detail?.message ?? (error as Error).message;
  return new PageReadError(`Could not read ${url.href}: ${why}`, 'network');
}

/**
 * GETs `rawUrl`, following at most `maxRedirects` redirects, each checked (module comment).
 * Errors: NetworkRefusal (naming the redirect hop when it was one), PageReadError ('invalid-url',
 * 'redirects', 'timeout', 'network').
 */
export async function fetchPage(rawUrl: string, opts: FetchPageOptions): Promise<FetchedPage> {
  let from: URL | undefined;
  let target = rawUrl;
  for (let hop = 0; ; hop++) {
    let url: URL;
    try {
      url = httpUrl(target);
    } catch (error) {
      throw error instanceof NetworkRefusal ? onHop(error, hop, from, target) : error;
    }
    try {
      const verdict = await opts.policy.checkUrl(url.href);
      if (!verdict.ok) throw verdictError(verdict, url.href);
      const response = await policyGet(url, {
        policy: opts.policy,
        signal: opts.signal,
        headers: { 'user-agent': opts.userAgent, accept: ACCEPT },
      });
      const location = response.headers.location;
      if (!REDIRECTS.has(response.status) || !location) return { url, response };
      response.close();
      if (hop >= opts.maxRedirects)
        throw new PageReadError(`${rawUrl} redirected more than ${opts.maxRedirects} times`, 'redirects');
      from = url;
      target = URL.canParse(location, url.href) ? new URL(location, url).href : location;
    } catch (error) {
      const failure = fetchFailure(error, url, opts.signal, opts.timeoutMs);
      throw failure instanceof NetworkRefusal ? onHop(failure, hop, from, url.href) : failure;
    }
  }
}
