/**
 * What kind of media a file holds, from its first bytes (magic numbers) and, failing that, its extension.
 * The bytes win: a JPEG named .png is image/jpeg, which is what a client decoding it needs to be told.
 */
import path from 'node:path';

/** Bytes of a file's start that `sniffMediaType` looks at. */
export const MEDIA_SNIFF_BYTES = 64;

/** How a media type is returned to the client. */
export type MediaKind = 'image' | 'audio' | 'resource';

export interface MediaType {
  mimeType: string;
  kind: MediaKind;
  /** How the type was decided. */
  source: 'content' | 'extension';
}

const startsWith = (buf: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => buf[at + i] === b);
const ascii = (buf: Uint8Array, text: string, at = 0) =>
  startsWith(
    buf,
    [...text].map((c) => c.charCodeAt(0)),
    at,
  );

/** MIME type from magic numbers, or undefined. Sources: each format's specification / `file(1)`'s magic. */
export function sniffMimeType(head: Uint8Array): string | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 'GIF87a') || ascii(head, 'GIF89a')) return 'image/gif';
  if (ascii(head, 'RIFF') && ascii(head, 'WEBP', 8)) return 'image/webp';
  if (ascii(head, 'RIFF') && ascii(head, 'WAVE', 8)) return 'audio/wav';
  if (ascii(head, 'BM') && head.length >= 14) return 'image/bmp';
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00])) return 'image/x-icon';
  if (ascii(head, 'II*\u0000') || ascii(head, 'MM\u0000*')) return 'image/tiff';
  if (ascii(head, 'ftyp', 4)) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
    if (brand === 'M4A ' || brand === 'M4B ') return 'audio/mp4';
    return 'video/mp4';
  }
  if (ascii(head, 'ID3')) return 'audio/mpeg';
  if (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0 && ((head[1] ?? 0) & 0x06) !== 0)
    return 'audio/mpeg';
  if (ascii(head, 'OggS')) return 'audio/ogg';
  if (ascii(head, 'fLaC')) return 'audio/flac';
  if (ascii(head, 'FORM') && ascii(head, 'AIFF', 8)) return 'audio/aiff';
  if (ascii(head, '%PDF-')) return 'application/pdf';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return 'application/zip';
  }
  if (startsWith(head, [0x1f, 0x8b])) return 'application/gzip';
  return undefined;
}

const BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.avif': 'image/avif',
  '.heic': 'image/heic',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.flac': 'audio/flac',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.aiff': 'audio/aiff',
  '.opus': 'audio/opus',
  '.weba': 'audio/webm',
  '.mp4': 'video/mp4',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
};

/** MIME type from a file name's extension, or undefined. */
export function mimeTypeFromName(name: string): string | undefined {
  return BY_EXTENSION[path.extname(name).toLowerCase()];
}

/**
 * The media type of a file from its first bytes (`head`, at least MEDIA_SNIFF_BYTES when the file has
 * them) and its name. Images and audio become image/audio content; everything else an embedded resource.
 * SVG is XML text most clients cannot pass to a model as an image, so it is a resource (its text).
 */
export function mediaTypeOf(name: string, head: Uint8Array): MediaType {
  const sniffed = sniffMimeType(head);
  const mimeType = sniffed ?? mimeTypeFromName(name) ?? 'application/octet-stream';
  const kind: MediaKind =
    mimeType === 'image/svg+xml'
      ? 'resource'
      : mimeType.startsWith('image/')
        ? 'image'
        : mimeType.startsWith('audio/')
          ? 'audio'
          : 'resource';
  return { mimeType, kind, source: sniffed ? 'content' : 'extension' };
}
