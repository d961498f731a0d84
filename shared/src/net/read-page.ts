/**
 * `readPage`: one web page as Markdown, under the operator's network policy and a byte budget.
 *
 * - http and https only; the URL, every redirect target (followed by hand, at most
 *   `maxRedirects`) and — at connect time, on the resolved address — every connection are checked
 *   against the {@link NetworkPolicy} (fetch-page.ts, connector.ts), so neither a redirect nor DNS
 *   rebinding reaches a loopback, private, link-local or metadata address the operator did not allow.
 * - The body is read up to `maxBodyBytes` and until the time limit; a longer or endless body is
 *   cut there (the connection closed) and its prefix read, marked (`bodyCut`). HTML becomes its
 *   readable article (article.ts) in a worker thread, within its own time limit and a heap
 *   ceiling (documents/run.ts convertHtml), the server's thread free meanwhile; text and JSON pass as they are,
 *   PDF and Office documents become their text (document-page.ts); other types are refused with the type named.
 * - The Markdown is paged: `maxBytes` UTF-8 bytes from `offset` (slice.ts), with `nextOffset` for
 *   the rest; {@link pageReadMarker} words the truncation marker. A read from offset 0 fetches the
 *   page; continuations page through that snapshot while it is kept (page-cache.ts).
 *
 * The content is the page author's, untrusted: callers label it as data (`@refmcp/shared/untrusted`).
 */

import { ExtractError } from '../documents/errors.js';
import { convertHtml } from '../documents/run.js';
import { truncationMarker } from '../server/budget.js';
import { bodyKind, decodeBody, mediaType, readBody } from './body.js';
import { DOCUMENT_BODY_BYTES, documentMarkdown, mayBeDocument, mayStartDocument } from './document-page.js';
import { PageReadError } from './errors.js';
import { fetchFailure, fetchPage } from './fetch-page.js';
import { keepSnapshot, snapshotOf } from './page-cache.js';
import type { NetworkPolicy } from './policy/network-policy.js';
import { sliceText } from './slice.js';

export interface ReadPageOptions {
  /** The operator's policy (networkPolicyFromFlags). */
  policy: NetworkPolicy;
  /** Budget of the Markdown returned by this call, in UTF-8 bytes. */
  maxBytes: number;
  /** Where to continue, in characters of the page's Markdown (a previous call's `nextOffset`); default 0. */
  offset?: number;
  /**
   * Time limit of the request (redirects and body included), ms. A body still arriving then is cut
   * and its prefix read; a page with no body byte by then fails with 'timeout'.
   */
  timeoutMs: number;
  /**
   * Time limit of turning an HTML page into Markdown, after it is read, ms (default 60 s,
   * HTML_DEFAULTS); past it the call fails with 'timeout' naming the limit.
   */
  convertTimeoutMs?: number;
  /** The flag that sets `convertTimeoutMs` (e.g. "--convert-timeout"), named when a conversion times out. */
  convertTimeoutFlag?: string;
  /** The User-Agent header sent. */
  userAgent: string;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
  /** Most body bytes read, after Content-Encoding (default 2 MiB); a longer body is cut there. */
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
  extraction: 'article' | 'body' | 'text' | 'document';
  /** This call's slice of the page's Markdown. */
  markdown: string;
  /** Length of the whole Markdown, in characters (UTF-16 code units). */
  totalChars: number;
  /** Where this slice starts. */
  offset: number;
  /** Where the next slice starts (pass as `offset`); undefined at the end of what was read. */
  nextOffset?: number;
  /** True when something after this slice was left out: more Markdown, or a body cut short. */
  truncated: boolean;
  /** Body bytes read (after Content-Encoding). */
  bodyBytes: number;
  /** Why the body was cut ('size': over maxBodyBytes; 'time': the time limit); undefined when whole. */
  bodyCut?: 'size' | 'time';
  /** When the page was fetched (ISO 8601); a continuation shows the time of the snapshot it pages. */
  fetchedAt: string;
}

export const DEFAULT_MAX_REDIRECTS = 5;
/** 2 MiB: Readability on linkedom takes seconds per MiB of article markup. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * The readable article of a page's HTML, made off the server's thread (documents/run.ts
 * convertHtml: a worker with a heap ceiling), within `convertTimeoutMs` after the read — the server
 * answers other calls meanwhile. Errors: PageReadError 'timeout' naming the limit (the conversion
 * took longer, or needed more memory than allowed); the caller's abort reason when cancelled.
 */
