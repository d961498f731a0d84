/**
 * read_file on an uploaded PDF, Office or OpenDocument file: its text per page, Markdown, tables per
 * sheet or text per slide (through @refmcp/shared/documents), not its bytes. Google Docs, Sheets and
 * Slides keep their native export (content.ts); images stay images.
 */
import type { drive_v3 } from '@googleapis/drive';
import { readDocument } from '@refmcp/shared/documents';
import { ToolError, type ToolResult } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { readContent } from './content.js';

/** Most bytes of a document downloaded to read it (it is read whole or not at all). */
export const DOCUMENT_DOWNLOAD_BYTES = 32 * 1024 * 1024;

/** Uploaded types read as documents (Google's own types export natively instead). */
const DOCUMENT_TYPES = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.ms-excel',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
]);

/** True when `file` is an uploaded document that read_file reads as text. */
export function isUploadedDocument(file: drive_v3.Schema$File): boolean {
  return DOCUMENT_TYPES.has(file.mimeType ?? '');
}

/**
 * The document's text as read_file's result: `structured` carries read_file's fields with the text
 * as `content`. Errors: ToolError (too large, encrypted, corrupt, a bad page range or cursor).
 */
export async function readDriveDocument(
  config: Config,
  file: drive_v3.Schema$File,
  head: { id: string; name: string; mimeType: string },
  args: { pages?: string; cursor?: string },
  signal: AbortSignal,
): Promise<ToolResult> {
  const content = await readContent(config.drive, file, { maxBytes: DOCUMENT_DOWNLOAD_BYTES }, signal);
  if (content.more) {
    throw new ToolError(
      `${head.name} is over ${DOCUMENT_DOWNLOAD_BYTES / 2 ** 20} MiB, too large to read as a document here; read parts of it as bytes with offset, or get a smaller copy`,
    );
  }
  const result = await readDocument({
    bytes: content.bytes,
    mediaType: head.mimeType,
    name: file.name ?? null,
    source: head.name,
    id: head.id,
    ...(args.pages ? { pages: args.pages } : {}),
    ...(args.cursor ? { cursor: args.cursor } : {}),
    continueWith: (cursor) => `call read_file again with file_id ${head.id} and cursor "${cursor}"`,
    options: { limits: { maxBytes: config.readBytes }, signal },
  });
  const text = result.content.find((c) => c.type === 'text')?.text ?? '';
  return {
    ...result,
    structuredContent: {
      ...head,
      contentType: 'text/markdown',
      size: content.bytes.length,
      offset: 0,
      content: text,
    },
  };
}
