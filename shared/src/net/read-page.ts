/**
 * `readPage`: one web page as Markdown, under the operator's network policy and a byte budget.
 *
 * - http and https only; the URL, every redirect target (followed by hand, at most
 *   `maxRedirects`) and — at connect time, on the resolved address — every connection are checked
 *   against the {@link NetworkPolicy} (connector.ts), so neither a redirect nor DNS rebinding
 *   reaches a loopback, private, link-local or metadata address the operator did not allow.
 * - The body is read under `maxBodyBytes`; HTML becomes its readable article (article.ts), text
 *   and JSON are passed as they are, other types are refused with the type named.
 * - The Markdown is paged: `maxBytes` UTF-8 bytes from `offset` (slice.ts), with `nextOffset`
 *   for the rest. Each call fetches the page again (no state is kept between calls).
 *
 * The content is the page author's, untrusted: callers label it as data (`@refmcp/shared/untrusted`).
 */
import { fetch } from 'undici';
import { htmlToArticle } from './article.js';
import { bodyKind, decodeBody, mediaType, readCapped } from './body.js';
import { policyAgent } from './connector.js';
import { NetworkRefusal, PageReadError } from './errors.js';
import type { NetworkPolicy } from './policy/network-policy.js';
import { sliceText } from './slice.js';

export interface ReadPageOptions {
  /** The operator's policy (networkPolicyFromFlags). */
  policy: NetworkPolicy;
  /** Budget of the Markdown returned by this call, in UTF-8 bytes. */
  maxBytes: number;
  /** Where to continue, in characters of the page's Markdown (a previous call's `nextOffset`); default 0. */
  offset?: number;
  /** Time budget of the whole read (redirects and body included), ms. */
  timeoutMs: number;
  /** The User-Agent header sent. */
  userAgent: string;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
  /** Largest body read, in bytes after Content-Encoding (default 5 MiB); more fails with 'too-large'. */
  maxBodyBytes?: number;
  /** Cancels the read (e.g. the MCP request's signal). */
  signal?: AbortSignal;
}

export interface PageRead {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** The media type of the response ('text/html', 'application/json', …; '' when absent). */
  contentType: string;
  title?: string;
  byline?: string;
  siteName?: string;
  /** How the Markdown was made: Readability's 'article', the whole 'body', or the 'text' as sent. */
  extraction: 'article' | 'body' | 'text';
  /** This call's slice of the page's Markdown. */
  markdown: string;
  /** Length of the whole Markdown, in characters (UTF-16 code units). */
  totalChars: number;
  /** Where this slice starts. */
  offset: number;
  /** Where the next slice starts (pass as `offset`); undefined at the end. */
  nextOffset?: number;
  /** True when Markdown after this slice was left out. */
  truncated: boolean;
}

export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.1';

/** Refuses anything but an absolute http(s) URL without credentials; returns it parsed. */
function httpUrl(raw: string, what: string): URL {
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
      `Refused by the network policy (rule: scheme): ${what} "${url.protocol}" URL; only http and https pages can be read.`,
      'scheme',
      url.href.slice(0, 500),
    );
  if (url.username || url.password)
    throw new PageReadError(
      `${what} URL carries credentials (user:password@), which are never sent`,
      'invalid-url',
    );
  url.hash = '';
  return url;
}

/** The policy's verdict on `url` up front, so a refusal names its rule before any request. */
async function checkUrl(policy: NetworkPolicy, url: URL): Promise<void> {
  const verdict = await policy.checkUrl(url.href);
  if (!verdict.ok) throw new NetworkRefusal(verdict.message, verdict.rule, url.href);
}

/** A fetch failure as the error the model reads: the policy's refusal, a timeout, or unreachable. */
function fetchFailure(error: unknown, url: URL, signal: AbortSignal, timeoutMs: number): Error {
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof NetworkRefusal) return error;
  if (cause instanceof NetworkRefusal) return cause;
  if (error instanceof PageReadError) return error;
  if (signal.aborted) {
    const reason = signal.reason as Error | undefined;
    if (reason?.name === 'TimeoutError')
      return new PageReadError(`Timed out after ${timeoutMs} ms reading ${url.href}`, 'timeout');
    return new PageReadError(`Reading ${url.href} was cancelled`, 'network');
  }
  const detail = cause as NodeJS.ErrnoException | undefined;
  const why = detail?.code ?? detail?.message ?? (error as Error).message;
  return new PageReadError(`Could not read ${url.href}: ${why}`, 'network');
}

/**
 * Reads `rawUrl` as Markdown (see the module comment). Returns this call's slice and where the
 * rest starts. Errors: {@link NetworkRefusal} (scheme, origin or address refused — the message
 * names the rule and the operator flag), {@link PageReadError} (invalid URL, timeout, unreachable,
 * HTTP error status, too many redirects, a type that is not HTML/text/JSON, body over the cap),
 * ToolError for an offset past the end.
 */
export async function readPage(rawUrl: string, opts: ReadPageOptions): Promise<PageRead> {
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  const dispatcher = policyAgent(opts.policy, opts.timeoutMs);
  let url = httpUrl(rawUrl, 'a');
  for (let hop = 0; ; hop++) {
    try {
      await checkUrl(opts.policy, url);
      const response = await fetch(url, {
        dispatcher,
        redirect: 'manual',
        signal,
        headers: { 'user-agent': opts.userAgent, accept: ACCEPT },
      });
      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location) {
        await response.body?.cancel();
        if (hop >= maxRedirects)
          throw new PageReadError(`${rawUrl} redirected more than ${maxRedirects} times`, 'redirects');
        url = httpUrl(new URL(location, url).href, `a redirect from ${url.href} to a`);
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel();
        const reason = response.statusText ? ` ${response.statusText}` : '';
        throw new PageReadError(
          `${url.href} answered HTTP ${response.status}${reason}`,
          'http-status',
          response.status,
        );
      }
      const header = response.headers.get('content-type');
      const type = mediaType(header);
      if (type && !bodyKind(type)) {
        await response.body?.cancel();
        throw new PageReadError(
          `${url.href} is ${type}, which is not read; only HTML, text and JSON pages can be read`,
          'content-type',
        );
      }
      const length = Number(response.headers.get('content-length') ?? '0');
      if (length > maxBodyBytes) {
        await response.body?.cancel();
        throw new PageReadError(
          `${url.href} is ${length} bytes, over the ${maxBodyBytes}-byte limit of a page read`,
          'too-large',
        );
      }
      const bytes = await readCapped(response.body, maxBodyBytes, url.href);
      const kind = bodyKind(type, bytes);
      if (!kind)
        throw new PageReadError(
          `${url.href} has no Content-Type and does not look like text; only HTML, text and JSON pages can be read`,
          'content-type',
        );
      const text = decodeBody(bytes, header, kind);
      const page =
        kind === 'html'
          ? htmlToArticle(text, url.href)
          : {
              markdown: text,
              extraction: 'text' as const,
              title: undefined,
              byline: undefined,
              siteName: undefined,
            };
      const slice = sliceText(page.markdown, opts.offset ?? 0, opts.maxBytes);
      return {
        url: url.href,
        status: response.status,
        contentType: type,
        title: page.title,
        byline: page.byline,
        siteName: page.siteName,
        extraction: page.extraction,
        markdown: slice.text,
        totalChars: slice.totalChars,
        offset: slice.offset,
        nextOffset: slice.nextOffset,
        truncated: slice.truncated,
      };
    } catch (error) {
      throw fetchFailure(error, url, signal, opts.timeoutMs);
    }
  }
}
