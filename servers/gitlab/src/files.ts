/**
 * Reading repository files for the model: base64 content decoded, binary files detected (NUL bytes
 * or invalid UTF-8) and never returned as text, text cut at a byte budget from a byte offset.
 */
import { truncateUtf8 } from '@refmcp/shared';

export type FileText =
  | { binary: true; size: number }
  | { binary: false; size: number; text: string; start: number; end: number };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `bytes` as text from byte `offset`, at most `maxBytes`; binary content is reported as such. */
export function fileText(bytes: Buffer, offset: number, maxBytes: number): FileText {
  const size = bytes.length;
  if (bytes.subarray(0, 8000).includes(0)) return { binary: true, size };
  let whole: string;
  try {
    whole = utf8.decode(bytes);
  } catch {
    return { binary: true, size };
  }
  // Start at a character boundary at or after `offset`.
  let start = Math.min(offset, size);
  while (start < size && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  const rest = start === 0 ? whole : bytes.subarray(start).toString('utf8');
  const cut = truncateUtf8(rest, maxBytes);
  return { binary: false, size, text: cut.text, start, end: start + Buffer.byteLength(cut.text) };
}
