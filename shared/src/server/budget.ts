import { ToolError } from './errors.js';

/** Default cap on the text a single tool result carries, in bytes (UTF-8). */
export const DEFAULT_RESULT_BYTES = 256 * 1024;

export interface Truncated {
  text: string;
  /** True when bytes were cut. */
  truncated: boolean;
  /** Bytes of the original text that were cut (0 when not truncated). */
  omittedBytes: number;
}

/**
 * Cut `text` to at most `maxBytes` UTF-8 bytes on a character boundary. The caller adds the
 * marker, because only it knows how to fetch the rest (offset, cursor, page).
 */
export function truncateUtf8(text: string, maxBytes: number): Truncated {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { text, truncated: false, omittedBytes: 0 };
  const buf = Buffer.from(text, 'utf8');
  let end = Math.max(0, maxBytes);
  // Step back over UTF-8 continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: buf.subarray(0, end).toString('utf8'), truncated: true, omittedBytes: bytes - end };
}

/** Byte budgets of an API server's results: what one file, body, diff or log tail may carry. */
export interface ContentBudgets {
  /** Largest file text a file read returns, in bytes; more is cut with a marker. */
  fileBytes: number;
  /** Largest body (issue, pull/merge request, comment) in a single-item result, in bytes. */
  bodyBytes: number;
  /** Largest body per item in a list result, in bytes. */
  listBodyBytes: number;
  /** Largest diff or patch text, in bytes. */
  diffBytes: number;
  /** Largest job-log tail, in bytes. */
  logBytes: number;
}

/** 256 KiB of file text, 64 KiB bodies, 2 KiB per list body, 128 KiB of diff, 64 KiB of log tail. */
export const DEFAULT_CONTENT_BUDGETS: Readonly<ContentBudgets> = Object.freeze({
  fileBytes: 256 * 1024,
  bodyBytes: 64 * 1024,
  listBodyBytes: 2 * 1024,
  diffBytes: 128 * 1024,
  logBytes: 64 * 1024,
});

/** The standard marker line: `[truncated: <what>; <how to get the rest>]`. */
export function truncationMarker(what: string, howToContinue: string): string {
  return `[truncated: ${what}; ${howToContinue}]`;
}

/**
 * Opaque pagination cursor (MCP spec 2025-11-25, "Pagination": cursors are opaque strings).
 * Encodes a small JSON state as base64url; `decodeCursor` refuses anything it did not make.
 */
export function encodeCursor(state: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...state }), 'utf8').toString('base64url');
}

/** Decodes a cursor from `encodeCursor`; throws ToolError naming `argName` when it is not one. */
export function decodeCursor<T extends Record<string, unknown>>(cursor: string, argName = 'cursor'): T {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (state && typeof state === 'object' && (state as { v?: unknown }).v === 1) return state as T;
  } catch {
    // fall through to the error below
  }
  throw new ToolError(
    `${argName}: not a cursor this server issued; pass the exact nextCursor value from a previous result`,
  );
}
