/**
 * Reading a file's content within a byte budget, for read_file and resources/read:
 * - Google Docs export as Markdown, Sheets as CSV, Slides as plain text, Drawings as PNG (the
 *   reference's choices; a Drawing is bytes, never text); other Google types have no content;
 * - a Doc with more than one tab is read through the Docs API instead (doc-tabs.ts): the export
 *   does not say which tab a part comes from (and, as reported, may hold only the first tab);
 * - an export over Drive's 10 MB limit (403 `exportSizeLimitExceeded`, not retried) is read
 *   through the file's export link (https on a Google host, or loopback for tests) with a Range
 *   header and the body closed at the budget — or refused with what to do instead;
 * - other files are downloaded (`alt=media`) with a Range header: at most the budget (+1 byte to
 *   know whether more exists) is ever transferred; text is told from binary by the MIME type and
 *   by whether the bytes are UTF-8.
 */
import type { drive_v3 } from '@googleapis/drive';
import { ToolError } from '@refmcp/shared/server';
import { isLoopbackHost } from '@refmcp/shared/upstream';
import { readDocTabs } from './doc-tabs.js';
import type { DriveClient } from './drive/client.js';
import { isDriveError, SERVICE } from './drive/errors.js';
import { GOOGLE } from './format/files.js';
import { withoutInlineImages } from './format/inline-images.js';

/** What each Google type is exported as. */
export const EXPORT_TYPE: Readonly<Record<string, string>> = {
  [GOOGLE.doc]: 'text/markdown',
  [GOOGLE.sheet]: 'text/csv',
  [GOOGLE.slides]: 'text/plain',
  [GOOGLE.drawing]: 'image/png',
};

/** Drive's limit on files.export (developers.google.com/drive/api/reference/rest/v3/files/export). */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;

/** Bytes of a file's content, a window of it. */
export interface Content {
  /** The MIME type of the bytes (the export type for Google files). */
  mimeType: string;
  bytes: Buffer;
  /** True when the bytes are text (UTF-8). */
  text: boolean;
  /** Byte offset of `bytes` in the whole content. */
  start: number;
  /** True when more content follows `bytes`. */
  more: boolean;
  /** Size of the whole content in bytes, when known. */
  size?: number;
  /** How it was read. */
  via: 'export' | 'export link' | 'download' | 'docs api';
  /** Tabs of a Doc read through the Docs API. */
  tabs?: number;
  /** Something the reader should know about how it was read (e.g. tabs not checked, and why). */
  note?: string;
}

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|csv|x-sh|sql|x-ndjson|ld\+json)|image\/svg\+xml)/;

/** True when `bytes` (a window that may end inside a character) decode as UTF-8 without NULs. */
export function looksLikeText(bytes: Buffer, cut: boolean): boolean {
  let end = bytes.length;
  if (cut) for (let i = 0; i < 3 && end > 0 && ((bytes[end - 1] ?? 0) & 0x80) !== 0; i++) end--;
  const window = bytes.subarray(0, end);
  if (window.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(window);
    return true;
  } catch {
    return false;
  }
}

/** Bytes of `bytes` up to its last whole UTF-8 character (a window cut inside one ends before it). */
export function wholeCharsEnd(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 4; i--) {
    const byte = bytes[i] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return i + length > bytes.length ? i : bytes.length;
  }
  return bytes.length;
}

/** The export type for `file`, or a ToolError for a Google type with no content (folders, forms). */
export function exportTypeOf(file: drive_v3.Schema$File): string | undefined {
  const mime = file.mimeType ?? '';
  if (!mime.startsWith('application/vnd.google-apps.')) return undefined;
  const type = EXPORT_TYPE[mime];
  if (type) return type;
  if (mime === GOOGLE.folder)
    throw new ToolError(`${file.id} is a folder: list it with list_folder instead of reading it`);
  if (mime === GOOGLE.shortcut) {
    const target = file.shortcutDetails?.targetId;
    throw new ToolError(
      target
        ? `${file.id} is a shortcut to ${target}: read ${target} instead`
        : `${file.id} is a shortcut whose target Drive does not name: it cannot be read`,
    );
  }
  throw new ToolError(`${file.id} is a ${mime} file, which Drive cannot export as text or bytes`);
}

/** Options of {@link readContent}. */
export interface ReadWindow {
  /** First byte to return (default 0). */
  offset?: number;
  /** Most bytes to return. */
  maxBytes: number;
}

