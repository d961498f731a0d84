/**
 * The one call a tool makes to answer with a document: bytes in (already fetched under the server's
 * own policy and size cap), a tool result out — the pages/sheets/slides asked for, within the
 * budgets, labelled untrusted, with a cursor to continue; failures as a ToolError naming why.
 */
import { advertisedAs, z } from '../schema.js';
import { ToolError } from '../server/errors.js';
import type { ToolResult } from '../server/tool.js';
import { UntrustedText } from '../untrusted/result.js';
import { detectDocument, KIND_NAMES } from './detect.js';
import {
  decodeDocumentCursor,
  documentError,
  documentResult,
  encodeDocumentCursor,
  parsePageRange,
} from './render.js';
import { type ExtractOptions, extractDocument } from './run.js';
import type { DocumentKind } from './types.js';

/** Input fields of a tool that reads documents: a page range and the continuation cursor. */
export const documentInputShape = {
  // The 40-character ceiling is enforced, not advertised: no range a model writes comes near it.
  pages: advertisedAs(z.string().max(40), { type: 'string' })
    .optional()
    .describe('Pages, slides or sheets, from 1: "5", "3-7" or "3-"'),
  cursor: z.string().max(2000).optional().describe('nextCursor from a truncated result, to continue'),
};

export interface DocumentRead {
  bytes: Uint8Array;
  /** The family, when known; else detected from the bytes and the hints. */
  kind?: DocumentKind;
  /** Detection hints: the declared media type and a file name. */
  mediaType?: string | null;
  name?: string | null;
  /** How the result names the document (a path, file name or URL). */
  source: string;
  /** What a cursor is bound to (a path, file id or URL): a cursor for another document is refused. */
  id: string;
  pages?: string;
  cursor?: string;
  /** How the model continues, given the cursor: e.g. `call read_document again with cursor "…"`. */
  continueWith?: (cursor: string) => string;
  /** Said after "not a document read here": where else the file can be read, e.g. "Read text with read_text_file." */
  otherwise?: string;
  options?: Omit<ExtractOptions, 'start' | 'lastPart'>;
}

/** True when `read` holds a document family read here (by its bytes or hints). */
export function isDocument(
  bytes: Uint8Array,
  hints: { mediaType?: string | null; name?: string | null },
): boolean {
  return detectDocument(bytes, hints) !== undefined;
}

/**
 * Extracts and renders a document as a tool result. Errors: ToolError for an unknown family, a bad
 * page range or cursor, or a document that cannot be read (encrypted, corrupt, too large, too slow).
 */
export async function readDocument(read: DocumentRead): Promise<ToolResult> {
  const kind = read.kind ?? detectDocument(read.bytes, { mediaType: read.mediaType, name: read.name });
  if (!kind) {
    throw new ToolError(
      `${read.source} is not a document read here (PDF, Word .docx/.odt, spreadsheets .xlsx/.xls/.ods/.csv, presentations .pptx/.odp, images).${read.otherwise ? ` ${read.otherwise}` : ''}`,
    );
  }
  const position = read.cursor
    ? decodeDocumentCursor(read.cursor, read.id)
    : read.pages
      ? (() => {
          const range = parsePageRange(read.pages);
          return { start: { part: range.first, offset: 0 }, ...(range.last ? { lastPart: range.last } : {}) };
        })()
      : { start: { part: 1, offset: 0 } };
  let doc: Awaited<ReturnType<typeof extractDocument>>;
  try {
    doc = await extractDocument(read.bytes, kind, { ...read.options, ...position });
  } catch (error) {
    throw documentError(error, read.source, kind);
  }
  if (doc.parts.length === 0 && !doc.image && position.start.part > doc.totalParts) {
    throw new ToolError(
      `pages: ${read.source} has ${doc.totalParts} ${KIND_NAMES[kind] === 'PDF' ? 'pages' : 'pages, slides or sheets'}; ask for a range within 1-${doc.totalParts}.`,
    );
  }
  const continueWith = read.continueWith ?? ((cursor: string) => `call again with cursor "${cursor}"`);
  return documentResult(doc, read.source, new UntrustedText(), (next) =>
    continueWith(encodeDocumentCursor(read.id, next, position.lastPart)),
  );
}
