/**
 * The text search_file_contents searches in a document (with `documents: true`): every page, sheet
 * or slide through @refmcp/shared/documents, each headed by a "[page N]" line so a match's context
 * says where it is. Bounded like any read: a byte budget and the search's own deadline.
 */
import { detectDocument, extractDocument } from '@refmcp/shared/documents';

/** Text searched per document, in bytes. */
const DOCUMENT_SEARCH_BYTES = 4 * 1024 * 1024;

const UNIT: Record<string, string> = {
  pdf: 'page',
  pptx: 'slide',
  odp: 'slide',
  xlsx: 'sheet',
  xls: 'sheet',
  ods: 'sheet',
};

/**
 * The searchable text of `bytes` when it is a PDF, Office or OpenDocument file; undefined for any
 * other binary. Throws (the caller counts the file unreadable) when it is one that cannot be read.
 */
export async function documentSearchText(
  bytes: Buffer,
  name: string,
  deadline: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const kind = detectDocument(bytes, { name });
  if (!kind || kind === 'image' || kind === 'svg') return undefined;
  const timeoutMs = Math.max(1000, deadline - performance.now());
  const doc = await extractDocument(bytes, kind, {
    limits: { maxBytes: DOCUMENT_SEARCH_BYTES, maxParts: 100_000, maxRows: 100_000 },
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  const unit = UNIT[kind];
  return doc.parts
    .map((p) => {
      const head = unit ? `[${unit} ${p.number}${p.name ? ` "${p.name}"` : ''}]\n` : '';
      return `${head}${p.text}${p.notes ? `\n[notes]\n${p.notes}` : ''}`;
    })
    .join('\n');
}