/** A window of `file`'s content (module comment). Errors: HttpError, ToolError. */
export async function readContent(
  client: DriveClient,
  file: drive_v3.Schema$File,
  window: ReadWindow,
  signal: AbortSignal,
): Promise<Content> {
  const offset = window.offset ?? 0;
  const id = file.id ?? '';
  const exportType = exportTypeOf(file);
  let note: string | undefined;
  if (file.mimeType === GOOGLE.doc) {
    const tabs = await readDocTabs(client, id, signal);
    if ('markdown' in tabs) {
      const all = Buffer.from(tabs.markdown, 'utf8');
      return {
        ...windowOf(all, offset, window.maxBytes, 'text/markdown', 'docs api', all.length),
        tabs: tabs.count,
      };
    }
    note = tabs.note;
  }
  if (exportType) {
    try {
      const res = await client.call<ArrayBuffer>(
        'GET',
        `files.export ${id}`,
        (o) => client.api.files.export({ fileId: id, mimeType: exportType }, o),
        signal,
        { responseType: 'arraybuffer' },
      );
      const raw = Buffer.from(res.data);
      // Pasted pictures come inline as data: URIs (hundreds of KB of base64): a placeholder each.
      const all = exportType === 'text/markdown' ? withoutInlineImages(raw) : raw;
      const content = windowOf(all, offset, window.maxBytes, exportType, 'export', all.length);
      return note ? { ...content, note } : content;
    } catch (error) {
      if (!isDriveError(error, 403, 'exportSizeLimitExceeded')) throw error;
      const content = await readExportLink(client, id, exportType, offset, window.maxBytes, signal);
      return note ? { ...content, note } : content;
    }
  }
  const size = file.size != null ? Number(file.size) : undefined;
  const mimeType = file.mimeType ?? 'application/octet-stream';
  if (size === 0 || (size !== undefined && offset >= size))
    return windowOf(Buffer.alloc(0), offset, window.maxBytes, mimeType, 'download', size);
  const res = await client.call<ArrayBuffer>(
    'GET',
    `files.get ${id} (media)`,
    (o) => client.api.files.get({ fileId: id, alt: 'media', supportsAllDrives: true }, o),
    signal,
    { responseType: 'arraybuffer', headers: { range: `bytes=${offset}-${offset + window.maxBytes}` } },
  );
  const bytes = Buffer.from(res.data);
  // A server that ignored Range sent everything from byte 0.
  const ranged = res.status === 206;
  const whole = ranged ? bytes : bytes.subarray(offset);
  return {
    ...windowOf(whole, 0, window.maxBytes, mimeType, 'download', size),
    start: offset,
    more: whole.length > window.maxBytes || (size !== undefined && offset + window.maxBytes < size),
  };
}

function windowOf(
  all: Buffer,
  offset: number,
  maxBytes: number,
  mimeType: string,
  via: Content['via'],
  size: number | undefined,
): Content {
  const bytes = all.subarray(offset, offset + maxBytes);
  const more = all.length > offset + maxBytes;
  const text = TEXT_TYPES.test(mimeType) || (!mimeType.startsWith('image/') && looksLikeText(bytes, more));
  return { mimeType, bytes, text, start: offset, more, via, ...(size !== undefined ? { size } : {}) };
}

/** True for an export link this server may send its token to: https on a Google host, or loopback. */
export function trustedLink(link: string): boolean {
  try {
    const url = new URL(link);
    if (isLoopbackHost(url.hostname)) return true;
    return url.protocol === 'https:' && /(^|\.)google(usercontent)?\.com$/.test(url.hostname);
  } catch {
    return false;
  }
}

/** Redirects an export link may take (Google sends one to googleusercontent.com). */
const MAX_REDIRECTS = 5;

/**
 * GET `link` with `headers` (the bearer token among them), following redirects by hand so that
 * each hop is checked with {@link trustedLink}: the token never goes, and no request is made, off
 * Google's hosts or loopback. Errors: ToolError naming the refused hop; fetch's own.
 */
async function fetchTrusted(
  link: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  id: string,
): Promise<Response> {
  let url = link;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { headers, signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await response.body?.cancel().catch(() => {});
    const next = new URL(location, url).href;
    if (!trustedLink(next))
      throw new ToolError(
        `${SERVICE} export link of ${id} redirected to ${new URL(next).host}, off Google's hosts: not followed. Open the file in Google Docs to read it.`,
      );
    if (hop >= MAX_REDIRECTS)
      throw new ToolError(`${SERVICE} export link of ${id}: more than ${MAX_REDIRECTS} redirects`);
    url = next;
  }
}

