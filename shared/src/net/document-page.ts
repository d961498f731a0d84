/**
 * A fetched document (PDF, Office, OpenDocument — decided by the Content-Type and the bytes, never by
 * the URL's extension) as Markdown for `readPage`: each page, sheet or slide under a heading, read
 * through the documents module (worker thread, heap and time ceilings, nothing executed or fetched).
 */
// The modules themselves, not documents/index.js: this file is loaded lazily with net, and the index
// would bring zod (documents/read.ts) into that lazy chunk, initialised out of order in a bundle.
import { detectDocument, KIND_NAMES } from '../documents/detect.js';
import { ExtractError } from '../documents/errors.js';
import { extractDocument } from '../documents/run.js';
import { PageReadError } from './errors.js';

/** Most body bytes read of a document (a PDF is read whole or not at all). */
export const DOCUMENT_BODY_BYTES = 32 * 1024 * 1024;
/** Most Markdown made of one document, in bytes; the page's own paging (offset) serves it in slices. */
const DOCUMENT_TEXT_BYTES = 2 * 1024 * 1024;

const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/x-pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.ms-excel',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
]);

/** True for a media type whose body may be a document: the types above and a generic octet-stream. */
export function mayBeDocument(type: string): boolean {
  return DOCUMENT_TYPES.has(type) || type === 'application/octet-stream';
}

/** True when a document read here is that `kind` (images, SVG and CSV are pages' business, not ours). */
function isDocumentKind(kind: string | undefined): boolean {
  return kind !== undefined && kind !== 'image' && kind !== 'svg' && kind !== 'csv';
}

/**
 * True when a body's first bytes may start a document: `%PDF-` within them, or a ZIP (OOXML,
 * OpenDocument) or OLE2 (.xls) signature. Which document it is needs the whole body.
 */
export function mayStartDocument(head: Uint8Array): boolean {
  const start = Buffer.from(head.subarray(0, 1024)).toString('latin1');
  return (
    start.includes('%PDF-') ||
    start.startsWith('PK\x03\x04') ||
    start.startsWith('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1')
  );
}

const UNIT: Record<string, string> = {
  pdf: 'Page',
  pptx: 'Slide',
  odp: 'Slide',
  xlsx: 'Sheet',
  xls: 'Sheet',
  ods: 'Sheet',
};

/**
 * The Markdown of a document body, or undefined when the bytes are no document read here (the
 * caller then refuses the type). Errors: PageReadError 'content-type' naming why the document
 * cannot be read (encrypted, corrupt, too large, too slow).
 */
export async function documentMarkdown(
  bytes: Uint8Array,
  type: string,
  href: string,
  opts: { timeoutMs: number; cut: boolean; signal?: AbortSignal },
): Promise<string | undefined> {
  const kind = detectDocument(bytes, { mediaType: type });
  if (!kind || !isDocumentKind(kind)) return undefined;
  if (opts.cut) {
    throw new PageReadError(
      `${href} is a ${KIND_NAMES[kind]} larger than ${DOCUMENT_BODY_BYTES / 2 ** 20} MiB (or slower to arrive than the time limit), which fetch_url does not read`,
      'content-type',
    );
  }
  let doc: Awaited<ReturnType<typeof extractDocument>>;
  try {
    doc = await extractDocument(bytes, kind, {
      limits: { maxBytes: DOCUMENT_TEXT_BYTES, maxParts: 10_000, maxRows: 2_000 },
      timeoutMs: opts.timeoutMs,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (error) {
    if (error instanceof ExtractError) {
      throw new PageReadError(
        `${href} is a ${KIND_NAMES[kind]} that cannot be read: ${error.message}`,
        'content-type',
      );
    }
    throw error;
  }
  const unit = UNIT[kind];
  const parts = doc.parts.map((p) => {
    const head = unit
      ? `## ${unit} ${p.number}${p.name ? `: ${p.name}` : ''}${p.range ? ` (${p.range})` : ''}\n\n`
      : '';
    const body = p.text || (p.empty ? `_${p.empty}_` : '');
    return `${head}${body}${p.notes ? `\n\nNotes: ${p.notes}` : ''}`;
  });
  // "1 page", "3 sheets", "1 part" (the server's pages.ts `counted` is not imported here: the
  // document code is loaded lazily, and with that import the bundled server failed at start).
  const total = `${doc.totalParts} ${unit ? unit.toLowerCase() : 'part'}${doc.totalParts === 1 ? '' : 's'}`;
  const rest = doc.next
    ? [`[truncated: stopped at ${doc.stoppedBy} of ${total}; fetch_url reads no further]`]
    : [];
  return [`${KIND_NAMES[kind]}, ${total}.`, ...parts, ...rest].join('\n\n');
}
