/**
 * Reading parts of a text file in constant memory: the first lines, a line range, the last lines, or a
 * byte range, each bounded by a byte budget. Works on any positional byte source (an open FileHandle, or a
 * Buffer in unit tests) and never holds more than the budget plus one chunk, so a 3 GB file is as cheap
 * as a 3 KB one for head/tail. Knows nothing about MCP: callers word the messages.
 *
 * Lines are split on "\n" only; a "\r" before it stays in the text. A final "\n" ends the last line, it
 * does not start an empty one ("a\nb\n" has two lines).
 */
import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';

/** Bytes read per I/O call. */
export const CHUNK_BYTES = 64 * 1024;
/** git's binary heuristic: a NUL byte within the first 8000 bytes means binary (xdiff-interface.c). */
export const SNIFF_BYTES = 8000;

const NL = 0x0a;

/** A file's bytes, read by position. */
export interface ByteSource {
  /** Size in bytes, fixed for the duration of a read. */
  readonly size: number;
  /** Fills `buffer` from `position` (as far as the source goes); returns the byte count read. */
  read(buffer: Buffer, position: number): Promise<number>;
}

/** A ByteSource over an open file handle whose size was taken from its fstat. */
export function handleSource(handle: FileHandle, size: number): ByteSource {
  return {
    size,
    async read(buffer, position) {
      let total = 0;
      // A short read is legal; loop until the buffer is full or the file ends.
      while (total < buffer.length) {
        const { bytesRead } = await handle.read(buffer, total, buffer.length - total, position + total);
        if (bytesRead === 0) break;
        total += bytesRead;
      }
      return total;
    },
  };
}

/** A ByteSource over a Buffer (unit tests). */
export function bufferSource(data: Buffer): ByteSource {
  return {
    size: data.length,
    async read(buffer, position) {
      if (position >= data.length) return 0;
      return data.copy(buffer, 0, position, Math.min(data.length, position + buffer.length));
    },
  };
}

/** The bytes asked for look binary: a NUL byte at `nulAt` (absolute byte offset) within the sniff window. */
export class BinaryContentError extends Error {
  override name = 'BinaryContentError';
  constructor(readonly nulAt: number) {
    super(`binary content: NUL byte at byte ${nulAt}`);
  }
}

/** A line or byte offset past the end of the file; `lines` is the file's line count when it is known. */
export class PastEndError extends Error {
  override name = 'PastEndError';
  constructor(
    readonly unit: 'line' | 'byte',
    readonly requested: number,
    readonly available: number,
  ) {
    super(`${unit} ${requested} is past the end (${available} ${unit}s)`);
  }
}

/** Why a read returned less than was asked for. */
export type Cut =
  /** Nothing cut: the requested lines/bytes (or everything up to EOF) are all there. */
  | 'none'
  /** The byte budget ended the read at a line boundary. */
  | 'lines'
  /** The byte budget ended the read inside a line, at a character boundary. */
  | 'bytes';

/** A decoded part of a file: bytes [startByte, endByte). */
export interface TextSlice {
  text: string;
  startByte: number;
  endByte: number;
  /** 1-based number of the first line (forward reads), undefined when unknown (tail, byte ranges). */
  firstLine?: number;
  /** Lines in `text` (a last line without "\n" counts; a line cut mid-way counts). */
  lineCount: number;
  cut: Cut;
  /** Tail only: the text starts just after a NUL byte at `startByte - 1`; what precedes it is not shown. */
  droppedNul?: boolean;
  /** The bytes are not valid UTF-8: each invalid sequence is shown as U+FFFD in `text`. */
  invalidUtf8?: true;
}

/**
 * `bytes` decoded as UTF-8 (invalid sequences become U+FFFD, as everywhere in Node), flagged `invalidUtf8`
 * when that happened. Validates only when the text holds a U+FFFD at all, so valid text costs one scan.
 */
export function decodeUtf8(bytes: Buffer): { text: string; invalidUtf8?: true } {
  const text = bytes.toString('utf8');
  if (!text.includes('\uFFFD') || isUtf8(bytes)) return { text };
  return { text, invalidUtf8: true };
}