async function readExportLink(
  client: DriveClient,
  id: string,
  exportType: string,
  offset: number,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Content> {
  const meta = await client.call<drive_v3.Schema$File>(
    'GET',
    `files.get ${id}`,
    (o) => client.api.files.get({ fileId: id, fields: 'exportLinks', supportsAllDrives: true }, o),
    signal,
  );
  const links = meta.data.exportLinks ?? {};
  const type = links[exportType] ? exportType : links['text/plain'] ? 'text/plain' : undefined;
  const link = type ? links[type] : undefined;
  if (!type || !link || !trustedLink(link))
    throw new ToolError(
      `${id} is over Drive's 10 MB export limit (exportSizeLimitExceeded) and has no export link to read it through. Open it in Google Docs and split it, or download it as a file.`,
    );
  return readLink(client, id, link, type, offset, maxBytes, signal);
}

/**
 * A window of what export `link` (trusted, module comment) answers, read as `type` with the
 * access token: Range from `offset`, at most `maxBytes`. Errors: ToolError (timeout, refused
 * redirect, no answer, a failure status).
 */
export async function readLink(
  client: DriveClient,
  id: string,
  link: string,
  type: string,
  offset: number,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Content> {
  const token = await client.accessToken();
  const timeout = AbortSignal.timeout(client.options.policy.timeoutMs);
  const response = await fetchTrusted(
    link,
    { authorization: `Bearer ${token}`, range: `bytes=${offset}-${offset + maxBytes}` },
    AbortSignal.any([signal, timeout]),
    id,
  ).catch((error: unknown) => {
    if (timeout.aborted)
      throw new ToolError(
        `${SERVICE} export link of ${id} timed out after ${client.options.policy.timeoutMs} ms`,
      );
    if (error instanceof ToolError) throw error;
    throw new ToolError(`${SERVICE} export link of ${id}: no answer (${(error as Error).message})`);
  });
  if (!response.ok && response.status !== 206) {
    await response.body?.cancel().catch(() => {});
    throw new ToolError(
      `${SERVICE} export link of ${id} answered ${response.status}. Open it in Google Docs to read it.`,
    );
  }
  const skip = response.status === 206 ? 0 : offset;
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of response.body ?? []) {
    chunks.push(Buffer.from(chunk));
    got += chunk.byteLength;
    if (got > skip + maxBytes) break;
  }
  await response.body?.cancel().catch(() => {});
  const all = Buffer.concat(chunks).subarray(skip);
  const range = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
  const size = range ? Number(range) : undefined;
  return {
    ...windowOf(all, 0, maxBytes, type, 'export link', size),
    start: offset,
  };
}

/**
 * A window of revision `revision` of `file` (revisions.get with `exportLinks`): a Google type
 * through the revision's export link in the type's export format (Drive refuses `alt=media` on a
 * Docs Editors revision), anything else through revisions.get `alt=media` with a Range. Errors:
 * HttpError (revision not found: 404), ToolError (no export of that revision).
 */
export async function readRevision(
  client: DriveClient,
  file: drive_v3.Schema$File,
  revision: string,
  window: ReadWindow,
  signal: AbortSignal,
): Promise<Content> {
  const id = file.id ?? '';
  const offset = window.offset ?? 0;
  const exportType = exportTypeOf(file);
  if (exportType) {
    const meta = await client.call<drive_v3.Schema$Revision>(
      'GET',
      `revisions.get ${id} ${revision}`,
      (o) => client.api.revisions.get({ fileId: id, revisionId: revision, fields: 'id,exportLinks' }, o),
      signal,
    );
    const links = meta.data.exportLinks ?? {};
    const type = links[exportType] ? exportType : links['text/plain'] ? 'text/plain' : undefined;
    const link = type ? links[type] : undefined;
    if (!type || !link || !trustedLink(link))
      throw new ToolError(
        `Drive offers no ${exportType} export of revision ${revision} of ${id} (Drive keeps exports of Docs Editors revisions only for some; list_revisions shows which)`,
      );
    return readLink(client, id, link, type, offset, window.maxBytes, signal);
  }
  const res = await client.call<ArrayBuffer>(
    'GET',
    `revisions.get ${id} ${revision} (media)`,
    (o) => client.api.revisions.get({ fileId: id, revisionId: revision, alt: 'media' }, o),
    signal,
    { responseType: 'arraybuffer', headers: { range: `bytes=${offset}-${offset + window.maxBytes}` } },
  );
  const bytes = Buffer.from(res.data);
  const whole = res.status === 206 ? bytes : bytes.subarray(offset);
  const mimeType = file.mimeType ?? 'application/octet-stream';
  return { ...windowOf(whole, 0, window.maxBytes, mimeType, 'download', undefined), start: offset };
}
