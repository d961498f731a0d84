/**
 * What the model reads of an extracted document: a head line (family, parts, what is shown), each
 * page/slide/sheet headed by its number (and name, used range, notes), the text labelled as
 * untrusted data, and the standard truncation marker with a cursor to continue.
 */
import { decodeCursor, encodeCursor, truncationMarker } from '../server/budget.js';
import { ToolError } from '../server/errors.js';
import type { ToolResult } from '../server/tool.js';
import { block, type UntrustedText } from '../untrusted/result.js';
import { UNTRUSTED_NOTICE } from '../untrusted/sanitize.js';
import { KIND_NAMES } from './detect.js';
import { ExtractError } from './errors.js';
import type { DocumentKind, DocumentPart, DocumentPosition, ExtractedDocument } from './types.js';

const UNIT: Record<DocumentKind, string> = {
  pdf: 'page',
  docx: 'part',
  odt: 'part',
  xlsx: 'sheet',
  xls: 'sheet',
  ods: 'sheet',
  csv: 'sheet',
  pptx: 'slide',
  odp: 'slide',
  image: 'image',
  svg: 'part',
};

/** Where a read resumes: the position and the range's last part, bound to one document by `id`. */
export interface DocumentCursor {
  start: DocumentPosition;
  lastPart?: number;
}

/** An opaque cursor for `next`, tied to the document `id` (a path, file id or URL). */
export function encodeDocumentCursor(id: string, next: DocumentPosition, lastPart?: number): string {
  return encodeCursor({ doc: id, p: next.part, o: next.offset, ...(lastPart ? { l: lastPart } : {}) });
}

/** Reads a cursor from {@link encodeDocumentCursor}; ToolError when it is not one or is for another document. */
export function decodeDocumentCursor(cursor: string, id: string): DocumentCursor {
  const state = decodeCursor<{ doc?: string; p?: number; o?: number; l?: number }>(cursor);
  if (state.doc !== id) {
    throw new ToolError(
      'cursor: this cursor was issued for another document; pass it with the same file it came from',
    );
  }
  const whole = (n: unknown, min: number) => Number.isSafeInteger(n) && (n as number) >= min;
  if (
    !whole(state.p, 1) ||
    !whole(state.o, 0) ||
    (state.l !== undefined && !whole(state.l, state.p as number))
  ) {
    throw new ToolError(
      'cursor: not a cursor this server issued; pass the cursor of the last result unchanged',
    );
  }
  return {
    start: { part: state.p as number, offset: state.o as number },
    ...(state.l ? { lastPart: state.l } : {}),
  };
}

/**
 * A page range as people write it: "5", "3-7", "3-" (to the end). Pages, slides or sheets, from 1.
 * ToolError naming `arg` otherwise.
 */
export function parsePageRange(range: string, arg = 'pages'): { first: number; last?: number } {
  const m = range.trim().match(/^(\d+)\s*(?:(-)\s*(\d+)?)?$/);
  const first = Number(m?.[1]);
  const last = m?.[3] ? Number(m[3]) : m?.[2] ? undefined : first;
  if (!m || first < 1 || (last !== undefined && last < first)) {
    throw new ToolError(`${arg}: "${range}" is not a page range; write "5", "3-7" or "3-" (numbers from 1)`);
  }
  return { first, ...(last !== undefined ? { last } : {}) };
}

function heading(doc: ExtractedDocument, part: DocumentPart, untrusted: UntrustedText): string | undefined {
  const unit = UNIT[doc.kind];
  const bits: string[] = [];
  if (part.name) bits.push(`"${untrusted.line(part.name, 200)}"`);
  if (part.range) bits.push(`used range ${part.range}${part.rows ? `, ${part.rows} rows` : ''}`);
  if (part.offset)
    bits.push(
      doc.kind.match(/xls|ods|csv/)
        ? `from row ${part.offset + 1} of the range`
        : `continued at character ${part.offset}`,
    );
  if (part.empty) bits.push(part.empty);
  const label =
    doc.totalParts > 1 || unit === 'page' || unit === 'slide' || unit === 'sheet'
      ? `${unit} ${part.number}`
      : '';
  const words = [label, ...bits].filter(Boolean).join(' — ');
  // Nothing to say (the one part of a word-processing document): no heading, not an empty "---  ---".
  return words ? `--- ${words} ---` : undefined;
}

/**
 * The text of an extracted document for the model. `source` names it (path, file name, URL);
 * `continueWith` says how to get the rest from `next` (e.g. `call read_document again with cursor
 * "…"`). Every piece of document text goes through `untrusted`.
 */
export function documentText(
  doc: ExtractedDocument,
  source: string,
  untrusted: UntrustedText,
  continueWith: (next: DocumentPosition) => string,
): string {
  const unit = UNIT[doc.kind];
  const lines: string[] = [];
  const shown = doc.parts.map((p) => p.number);
  const span =
    shown.length === 0
      ? 'nothing shown'
      : shown.length === 1
        ? `${unit} ${shown[0]} shown`
        : `${unit}s ${shown[0]}–${shown[shown.length - 1]} shown`;
  lines.push(
    `${source}: ${KIND_NAMES[doc.kind]}, ${doc.totalParts} ${unit}${doc.totalParts === 1 ? '' : 's'}; ${span}.`,
  );
  for (const part of doc.parts) {
    const head = heading(doc, part, untrusted);
    if (head) lines.push(head);
    const text = untrusted.clean(part.text);
    if (text) lines.push(block(`${source} ${unit} ${part.number}`, text));
    if (part.notes)
      lines.push(`Notes:\n${block(`${source} ${unit} ${part.number} notes`, untrusted.clean(part.notes))}`);
  }
  if (doc.next) lines.push(truncationMarker(`stopped at ${doc.stoppedBy}`, continueWith(doc.next)));
  return lines.join('\n');
}

/**
 * The tool result for an extracted document: an image block plus a caption for images, else the
 * text of {@link documentText} headed by the untrusted-content notice.
 */
export function documentResult(
  doc: ExtractedDocument,
  source: string,
  untrusted: UntrustedText,
  continueWith: (next: DocumentPosition) => string,
): ToolResult {
  if (doc.image) {
    const i = doc.image;
    const scaled =
      i.width !== i.originalWidth || i.mimeType !== i.originalMimeType
        ? `, scaled from ${i.originalWidth}×${i.originalHeight} ${i.originalMimeType} to ${i.width}×${i.height} ${i.mimeType}`
        : '';
    return {
      content: [
        { type: 'image', data: Buffer.from(i.data).toString('base64'), mimeType: i.mimeType },
        { type: 'text', text: `${source}: image, ${i.originalWidth}×${i.originalHeight} pixels${scaled}.` },
      ],
    };
  }
  const text = documentText(doc, source, untrusted, continueWith);
  const note = untrusted.note();
  return { content: [{ type: 'text', text: [UNTRUSTED_NOTICE, text, note].filter(Boolean).join('\n') }] };
}

/** A ToolError for a failed extraction: "Cannot read <source> (<family>): <why>." */
export function documentError(error: unknown, source: string, kind?: DocumentKind): Error {
  if (!(error instanceof ExtractError)) return error as Error;
  return new ToolError(`Cannot read ${source}${kind ? ` as ${KIND_NAMES[kind]}` : ''}: ${error.message}.`);
}