export interface ReadOptions {
  /** Budget for the returned bytes. */
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * The end of the longest prefix of `buf[0, n)` that does not end inside a UTF-8 sequence.
 * Looks back at most three continuation bytes, so invalid input is never cut by more than 3 bytes.
 */
export function utf8SafeEnd(buf: Uint8Array, n: number): number {
  let i = n - 1;
  let back = 0;
  while (i >= 0 && back < 3 && ((buf[i] ?? 0) & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0) return n;
  const lead = buf[i] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + need > n ? i : n;
}

/** The number of leading UTF-8 continuation bytes (at most 3): skip them to start on a character. */
export function utf8SafeStart(buf: Uint8Array, n: number): number {
  let s = 0;
  while (s < 3 && s < n && ((buf[s] ?? 0) & 0xc0) === 0x80) s++;
  return s;
}

/** Throws BinaryContentError if the SNIFF_BYTES starting at `at` hold a NUL byte. */
export async function assertTextAt(src: ByteSource, at: number): Promise<void> {
  const window = Buffer.allocUnsafe(Math.max(0, Math.min(SNIFF_BYTES, src.size - at)));
  const n = await src.read(window, at);
  const nul = window.subarray(0, n).indexOf(0);
  if (nul !== -1) throw new BinaryContentError(at + nul);
}

/** Throws BinaryContentError if the first SNIFF_BYTES of `bytes` (found at file offset `at`) hold a NUL. */
function assertNoNul(bytes: Buffer, at: number): void {
  const nul = bytes.subarray(0, SNIFF_BYTES).indexOf(0);
  if (nul !== -1) throw new BinaryContentError(at + nul);
}

/** A read buffer for `remaining` bytes: never more than CHUNK_BYTES, and no 64 KiB buffer for a 1 KiB file. */
function chunkFor(remaining: number): number {
  return Math.max(1, Math.min(CHUNK_BYTES, remaining));
}

/** Up to this many bytes, newlines are counted by a plain loop; beyond, by native `indexOf` jumps. */
const LOOP_COUNT_BYTES = 4096;

/**
 * "\n" bytes in `buf[from, to)`. A small range is scanned by a plain loop: one native `indexOf` call per
 * line cost ~8 µs of a 1 KiB whole-file read's ~15 µs handler time (20 lines). A big range jumps with
 * `indexOf` (memchr), which stays fast on long lines and in code V8 has not optimised yet.
 */
function countNewlines(buf: Buffer, from = 0, to = buf.length): number {
  let count = 0;
  if (to - from <= LOOP_COUNT_BYTES) {
    for (let i = from; i < to; i++) if (buf[i] === NL) count++;
    return count;
  }
  for (let i = buf.indexOf(NL, from); i !== -1 && i < to; i = buf.indexOf(NL, i + 1)) count++;
  return count;
}

/**
 * The byte offset where 1-based line `line` starts, scanning from the start in chunks.
 * Throws PastEndError when the file has fewer lines (line 1 of an empty file is offset 0).
 */
async function lineStartOffset(src: ByteSource, line: number, signal?: AbortSignal): Promise<number> {
  if (line <= 1) return 0;
  const chunk = Buffer.allocUnsafe(chunkFor(src.size));
  let pos = 0;
  let current = 1;
  while (pos < src.size) {
    signal?.throwIfAborted();
    const n = await src.read(chunk, pos);
    if (n === 0) break;
    let i = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, i);
      if (nl === -1 || nl >= n) break;
      current++;
      i = nl + 1;
      if (current === line) {
        const start = pos + i;
        if (start >= src.size) throw new PastEndError('line', line, current - 1);
        return start;
      }
    }
    pos += n;
  }
  // EOF before reaching `line`: a last line without "\n" still counts.
  const lines = src.size === 0 ? 0 : current;
  throw new PastEndError('line', line, lines);
}

/**
 * Lines forward from 1-based `startLine`: at most `maxLines` of them and at most `maxBytes` bytes, cut at a
 * line boundary (or, if the first line alone is over budget, at a character boundary inside it).
 * Throws BinaryContentError when the file is binary by git's rule (a NUL in its first 8000 bytes: line
 * numbers mean nothing there) or the first 8000 returned bytes hold a NUL, and PastEndError when
 * `startLine` is past the last line.
 */
