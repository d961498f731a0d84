// Uploads (https://developers.google.com/drive/api/guides/manage-uploads): files.create and
// files.update on the upload path `/upload/drive/v3/files`, `uploadType=media` (the body is the
// content) and `uploadType=multipart` (multipart/related: JSON metadata, then the content).
// Resumable sessions are not served (the generated client never starts one).
import type { FakeRequest } from '../../fake-api/server.js';
import { fail } from './errors.js';
import type { FakeDrive } from './fake-drive.js';
import { requireWrite } from './fake-drive.js';
import { selectFields } from './fields.js';
import { jsonBody, lookupFile } from './http.js';
import { fileJson } from './objects.js';
import { applyUpdate, createFile, DEFAULT_FILE_FIELDS } from './routes-files.js';
import { EXPORT_FORMATS, type FileRecord, GOOGLE_TYPES } from './state.js';

/** One part of a multipart/related body. */
interface Part {
  contentType: string;
  body: Buffer;
}

/** Splits a multipart/related body by `boundary` (parts' own headers parsed for Content-Type). */
export function parseMultipart(bytes: Buffer, boundary: string): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (bytes.subarray(start, start + 2).toString() === '--') break;
    const next = bytes.indexOf(delimiter, start);
    if (next < 0) break;
    let chunk = bytes.subarray(start, next);
    if (chunk.subarray(0, 2).toString() === '\r\n') chunk = chunk.subarray(2);
    if (chunk.subarray(-2).toString() === '\r\n') chunk = chunk.subarray(0, -2);
    const split = chunk.indexOf('\r\n\r\n');
    const head = split < 0 ? '' : chunk.subarray(0, split).toString('utf8');
    const body = split < 0 ? chunk : chunk.subarray(split + 4);
    const contentType = /^content-type:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
    parts.push({ contentType, body });
    at = next;
  }
  return parts;
}

/** The upload's metadata and content, by `uploadType`. */
function readUpload(req: FakeRequest): {
  meta: Record<string, unknown>;
  content: Buffer;
  contentType: string;
} {
  const uploadType = req.query.get('uploadType');
  const bytes = req.bytes ?? Buffer.from(req.body, 'utf8');
  const contentType = req.headers['content-type'] ?? 'application/octet-stream';
  if (uploadType === 'media')
    return { meta: {}, content: bytes, contentType: contentType.split(';')[0]?.trim() ?? '' };
  if (uploadType === 'multipart') {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!/^multipart\/related/i.test(contentType) || !boundary)
      fail(400, 'badContent', 'Media type must be multipart/related for a multipart upload.');
    const [metaPart, media] = parseMultipart(bytes, boundary);
    if (!metaPart || !media)
      fail(400, 'badContent', 'A multipart upload needs a metadata part and a media part.');
    return {
      meta: jsonBody(metaPart.body.toString('utf8'), 'File'),
      content: media.body,
      contentType: media.contentType,
    };
  }
  fail(400, 'invalid', `Invalid upload type: ${uploadType ?? '(none)'}`, { location: 'uploadType' });
}

/** Stores uploaded `content` in `file` (a Doc created from text/markdown or text/plain keeps it as its exports). */
function store(file: FileRecord, content: Buffer, contentType: string): void {
  if (EXPORT_FORMATS[file.mimeType]) {
    if (file.mimeType !== GOOGLE_TYPES.doc || !contentType.startsWith('text/'))
      fail(400, 'badContent', `Cannot convert ${contentType} to ${file.mimeType}.`);
    file.exports = docExports(content.toString('utf8'));
    return;
  }
  if (file.mimeType === GOOGLE_TYPES.folder) fail(400, 'badContent', 'A folder has no content.');
  file.content = Buffer.from(content);
}

/** The exports of a Doc whose text is `markdown`. */
export function docExports(markdown: string): Record<string, Buffer> {
  const plain = markdown.replace(/^#+\s*/gm, '').replace(/[*_`]/g, '');
  const html = `<html><body>${plain
    .split('\n')
    .map((l) => `<p>${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
    .join('')}</body></html>`;
  return {
    'text/markdown': Buffer.from(markdown),
    'text/plain': Buffer.from(plain),
    'text/html': Buffer.from(html),
  };
}

/** Registers the upload routes. */
export function registerUploadRoutes(drive: FakeDrive): void {
  const { state } = drive;
  drive.route('POST', '/upload/drive/v3/files', (req, who) => {
    requireWrite(who);
    const { meta, content, contentType } = readUpload(req);
    const file = createFile(drive, req.query, {
      mimeType: contentType || 'application/octet-stream',
      ...meta,
    });
    store(file, content, contentType);
    return {
      body: selectFields(
        fileJson(file, drive.docs.url),
        'File',
        req.query.get('fields'),
        DEFAULT_FILE_FIELDS,
      ),
    };
  });

  drive.route('PATCH', '/upload/drive/v3/files/:fileId', (req, who) => {
    requireWrite(who);
    const file = lookupFile(state, req, req.params.fileId as string);
    const { meta, content, contentType } = readUpload(req);
    applyUpdate(drive, req.query, file, meta);
    store(file, content, contentType);
    return {
      body: selectFields(
        fileJson(file, drive.docs.url),
        'File',
        req.query.get('fields'),
        DEFAULT_FILE_FIELDS,
      ),
    };
  });
}
