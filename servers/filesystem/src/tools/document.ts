/**
 * read_document: a PDF, Word/OpenDocument text, spreadsheet, presentation or image file as what a
 * model reads (text per page, Markdown, tables per sheet, text per slide with notes, a scaled
 * image), through @refmcp/shared/documents. A tool of its own rather than a mode of read_text_file:
 * read_text_file's contract (lines, byte ranges, its output schema) does not fit pages and sheets,
 * and a mode would add its argument to both read_text_file and its alias read_file; one short tool
 * costs the model less and says plainly what it is for.
 */
import { DOCUMENT_DEFAULTS, documentInputShape, readDocument } from '@refmcp/shared/documents';
import { openInside } from '@refmcp/shared/paths';
import { pathString } from '@refmcp/shared/schema';
import { defineTool, LOCAL_HINTS, type ToolDefinition, ToolError } from '@refmcp/shared/server';
import * as z from 'zod';
import type { Config } from '../config.js';
import { formatBytes, quote } from '../format.js';

/** Largest file read_document reads, in bytes (the documents module's input ceiling). */
export const MAX_DOCUMENT_BYTES = DOCUMENT_DEFAULTS.maxInputBytes;

export function documentTools(config: Config): ToolDefinition[] {
  const maxBytes = Math.min(config.maxResultBytes, DOCUMENT_DEFAULTS.limits.maxBytes);
  return [
    defineTool({
      name: 'read_document',
      title: 'Read Document',
      description:
        'Read a PDF (text per page; scanned pages said), .docx/.odt (Markdown), .xlsx/.xls/.ods/.csv (a table ' +
        'per sheet), .pptx/.odp (text per slide with notes) or an image (scaled). ' +
        `At most ${maxBytes} bytes or ${DOCUMENT_DEFAULTS.limits.maxRows} rows a result; a cut one ends with ` +
        '"[truncated: …]" and a cursor.',
      inputSchema: z.strictObject({ path: pathString().describe('File to read'), ...documentInputShape }),
      annotations: LOCAL_HINTS.readOnly,
      handler: async (args, { signal }) => {
        const { handle, path, stat } = await openInside(config.workspace.roots, args.path);
        let bytes: Buffer;
        try {
          if (stat.size > MAX_DOCUMENT_BYTES) {
            throw new ToolError(
              `${quote(args.path)} is ${formatBytes(stat.size)}, over the ${formatBytes(MAX_DOCUMENT_BYTES)} limit for read_document.`,
            );
          }
          bytes = await handle.readFile({ signal });
        } finally {
          await handle.close().catch(() => {});
        }
        return readDocument({
          bytes,
          name: path.real,
          source: args.path,
          id: path.real,
          ...(args.pages ? { pages: args.pages } : {}),
          ...(args.cursor ? { cursor: args.cursor } : {}),
          continueWith: (cursor) => `call read_document again with cursor "${cursor}"`,
          otherwise: 'Read a text file with read_text_file.',
          options: { limits: { maxBytes }, ...(signal ? { signal } : {}) },
        });
      },
    }),
  ];
}
