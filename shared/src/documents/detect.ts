/**
 * Which document family bytes hold: by content first (magic numbers, the parts a zip container
 * names), then the media type the source declared, then the file name's extension. The bytes win:
 * a PDF served as application/octet-stream or named .bin is a PDF.
 * Sources: PDF 1.7 §7.5.2 (header), ECMA-376 Part 2 (OPC part names), OpenDocument 1.3 Part 2
 * §3.3 (the `mimetype` entry), PNG/JPEG/GIF/BMP/WebP/TIFF signatures as in file(1)'s magic.
 */
import { unzipSync } from 'fflate';
import type { DocumentKind } from './types.js';

const ZIPPED = new Set<DocumentKind>(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);

const ODF: Record<string, DocumentKind> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
};

const MEDIA_TYPES: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.ms-excel': 'xls',
  'text/csv': 'csv',
  'image/svg+xml': 'svg',
  ...ODF,
};

const EXTENSIONS: Record<string, DocumentKind> = {
  pdf: 'pdf',
  docx: 'docx',
  odt: 'odt',
  xlsx: 'xlsx',
  xls: 'xls',
  ods: 'ods',
  csv: 'csv',
  tsv: 'csv',
  pptx: 'pptx',
  odp: 'odp',
  svg: 'svg',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  bmp: 'image',
  tiff: 'image',
  tif: 'image',
};

const latin1 = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', from, to);

const has = (bytes: Uint8Array, text: string) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(text, 0, 'latin1') >= 0;

/** Image media type from magic numbers, or undefined. */
export function imageType(bytes: Uint8Array): string | undefined {
  const head = latin1(bytes, 0, 16);
  if (head.startsWith('\x89PNG\r\n\x1a\n')) return 'image/png';
  if (head.startsWith('\xff\xd8\xff')) return 'image/jpeg';
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('BM') && bytes.length >= 26) return 'image/bmp';
  if (head.startsWith('II*\x00') || head.startsWith('MM\x00*')) return 'image/tiff';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** The family of a zip container, from the parts it names; undefined for any other zip. */
function zipKind(bytes: Uint8Array): DocumentKind | undefined {
  // ODF: the first entry is `mimetype`, stored, its content right after the 30-byte local header.
  if (latin1(bytes, 30, 38) === 'mimetype') {
    const type = latin1(bytes, 38, 38 + 80).match(/^application\/vnd\.oasis\.opendocument\.[a-z]+/)?.[0];
    if (type && ODF[type]) return ODF[type];
  }
  if (has(bytes, 'content.xml') && has(bytes, 'mimetype')) {
    // A `mimetype` entry written compressed or not first: inflate it alone (it is a few bytes).
    try {
      const entry = unzipSync(bytes, {
        filter: (f) => f.name === 'mimetype' && f.originalSize <= 100,
      }).mimetype;
      const type = entry ? new TextDecoder().decode(entry).trim() : '';
      if (ODF[type]) return ODF[type];
    } catch {
      // not a readable zip: the checks below decide
    }
  }
  if (has(bytes, 'word/document.xml')) return 'docx';
  if (has(bytes, 'xl/workbook.xml')) return 'xlsx';
  if (has(bytes, 'ppt/presentation.xml')) return 'pptx';
  return undefined;
}

/**
 * The document family of `bytes`, or undefined when it is none read here. `mediaType` (a
 * Content-Type, parameters allowed) and `name` (a file name) are hints used only when the bytes
 * do not tell (CSV and SVG are text and have no signature).
 */
export function detectDocument(
  bytes: Uint8Array,
  hints: { mediaType?: string | null; name?: string | null } = {},
): DocumentKind | undefined {
  const head = latin1(bytes, 0, 8);
  const type = hints.mediaType?.split(';')[0]?.trim().toLowerCase();
  const ext = hints.name?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const hinted = (type && MEDIA_TYPES[type]) || (ext && EXTENSIONS[ext]) || undefined;
  if (latin1(bytes, 0, 1024).includes('%PDF-')) return 'pdf';
  if (head.startsWith('PK\x03\x04')) {
    // A damaged container whose part names are unreadable is still read as what it claims to be, so
    // the reader says what is wrong with it.
    return zipKind(bytes) ?? (hinted && ZIPPED.has(hinted) ? hinted : undefined);
  }
  if (head.startsWith('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1')) {
    // OLE2 compound file: .xls, or an encrypted OOXML file (EncryptedPackage) or .doc/.ppt.
    return has(bytes, 'W\x00o\x00r\x00k\x00b\x00o\x00o\x00k') ? 'xls' : undefined;
  }
  if (imageType(bytes)) return 'image';
  if (hinted === 'csv' || hinted === 'svg') return hinted;
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(latin1(bytes, 0, 1024))) return 'svg';
  return undefined;
}

/** Human name of a family, for messages. */
export const KIND_NAMES: Record<DocumentKind, string> = {
  pdf: 'PDF',
  docx: 'Word (.docx)',
  odt: 'OpenDocument text (.odt)',
  xlsx: 'Excel (.xlsx)',
  xls: 'Excel 97-2003 (.xls)',
  ods: 'OpenDocument spreadsheet (.ods)',
  csv: 'CSV',
  pptx: 'PowerPoint (.pptx)',
  odp: 'OpenDocument presentation (.odp)',
  image: 'image',
  svg: 'SVG image',
};