export async function readLines(
  src: ByteSource,
  opts: ReadOptions & { startLine: number; maxLines: number },
): Promise<TextSlice> {
  await assertTextAt(src, 0);
  const start = await lineStartOffset(src, opts.startLine, opts.signal);
  const budgetEnd = Math.min(src.size, start + opts.maxBytes);
  const kept: Buffer[] = [];
  const chunk = Buffer.allocUnsafe(chunkFor(src.size - start));
  let pos = start;
  let lines = 0;
  let lastLineEnd = start;
  let reason: 'lines' | 'eof' | 'budget' = 'eof';
  outer: while (pos < src.size) {
    opts.signal?.throwIfAborted();
    const n = await src.read(chunk, pos);
    if (n === 0) break;
    // Keep only what can be returned: bytes up to the budget's end.
    const keepTo = Math.min(n, budgetEnd - pos);
    if (keepTo > 0) kept.push(Buffer.from(chunk.subarray(0, keepTo)));
    let i = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, i);
      if (nl === -1 || nl >= n) break;
      const lineEnd = pos + nl + 1;
      if (lineEnd > budgetEnd) {
        reason = 'budget';
        break outer;
      }
      lines++;
      lastLineEnd = lineEnd;
      if (lines >= opts.maxLines) {
        reason = 'lines';
        break outer;
      }
      i = nl + 1;
    }
    pos += n;
    if (pos > budgetEnd) {
      reason = 'budget';
      break;
    }
  }
  if (reason === 'eof' && lastLineEnd < src.size) {
    // A last line without "\n": it fits, since pos never passed the budget's end.
    lines++;
    lastLineEnd = src.size;
  }
  const all = Buffer.concat(kept);
  let end = lastLineEnd;
  let cut: Cut = 'none';
  if (reason === 'budget') {
    if (lines > 0) cut = 'lines';
    else {
      cut = 'bytes';
      end = start + utf8SafeEnd(all, all.length);
      lines = 1;
    }
  }
  const bytes = all.subarray(0, end - start);
  assertNoNul(bytes, start);
  return {
    ...decodeUtf8(bytes),
    startByte: start,
    endByte: end,
    firstLine: Math.max(1, opts.startLine),
    lineCount: lines,
    cut,
  };
}

/**
 * {@link readLines} from line 1 with no line limit, for bytes already in memory that fit the budget (a small file
 * read whole): the same slice, or the same BinaryContentError, without the chunked scan's copies and awaits.
 * Returns null when the bytes are over `maxBytes` (the budget cuts them: use readLines).
 */
export function wholeLines(bytes: Buffer, maxBytes: number): TextSlice | null {
  if (bytes.length > maxBytes) return null;
  assertNoNul(bytes, 0);
  const size = bytes.length;
  // A last line without "\n" still counts.
  const lineCount = countNewlines(bytes) + (size > 0 && bytes[size - 1] !== NL ? 1 : 0);
  const { text, invalidUtf8 } = decodeUtf8(bytes);
  const slice: TextSlice = { text, startByte: 0, endByte: size, firstLine: 1, lineCount, cut: 'none' };
  if (invalidUtf8) slice.invalidUtf8 = true;
  return slice;
}

/**
 * The last `maxLines` lines, reading backwards from the end in chunks, within `maxBytes` (cut at a line
 * boundary, or inside the last line at a character boundary). A NUL byte ends the scan: the text starts
 * just after the last NUL (`droppedNul`), so what was appended to a sparse, preallocated or binary-prefixed
 * file (logrotate copytruncate) is still readable. If nothing follows the NUL, or what follows is not valid
 * UTF-8 (a binary file's tail), throws BinaryContentError.
 */
