/**
 * Redirects of an upstream request, followed hop by hop in our code rather than by fetch: every
 * attempt is sent with `redirect: 'manual'`, and each 3xx with a Location is followed here, at most
 * {@link MAX_REDIRECTS} times. A hop to another origin (scheme, host or port) drops every header
 * that may carry a credential — the generic ones ({@link CREDENTIAL_HEADERS}) and the client's own
 * (e.g. Brave's X-Subscription-Token, GitLab's PRIVATE-TOKEN) — and they stay dropped on every
 * later hop, back to the first origin included. fetch would strip only Authorization (Fetch
 * standard, "HTTP-redirect fetch" step 13), so a vendor's custom key header reached the other origin.
 * Methods change as fetch changes them: 303 (and 301/302 after a POST) becomes a GET without a body.
 */
import { ToolError } from '../server/errors.js';
import { type TimedAnswer, UpstreamTimeout } from './fetch.js';

type Attempt = (input: URL, init: RequestInit) => Promise<TimedAnswer>;

/** Most redirects one request follows: the Fetch standard's limit ("HTTP-redirect fetch" step 5). */
export const MAX_REDIRECTS = 20;

/** Headers that carry a credential in common use; a client adds its own (see followRedirects). */
export const CREDENTIAL_HEADERS: readonly string[] = [
  'authorization',
  'cookie',
  'proxy-authorization',
  'private-token',
  'job-token',
  'x-subscription-token',
  'x-api-key',
  'api-key',
  'x-auth-token',
];

/** Headers describing a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * What is sent to `to`, redirected from `from` with `status` (module comment). `strip` lists the
 * lower-case names of the headers a hop to another origin drops.
 */
export function redirectInit(
  from: URL,
  to: URL,
  status: number,
  init: RequestInit,
  strip: ReadonlySet<string>,
): RequestInit {
  const headers = new Headers(init.headers);
  const method = (init.method ?? 'GET').toUpperCase();
  let next: RequestInit = init;
  if (
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST')
  ) {
    for (const name of BODY_HEADERS) headers.delete(name);
    const { body: _body, ...rest } = init;
    next = { ...rest, method: 'GET' };
  }
  if (to.origin !== from.origin) for (const name of strip) headers.delete(name);
  return { ...next, headers };
}

/**
 * `attempt` with redirects followed as the module comment says. `credentialHeaders` names the
 * client's own credential headers (any case). A request with `redirect: 'manual'` gets the 3xx
 * answer; with `redirect: 'error'` a redirect is an error. `timeoutMs` (ms), when given, bounds the
 * whole chain of hops, as fetch's own timeout covered every redirect it followed (each hop's
 * `attempt` still has its own timeout too). Errors: those of `attempt`; UpstreamTimeout when the
 * chain runs past `timeoutMs`; ToolError (final, never retried: the server would answer the same)
 * "<service>: … redirected more than 20 times" or naming a Location that is not an http(s) URL.
 */
export function followRedirects(
  service: string,
  attempt: Attempt,
  credentialHeaders: readonly string[] = [],
  timeoutMs?: number,
): Attempt {
  const strip = new Set([...CREDENTIAL_HEADERS, ...credentialHeaders.map((name) => name.toLowerCase())]);
  return async (url, init) => {
    if (timeoutMs === undefined) return follow(url, init);
    // One deadline for the chain: its abort reaches the hop in flight through the hop's signal.
    const controller = new AbortController();
    const outer = init.signal ?? undefined;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const what = `${service} ${init.method ?? 'GET'} ${url.pathname}`;
    const timer = setTimeout(() => controller.abort(new UpstreamTimeout(what, timeoutMs)), timeoutMs);
    timer.unref?.();
    try {
      return await follow(url, { ...init, signal: controller.signal });
    } catch (error) {
      // A hop that was between attempts when the deadline passed rejects with the deadline itself.
      if (controller.signal.aborted && !outer?.aborted) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  };

  async function follow(url: URL, init: RequestInit): Promise<TimedAnswer> {
    const mode = init.redirect ?? 'follow';
    let current = url;
    let currentInit: RequestInit = { ...init, redirect: 'manual' };
    for (let hops = 0; ; hops++) {
      if (currentInit.signal?.aborted) throw currentInit.signal.reason;
      const answer = await attempt(current, currentInit);
      const location = answer.headers.get('location');
      if (!isRedirect(answer.status) || location === null || mode === 'manual') return answer;
      const what = `${service} ${currentInit.method ?? 'GET'} ${url.pathname}`;
      if (mode === 'error')
        throw new ToolError(
          `${what}: the server redirected (HTTP ${answer.status}) and redirects were refused`,
        );
      if (hops >= MAX_REDIRECTS) throw new ToolError(`${what}: redirected more than ${MAX_REDIRECTS} times`);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new ToolError(`${what}: the server redirected to a Location that is not a URL`);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        throw new ToolError(
          `${what}: the server redirected to a ${next.protocol} URL, which is not followed`,
        );
      currentInit = redirectInit(current, next, answer.status, currentInit, strip);
      current = next;
    }
  }
}
