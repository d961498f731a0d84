/**
 * A response body as text: which media types are read (HTML, and text or JSON as they are), the
 * body read under a byte cap and a deadline (a prefix when either cuts it), and its charset (BOM, then the Content-Type `charset`, then for HTML
 * a <meta charset> in the first 1024 bytes, else UTF-8).
 */
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

/** A body as read: all of it, or the prefix that fit the size cap or arrived before the deadline. */
export interface BodyRead {
  bytes: Uint8Array;
  /**
   * Why the body was cut ('size': over the cap; 'time': the time limit passed; 'refused': its first
   * bytes were not what `accept` reads); undefined when whole.
   */
  cut?: 'size' | 'time' | 'refused';
}

/** How many first bytes `accept` is shown (enough for every magic number and %PDF- within 1 KiB). */
export const SNIFF_BYTES = 1024;

/**
 * Reads `body` to the end or until it passes `maxBytes` (decoded bytes, as the body arrives after
 * Content-Encoding), then stops reading and calls `close` (closing the connection). When `signal` aborts with a
 * TimeoutError after some bytes arrived, the prefix is returned (`cut: 'time'`); with none, or for
 * any other abort or error, the error is thrown. With `accept`, the first {@link SNIFF_BYTES} bytes
 * (or the whole body, if shorter) are shown to it once: false stops reading there (`cut: 'refused'`),
 * so an endless or huge body of the wrong kind is not read to its cap.
 */
export async function readBody(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  signal: AbortSignal,
  close: () => void,
  accept?: (head: Uint8Array) => boolean,
): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let sniffed = !accept;
  try {
    for await (const chunk of body) {
      if (!sniffed && size + chunk.byteLength >= SNIFF_BYTES) {
        sniffed = true;
        const head = Buffer.concat([...chunks, chunk]);
        if (!accept?.(head)) {
          close();
          return { bytes: head, cut: 'refused' };
        }
      }
      if (size + chunk.byteLength > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        close();
        return { bytes: Buffer.concat(chunks), cut: 'size' };
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    const bytes = Buffer.concat(chunks);
    if (!sniffed && !accept?.(bytes)) return { bytes, cut: 'refused' };
    return { bytes };
  } catch (error) {
    close();
    const timedOut = signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError';
    if (timedOut && size > 0) return { bytes: Buffer.concat(chunks), cut: 'time' };
    throw error;
  }
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

/**
 * The body as a string in its charset (unknown labels decode as UTF-8; bad bytes as U+FFFD). With
 * `partial` (a cut body) a character cut at the end is dropped rather than shown as U+FFFD.
 */
export function decodeBody(
  bytes: Uint8Array,
  contentType: string | null | undefined,
  kind: BodyKind,
  partial = false,
): string {
  let label = 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf))
    label = charsetOf(contentType) ?? (kind === 'html' ? sniffMetaCharset(bytes) : undefined) ?? 'utf-8';
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes, { stream: partial });
}