async function articleOf(html: string, href: string, opts: ReadPageOptions) {
  try {
    return await convertHtml(html, href, {
      ...(opts.convertTimeoutMs ? { timeoutMs: opts.convertTimeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (error) {
    if (error instanceof ExtractError && (error.failure === 'timeout' || error.failure === 'memory')) {
      const flag =
        error.failure === 'timeout' && opts.convertTimeoutFlag
          ? ` (${opts.convertTimeoutFlag} sets the limit)`
          : '';
      throw new PageReadError(`${href} could not be read: ${error.message}${flag}`, 'timeout');
    }
    if (error instanceof ExtractError)
      throw new PageReadError(`${href} could not be read: ${error.message}`, 'content-type');
    throw error;
  }
}

/** A page as read and converted, before paging (what a snapshot keeps). */
type LoadedPage = Omit<PageRead, 'markdown' | 'totalChars' | 'offset' | 'nextOffset' | 'truncated'> & {
  markdown: string;
};

async function loadPage(rawUrl: string, opts: ReadPageOptions, maxBodyBytes: number): Promise<LoadedPage> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  const { url, response } = await fetchPage(rawUrl, {
    policy: opts.policy,
    userAgent: opts.userAgent,
    maxRedirects: opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    signal,
    timeoutMs: opts.timeoutMs,
  });
  const fetchedAt = new Date().toISOString();
  const header = response.headers['content-type'];
  const type = mediaType(header);
  if (response.status < 200 || response.status > 299) {
    response.close();
    const reason = response.statusText ? ` ${response.statusText}` : '';
    throw new PageReadError(
      `${url.href} answered HTTP ${response.status}${reason}`,
      'http-status',
      response.status,
    );
  }
  if (type && !bodyKind(type) && mayBeDocument(type)) {
    let body: Awaited<ReturnType<typeof readBody>>;
    try {
      // A generic octet-stream is read on only when its first bytes are a document's.
      const accept = type === 'application/octet-stream' ? mayStartDocument : undefined;
      body = await readBody(response.body, DOCUMENT_BODY_BYTES, signal, response.close, accept);
    } catch (error) {
      throw fetchFailure(error, url, signal, opts.timeoutMs);
    }
    const markdown =
      body.cut === 'refused'
        ? undefined
        : await documentMarkdown(body.bytes, type, url.href, {
            timeoutMs: opts.timeoutMs,
            cut: body.cut !== undefined,
            ...(opts.signal ? { signal: opts.signal } : {}),
          });
    if (markdown !== undefined) {
      return {
        url: url.href,
        status: response.status,
        contentType: type,
        extraction: 'document',
        markdown,
        bodyBytes: body.bytes.byteLength,
        fetchedAt,
      };
    }
    throw new PageReadError(
      `${url.href} is ${type}, which is not read; only HTML, text, JSON and documents (PDF, Office) can be`,
      'content-type',
    );
  }
  if (type && !bodyKind(type)) {
    response.close();
    throw new PageReadError(
      `${url.href} is ${type}, which is not read; only HTML, text, JSON and documents (PDF, Office) can be`,
      'content-type',
    );
  }
  let body: Awaited<ReturnType<typeof readBody>>;
  try {
    body = await readBody(response.body, maxBodyBytes, signal, response.close);
  } catch (error) {
    throw fetchFailure(error, url, signal, opts.timeoutMs);
  }
  const kind = bodyKind(type, body.bytes);
  if (!kind)
    throw new PageReadError(
      `${url.href} has no Content-Type and does not look like text; only HTML, text and JSON pages can be read`,
      'content-type',
    );
  const text = decodeBody(body.bytes, header, kind, body.cut !== undefined);
  const page =
    kind === 'html' ? await articleOf(text, url.href, opts) : { markdown: text, extraction: 'text' as const };
  return {
    url: url.href,
    status: response.status,
    contentType: type,
    title: 'title' in page ? page.title : undefined,
    byline: 'byline' in page ? page.byline : undefined,
    siteName: 'siteName' in page ? page.siteName : undefined,
    extraction: page.extraction,
    markdown: page.markdown,
    bodyBytes: body.bytes.byteLength,
    bodyCut: body.cut as 'size' | 'time' | undefined, // read without `accept`: never 'refused'
    fetchedAt,
  };
}

/**
 * Reads `rawUrl` as Markdown (see the module comment). Returns this call's slice and where the
 * rest starts; a continuation (offset > 0) pages through the snapshot the first read kept
 * (page-cache.ts) while it is held, else fetches anew. Errors: {@link NetworkRefusal} (scheme,
 * origin or address refused — the message names the rule, the redirect hop if any, and the
 * operator flag), {@link PageReadError} (invalid URL, timeout, unreachable, HTTP error status, too
 * many redirects, a type that is not HTML/text/JSON), ToolError for an offset past the end.
 */
export async function readPage(rawUrl: string, opts: ReadPageOptions): Promise<PageRead> {
  const maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const offset = opts.offset ?? 0;
  const key = `${maxBodyBytes} ${rawUrl}`;
  let page = offset > 0 ? snapshotOf<LoadedPage>(opts.policy, key) : undefined;
  if (!page) {
    page = await loadPage(rawUrl, opts, maxBodyBytes);
    keepSnapshot(opts.policy, key, page);
  }
  const slice = sliceText(page.markdown, offset, opts.maxBytes);
  return {
    ...page,
    markdown: slice.text,
    totalChars: slice.totalChars,
    offset: slice.offset,
    nextOffset: slice.nextOffset,
    truncated: slice.truncated || page.bodyCut !== undefined,
  };
}

/**
 * The truncation marker of a read, or undefined when nothing was left out:
 * `[truncated: 1234 more characters of 5678; <continueWith(nextOffset)>]`, and when the body was
 * cut, what that means (`the page was cut after its first N bytes (size limit); the rest cannot be
 * read`). `continueWith` words the next call, e.g. (n) => `call fetch_url with offset=${n}`.
 */
export function pageReadMarker(
  read: PageRead,
  continueWith: (nextOffset: number) => string,
): string | undefined {
  const cut = read.bodyCut
    ? `the page was cut after its first ${read.bodyBytes} bytes (${read.bodyCut === 'size' ? 'size' : 'time'} limit), so the rest cannot be read`
    : undefined;
  if (read.nextOffset !== undefined) {
    const more = `${read.totalChars - read.nextOffset} more characters of ${read.totalChars}`;
    return truncationMarker(cut ? `${more}; ${cut}` : more, continueWith(read.nextOffset));
  }
  return cut ? `[truncated: ${cut}]` : undefined;
}