export async function readTail(
  src: ByteSource,
  opts: ReadOptions & { maxLines: number },
): Promise<TextSlice> {
  const size = src.size;
  if (size === 0) return { text: '', startByte: 0, endByte: 0, lineCount: 0, cut: 'none' };
  const chunks: Buffer[] = [];
  let pos = size;
  let newlines = 0;
  /** Start of the earliest complete line seen so far (just after a "\n"), if any. */
  let boundary: number | undefined;
  let start = 0;
  let cut: Cut = 'none';
  let nulAt: number | undefined;
  // The first read back from the end is sized for the lines asked for (~256 bytes each); later ones double.
  let want = Math.min(CHUNK_BYTES, Math.max(4096, opts.maxLines * 256));
  scan: while (pos > 0) {
    opts.signal?.throwIfAborted();
    const len = Math.min(want, pos);
    want = Math.min(CHUNK_BYTES, want * 2);
    pos -= len;
    const chunk = Buffer.allocUnsafe(len);
    await src.read(chunk, pos);
    chunks.unshift(chunk);
    // Jump from one newline or NUL to the next with native searches (no per-byte loop): bytes below `low`
    // would overrun the budget.
    const low = Math.max(0, size - opts.maxBytes - pos);
    const nul = chunk.lastIndexOf(0);
    let i = len - 1;
    for (;;) {
      const nl = i >= 0 ? chunk.lastIndexOf(NL, i) : -1;
      const next = Math.max(nl, nul); // the first of the two met going backwards (-1: neither)
      if (next < low) {
        if (low === 0) break; // the whole chunk is within budget: on to the previous one
        // The next byte to look at would overrun the budget: stop at the earliest line start seen, else mid-line.
        start = boundary ?? size - opts.maxBytes;
        cut = boundary === undefined ? 'bytes' : 'lines';
        break scan;
      }
      if (next === nul) {
        nulAt = pos + nul;
        start = nulAt + 1;
        break scan;
      }
      if (pos + nl !== size - 1) {
        newlines++;
        boundary = pos + nl + 1;
        if (newlines >= opts.maxLines) {
          start = boundary;
          break scan;
        }
      }
      i = nl - 1;
    }
  }
  const all = Buffer.concat(chunks);
  let from = start - pos;
  if (cut === 'bytes') from += utf8SafeStart(all.subarray(from), all.length - from);
  const bytes = all.subarray(from);
  if (nulAt !== undefined) {
    if (bytes.length === 0) throw new BinaryContentError(nulAt);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new BinaryContentError(nulAt);
    }
  }
  return {
    ...decodeUtf8(bytes),
    startByte: pos + from,
    endByte: size,
    lineCount: bytes.length === 0 ? 0 : countNewlines(bytes, 0, bytes.length - 1) + 1,
    cut,
    ...(nulAt !== undefined ? { droppedNul: true } : {}),
  };
}

/**
 * Bytes [byteOffset, byteOffset + byteLength) (to EOF when byteLength is undefined), at most `maxBytes` of
 * them, moved inwards to character boundaries (the start skips continuation bytes, the end never splits a
 * character) so the next byteOffset continues cleanly. Throws PastEndError past EOF and BinaryContentError
 * when the first 8000 returned bytes hold a NUL byte.
 */
export async function readBytes(
  src: ByteSource,
  opts: ReadOptions & { byteOffset: number; byteLength?: number },
): Promise<TextSlice> {
  const { byteOffset } = opts;
  if (byteOffset > src.size) throw new PastEndError('byte', byteOffset, src.size);
  const wanted = Math.min(opts.byteLength ?? Number.POSITIVE_INFINITY, src.size - byteOffset);
  const take = Math.min(wanted, opts.maxBytes);
  const buf = Buffer.allocUnsafe(take);
  const n = await src.read(buf, byteOffset);
  const s = utf8SafeStart(buf, n);
  // At EOF the last character is complete (or invalid, shown as U+FFFD); elsewhere never split one.
  const e = byteOffset + n >= src.size ? n : Math.max(s, utf8SafeEnd(buf, n));
  const bytes = buf.subarray(s, e);
  assertNoNul(bytes, byteOffset + s);
  return {
    ...decodeUtf8(bytes),
    startByte: byteOffset + s,
    endByte: byteOffset + e,
    lineCount: bytes.length === 0 ? 0 : countNewlines(bytes, 0, bytes.length - 1) + 1,
    cut: take < wanted ? 'bytes' : 'none',
  };
}
