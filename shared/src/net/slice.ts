/**
 * Paging a long text by a byte budget: one call returns the characters from `offset` that fit in
 * `maxBytes` UTF-8 bytes, cut on a character boundary (never inside a surrogate pair), preferably
 * after a line break, with the offset of the rest. Offsets count UTF-16 code units (JavaScript
 * string indices), so `text.slice(offset)` is what the next call starts with.
 */
import { ToolError } from '../server/errors.js';

export interface TextSlice {
  text: string;
  /** Where this slice starts (as asked, moved back onto a character boundary if needed). */
  offset: number;
  /** Where the next slice starts; undefined at the end. */
  nextOffset?: number;
  /** True when text after this slice was left out. */
  truncated: boolean;
  /** Length of the whole text, in UTF-16 code units. */
  totalChars: number;
}

const utf8Length = (codePoint: number) =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * The slice of `text` from `offset` within `maxBytes` UTF-8 bytes (at least one character, so paging
 * always moves on). A cut falls after the last line break of the slice when that keeps at least
 * half of it. Errors: ToolError when `offset` is past the end.
 */
export function sliceText(text: string, offset: number, maxBytes: number): TextSlice {
  const totalChars = text.length;
  if (!Number.isInteger(offset) || offset < 0 || offset > totalChars)
    throw new ToolError(`offset ${offset} is outside the page (0 to ${totalChars} characters)`);
  let start = offset;
  const unit = text.charCodeAt(start);
  if (start > 0 && unit >= 0xdc00 && unit <= 0xdfff) start--; // inside a surrogate pair
  let end = start;
  let bytes = 0;
  while (end < totalChars) {
    const codePoint = text.codePointAt(end) ?? 0;
    const size = utf8Length(codePoint);
    if (bytes + size > maxBytes && end > start) break;
    bytes += size;
    end += codePoint > 0xffff ? 2 : 1;
  }
  if (end < totalChars) {
    const lineEnd = text.lastIndexOf('\n', end - 1);
    if (lineEnd >= start && lineEnd + 1 - start >= (end - start) / 2) end = lineEnd + 1;
  }
  const truncated = end < totalChars;
  return {
    text: text.slice(start, end),
    offset: start,
    nextOffset: truncated ? end : undefined,
    truncated,
    totalChars,
  };
}
