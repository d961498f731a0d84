/**
 * Reading files: `get_file_metadata` and `read_file` (by id or URL; the export that fits the type;
 * a byte window or a line range of big texts; a Sheet's range as rows; images as image content,
 * other bytes described, never shown as text). Text and names go through the untrusted-content
 * builder; every read has a byte budget and says how to continue.
 */

import type { drive_v3 } from '@googleapis/drive';
import { documentInputShape } from '@refmcp/shared/documents';
import { z } from '@refmcp/shared/schema';
import { compact, count, OPEN_WORLD_HINTS, ToolError, truncationMarker } from '@refmcp/shared/server';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import { placeThreads, readThreads } from '../comments.js';
import type { Config } from '../config.js';
import { type Content, EXPORT_TYPE, readContent, wholeCharsEnd } from '../content.js';
import { isUploadedDocument, readDriveDocument } from '../document-read.js';
import { FILE_FIELDS, fileShape, GOOGLE, kindOf, METADATA_FIELDS, toEntry } from '../format/files.js';
import { countArg, cursorArg, fileIdArg, fileIdOf } from '../names.js';
import { parseA1, parseCsv, selectRange } from '../sheets.js';
import { followShortcut, withShortcut } from '../shortcuts.js';
import type { DriveTool } from '../toolsets.js';
import { fileTool, getFile, scopeNote, sharedDriveNames } from './common.js';

/** Bytes scanned for a line range (lines past this are out of reach of one call). */
const LINE_SCAN_BYTES = 8 * 1024 * 1024;

const readShape = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string().describe("The file's type"),
  contentType: z.string().describe('Type of the content returned (the export type for Google files)'),
  size: count().optional().describe('Bytes of the whole content, when known'),
  offset: count().describe('Byte offset the content starts at'),
  content: z.string().optional(),
  nextOffset: count().optional().describe('Pass as offset to read on'),
  startLine: count().optional(),
  endLine: count().optional(),
  rows: z.array(z.array(z.string())).optional().describe('A Sheet range, row by row'),
  binary: z.boolean().optional().describe('True when the content is bytes, not text'),
  shortcutId: z.string().optional().describe('The shortcut read through (id is its target)'),
  ...neutralizedField,
});

