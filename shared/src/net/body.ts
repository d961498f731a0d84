/**
 * A response body as text: which media types are read (HTML, and text or JSON as they are), the
 * body read under a byte cap, and its charset (BOM, then the Content-Type `charset`, then for HTML
 * a <meta charset> in the first 1024 bytes, else UTF-8).
 */
import { PageReadError } from './errors.js';

/** How a body is turned into Markdown: an HTML page, or text passed as it is. */
export type BodyKind = 'html' | 'text';

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * How a body of `type` (a media type, see {@link mediaType}) is read, or undefined when it is not
 * read at all (images, PDFs, archives, …). An absent type is sniffed from the first bytes.
 */
export function bodyKind(type: string, head?: Uint8Array): BodyKind | undefined {
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/')) return 'text';
  if (type === 'application/json' || type.endsWith('+json')) return 'text';
  if (type === 'application/xml' || type.endsWith('+xml')) return 'text';
  if (type === '' && head) {
    const start = Buffer.from(head.subarray(0, 1024)).toString('latin1');
    if (/^\s*<(!doctype\s+html|html|head|body)[\s>]/i.test(start)) return 'html';
    if (!start.includes('\0')) return 'text';
  }
  return undefined;
}

/**
 * Reads `body` to the end, failing once it passes `maxBytes` (decoded bytes, as the body arrives
 * after Content-Encoding). Errors: PageReadError 'too-large' naming the cap and `url`.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  url: string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!body) return new Uint8Array();
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes)
      throw new PageReadError(
        `${url} is larger than the ${maxBytes}-byte limit of a page read; only smaller pages can be read`,
        'too-large',
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function charsetOf(contentType: string | null | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
}

function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return (
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1]
  );
}

/** The body as a string in its charset (unknown labels and bad bytes decode as UTF-8 with U+FFFD). */
export function decodeBody(
  bytes: Uint8Array,
  contentType: string | null | undefined,
  kind: BodyKind,
): string {
  let label = 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf))
    label = charsetOf(contentType) ?? (kind === 'html' ? sniffMetaCharset(bytes) : undefined) ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