export function readingTools(config: Config): DriveTool[] {
  const scope = scopeNote(config);
  const kib = config.readBytes / 1024;
  return [
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'get_file_metadata',
      title: 'Get file metadata',
      toolset: 'files',
      description: `A file's metadata: size, owners, times, parent, Shared Drive, description, link.${scope}`,
      inputSchema: z.strictObject({ file_id: fileIdArg() }),
      outputSchema: fileShape.extend({
        description: z.string().optional(),
        createdTime: z.string().optional(),
        webViewLink: z.string().optional(),
        shared: z.boolean().optional(),
        starred: z.boolean().optional(),
        trashed: z.boolean().optional(),
        lastModifiedBy: z.string().optional(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async ({ file_id }, { signal }) => {
        const id = fileIdOf(file_id);
        const file = await getFile(config, id, METADATA_FIELDS, signal);
        const text = new UntrustedText();
        const entry = toEntry(file, text);
        const description = text.clean(file.description, 4096);
        const modifier = file.lastModifyingUser
          ? text.line(
              [file.lastModifyingUser.displayName, file.lastModifyingUser.emailAddress]
                .filter(Boolean)
                .join(' '),
            )
          : undefined;
        const drives = await sharedDriveNames(config, entry.driveId ? [entry.driveId] : [], text, signal);
        const structured = compact({
          ...entry,
          description: description || undefined,
          createdTime: file.createdTime ?? undefined,
          webViewLink: file.webViewLink ?? undefined,
          shared: file.shared ?? undefined,
          starred: file.starred ?? undefined,
          trashed: file.trashed ?? undefined,
          lastModifiedBy: modifier,
        });
        const exportType = file.mimeType ? EXPORT_TYPE[file.mimeType] : undefined;
        return respond(
          structured,
          [
            `${entry.name} — ${kindOf(entry.mimeType)} (${entry.mimeType})`,
            `id ${entry.id}${entry.parentId ? `, in folder ${entry.parentId}` : ''}${entry.driveId ? `, Shared Drive ${drives.get(entry.driveId) ?? ''} (${entry.driveId})` : ', My Drive'}`,
            [
              entry.size !== undefined ? `${entry.size} bytes` : '',
              file.createdTime ? `created ${file.createdTime}` : '',
              entry.modifiedTime ? `modified ${entry.modifiedTime}${modifier ? ` by ${modifier}` : ''}` : '',
            ]
              .filter(Boolean)
              .join(', '),
            entry.owners?.length ? `owners: ${entry.owners.join(', ')}` : '',
            file.trashed ? 'In the trash.' : '',
            file.webViewLink ? `link: ${file.webViewLink}` : '',
            exportType ? `read_file returns it as ${exportType}.` : '',
            file.shortcutDetails?.targetId
              ? `Shortcut to ${file.shortcutDetails.targetId} (${kindOf(file.shortcutDetails.targetMimeType)}): read_file reads the target.`
              : '',
            block('file description', description),
          ].filter(Boolean),
          text,
        );
      },
    }),
    fileTool(config, (a: { file_id: string }) => a.file_id, 'file_id', {
      name: 'read_file',
      title: 'Read file',
      toolset: 'files',
      heartbeat: 'reading the file',
      description: `Read a file: Docs as Markdown, Sheets as CSV, Slides as text, Drawings and images as images, PDF/Office as text by page, other text as is; at most ${kib} KiB a call.${scope}`,
      inputSchema: z.strictObject({
        file_id: fileIdArg(),
        offset: countArg('Byte offset', 0, 1e12),
        start_line: countArg('First line, from 1', 1, 1e9),
        line_count: countArg('Lines from start_line', 1, 1e6),
        range: z.string().max(100).optional().describe('Sheets: A1 range in the first sheet, e.g. A1:D20'),
        comments: z.boolean().optional().describe('Docs: open comment threads at their anchors'),
        ...documentInputShape,
        // The document read's result says how to continue with it.
        cursor: cursorArg(),
      }),
      outputSchema: readShape,
      annotations: OPEN_WORLD_HINTS.readOnly,
      handler: async (
        { file_id, offset = 0, start_line, line_count, range, comments, pages, cursor },
        { signal },
      ) => {
        const fields = withShortcut(FILE_FIELDS);
        const asked = await getFile(config, fileIdOf(file_id), fields, signal);
        const { file, shortcut } = await followShortcut(config, asked, fields, signal);
        const id = file.id ?? fileIdOf(file_id);
        const text = new UntrustedText();
        const name = shortcut
          ? `${text.line(file.name ?? id)} (through shortcut ${text.line(shortcut.name ?? '')} ${shortcut.id})`
          : text.line(file.name ?? id);
        const mimeType = file.mimeType ?? 'application/octet-stream';
        const document = isUploadedDocument(file);
        if ((pages !== undefined || cursor !== undefined) && !document)
          throw new ToolError(
            `${pages !== undefined ? 'pages' : 'cursor'}: ${id} is a ${kindOf(mimeType)}, not a PDF or Office file`,
          );
        if (document && offset === 0 && start_line === undefined && line_count === undefined)
          return readDriveDocument(config, file, { id, name, mimeType }, { pages, cursor }, signal);
        if (range !== undefined && mimeType !== GOOGLE.sheet)
          throw new ToolError(`range: ${id} is a ${kindOf(mimeType)}, not a Google Sheet`);
        const a1 = range !== undefined ? parseA1(range) : undefined;
        const lines = start_line !== undefined || line_count !== undefined;
        if (lines && offset)
          throw new ToolError('offset: give either offset or start_line/line_count, not both');
        if (comments && mimeType !== GOOGLE.doc)
          throw new ToolError(
            `comments: ${id} is a ${kindOf(mimeType)}; comments are placed in Google Docs only (list them with list_comments)`,
          );
        if (comments && lines) throw new ToolError('comments: read with offset, not start_line/line_count');
        const content = comments
          ? await withComments(config, file, offset, text, signal)
          : await readContent(
              config.drive,
              file,
              {
                offset,
                maxBytes:
                  lines || a1
                    ? LINE_SCAN_BYTES
                    : mimeType.startsWith('image/') || mimeType === GOOGLE.drawing
                      ? config.blobBytes
                      : config.readBytes,
              },
              signal,
            );
        if (offset > 0 && content.bytes.length === 0)
          throw new ToolError(
            `offset: ${offset} is at or past the end of ${name}${content.size !== undefined ? ` (${content.size} bytes)` : ''}`,
          );
        const head = {
          id,
          name: text.line(file.name ?? id),
          mimeType,
          contentType: content.mimeType,
          ...(content.size !== undefined ? { size: content.size } : {}),
          ...(shortcut?.id ? { shortcutId: shortcut.id } : {}),
        };
        if (!content.text) return binaryResult(config, head, content.bytes, content.more, offset);
        const whole = content.bytes.toString('utf8');
        if (a1) {
          const rows: string[][] = [];
          let bytes = 0;
          const all = selectRange(parseCsv(whole), a1);
          for (const row of all) {
            const cells = row.map((c) => text.line(c, 4096));
            bytes += Buffer.byteLength(cells.join(',')) + 1;
            if (bytes > config.readBytes && rows.length) break;
            rows.push(cells);
          }
          const csv = rows
            .map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
            .join('\n');
          return respond(
            { ...head, offset: 0, rows },
            [
              `${name} (${kindOf(mimeType)}), range ${range}: ${rows.length} row(s)`,
              block(`sheet ${name}`, csv),
              rows.length < all.length
                ? truncationMarker(`${all.length - rows.length} more rows`, 'ask for a smaller range')
                : '',
            ].filter(Boolean),
            text,
          );
        }
        if (lines) {
          const all = whole.split('\n');
          const first = (start_line ?? 1) - 1;
          if (first > 0 && first >= all.length)
            throw new ToolError(
              `start_line: ${start_line} is past the last line of ${name} (${all.length}${content.more ? ` in the first ${LINE_SCAN_BYTES / 1024 / 1024} MiB scanned; read further with offset` : ''})`,
            );
          const picked = all.slice(first, line_count ? first + line_count : undefined);
          const body = text.code(picked.join('\n'), config.readBytes, 'ask for fewer lines');
          const endLine = first + picked.length;
          return respond(
            compact({ ...head, offset: 0, content: body, startLine: first + 1, endLine }),
            [
              `${name} (${kindOf(mimeType)}${content.mimeType !== mimeType ? ` as ${content.mimeType}` : ''}${how(content)}), lines ${first + 1}–${endLine} of ${content.more ? `at least ${all.length}` : all.length}:`,
              block(`file ${name}`, body),
              endLine < all.length || content.more
                ? truncationMarker('more lines', `call again with start_line: ${endLine + 1}`)
                : '',
            ].filter(Boolean),
            text,
          );
        }
        // The window may start or end inside a character: begin at the first whole one (an
        // offset the model chose), stop at the last whole one.
        let begin = 0;
        if (offset) while (begin < 3 && ((content.bytes[begin] ?? 0) & 0xc0) === 0x80) begin++;
        const end = content.more ? Math.max(begin, wholeCharsEnd(content.bytes)) : content.bytes.length;
        const body = text.code(content.bytes.subarray(begin, end).toString('utf8'));
        const nextOffset = content.more ? offset + end : undefined;
        const remaining =
          content.size !== undefined && nextOffset !== undefined
            ? `${content.size - nextOffset} more bytes`
            : 'more bytes';
        return respond(
          compact({ ...head, offset: offset + begin, content: body, nextOffset }),
          [
            `${name} (${kindOf(mimeType)}${content.mimeType !== mimeType ? ` as ${content.mimeType}` : ''}${content.size !== undefined ? `, ${content.size} bytes` : ''}${offset ? `, from byte ${offset + begin}` : ''}${how(content)}):`,
            block(`file ${name}`, body),
            nextOffset !== undefined
              ? truncationMarker(remaining, `call again with offset: ${nextOffset}`)
              : '',
          ].filter(Boolean),
          text,
        );
      },
    }),
  ];
}

/** How the content was read, when it was not plainly exported or downloaded (for the heading). */
function how(content: Content): string {
  if (content.via === 'export link') return ", read through its export link: over Drive's 10 MB export limit";
  if (content.via === 'docs api')
    return `, all ${content.tabs} tabs through the Docs API, each after a [tab: title] line`;
  return content.note ? `; ${content.note}` : '';
}

/**
 * A Doc's Markdown with its open comment threads placed at their anchors (comments.ts), read as
 * one text and windowed at `offset` like any read (the threads count against the same budget).
 */
async function withComments(
  config: Config,
  file: drive_v3.Schema$File,
  offset: number,
  text: UntrustedText,
  signal: AbortSignal,
): Promise<Content> {
  const [doc, { threads, more }] = await Promise.all([
    readContent(config.drive, file, { offset: 0, maxBytes: LINE_SCAN_BYTES }, signal),
    readThreads(config, file.id ?? '', text, signal),
  ]);
  const placed = placeThreads(doc.bytes.toString('utf8'), threads);
  const note = more ? `\n\n[more than ${threads.length} comment threads: the rest are not shown]` : '';
  const all = Buffer.from(placed.text + note, 'utf8');
  const bytes = all.subarray(offset, offset + config.readBytes);
  return { ...doc, bytes, start: offset, more: all.length > offset + config.readBytes, size: all.length };
}

/** An image as image content (within the blob budget); other bytes described, never as text. */
function binaryResult(
  config: Config,
  head: { id: string; name: string; mimeType: string; contentType: string; size?: number },
  bytes: Buffer,
  more: boolean,
  offset: number,
) {
  const image = head.contentType.startsWith('image/') && !offset;
  const fits = !more && bytes.length <= config.blobBytes;
  const result = respond({ ...head, offset, binary: true }, [
    image && fits
      ? `${head.name} (${kindOf(head.mimeType)}) as ${head.contentType}, ${bytes.length} bytes: the image follows.`
      : `${head.name} is ${head.contentType} bytes${head.size !== undefined ? ` (${head.size} bytes)` : ''}, not text: its content is not shown.${image ? ` The image is over the ${config.blobBytes}-byte limit of one read.` : ''} Read it as the resource gdrive:///${head.id}, or open it in Drive.`,
  ]);
  if (image && fits)
    result.content.push({ type: 'image', data: bytes.toString('base64'), mimeType: head.contentType });
  return result;
}
