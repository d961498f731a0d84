/**
 * One text read as the tools define it: pick the mode from the arguments (whole file, head, tail, line range,
 * byte range), open the file inside the roots, read the part in constant memory, and word what came back —
 * the text, a marker saying where to continue when the budget cut it, and the same facts as data.
 */
import { type AllowedRoots, readInside } from '@refmcp/shared/paths';
import { ToolError, truncationMarker } from '@refmcp/shared/server';
import { formatBytes, quote } from './format.js';
import {
  BinaryContentError,
  bufferSource,
  CHUNK_BYTES,
  handleSource,
  PastEndError,
  readBytes,
  readLines,
  readTail,
  SNIFF_BYTES,
  type TextSlice,
  wholeLines,
} from './lines.js';

/** The arguments of read_text_file that choose what to read. */
export interface TextReadArgs {
  path: string;
  head?: number | undefined;
  tail?: number | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
  byteOffset?: number | undefined;
  byteLength?: number | undefined;
}

export interface TextReadLimits {
  /** Largest file read whole (no head/tail/range), in bytes. */
  maxFileBytes: number;
  /** Budget of the returned text including its markers, in bytes. */
  maxResultBytes: number;
}

/** What a text read returned, as data (the tool's structuredContent). */
export interface TextReadData {
  path: string;
  content: string;
  fileBytes: number;
  /** The returned bytes are [startByte, endByte) of the file. */
  startByte: number;
  endByte: number;
  /** 1-based line numbers of the first and last returned lines (absent for tail and byte ranges). */
  startLine?: number;
  endLine?: number;
  /** True when the result budget cut what was asked for. */
  truncated: boolean;
  /** Line to pass as `offset` to read on from here, when the file goes on. */
  nextOffset?: number;
  /** Byte to pass as `byteOffset` to read on from here, when the file goes on. */
  nextByteOffset?: number;
  /** The bytes read are not valid UTF-8: invalid sequences are shown as U+FFFD in `content`. */
  invalidUtf8?: true;
}

/** The line saying that the text was not valid UTF-8. */
export const INVALID_UTF8_NOTE =
  '[note: this text is not valid UTF-8; invalid bytes are shown as U+FFFD (\uFFFD). Use read_media_file for the raw bytes.]';

/** Adds the invalid-UTF-8 flag and note line to a read when its bytes were not valid UTF-8. */
function flagInvalidUtf8(read: TextRead, slice: TextSlice): TextRead {
  if (!slice.invalidUtf8) return read;
  const sep = read.text === '' || read.text.endsWith('\n') ? '' : '\n';
  return { data: { ...read.data, invalidUtf8: true }, text: `${read.text}${sep}${INVALID_UTF8_NOTE}` };
}

export interface TextRead {
  data: TextReadData;
  /** `content` with its markers: what the model reads. */
  text: string;
}

type Mode = 'whole' | 'head' | 'tail' | 'lines' | 'bytes';

/** The read mode, or a ToolError naming the arguments that cannot be combined. */
export function modeOf(args: TextReadArgs): Mode {
  const { head, tail, offset, limit, byteOffset, byteLength } = args;
  // The common calls (no selector, or head or tail alone) need no cross-checks.
  const lines = offset !== undefined || limit !== undefined;
  const bytes = byteOffset !== undefined || byteLength !== undefined;
  if (!lines && !bytes) {
    if (head === undefined && tail === undefined) return 'whole';
    if (tail === undefined) return 'head';
    if (head === undefined) return 'tail';
  }
  if (head !== undefined && tail !== undefined) {
    throw new ToolError(
      'head and tail cannot be used together: pass one of them (or offset and limit for lines in the middle).',
    );
  }
  const groups: [Mode, string[]][] = [
    ['head', ['head']],
    ['tail', ['tail']],
    ['lines', ['offset', 'limit']],
    ['bytes', ['byteOffset', 'byteLength']],
  ];
  const given = groups
    .map(([mode, names]) => [mode, names.filter((n) => args[n as keyof TextReadArgs] !== undefined)] as const)
    .filter(([, names]) => names.length > 0);
  if (given.length > 1) {
    throw new ToolError(
      `${given.map(([, n]) => n.join('/')).join(' and ')} cannot be used together: choose one way to select ` +
        'the part to read — head, tail, offset/limit (lines) or byteOffset/byteLength (bytes).',
    );
  }
  return given[0]?.[0] ?? 'whole';
}

/** Bytes kept free of content for the markers. */
function markerReserve(maxResultBytes: number): number {
  return Math.min(1024, Math.floor(maxResultBytes / 4));
}

function binaryError(path: string, error: BinaryContentError, fileBytes: number): ToolError {
  return new ToolError(
    `${quote(path)} looks binary, not text: it has a NUL byte at byte ${error.nulAt} (binary by git's rule: a NUL ` +
      `in the first ${SNIFF_BYTES} bytes of the file or of the part read; the file is ${formatBytes(fileBytes)}). ` +
      'Use read_media_file for images and audio, ' +
      'or get_file_info for its size and dates. If text follows a binary or sparse region (e.g. a preallocated ' +
      'log), read it with tail or byteOffset.',
  );
}

function pastEndError(path: string, error: PastEndError): ToolError {
  if (error.unit === 'line') {
    return new ToolError(
      `offset ${error.requested} is past the end of ${quote(path)}: it has ${error.available} line` +
        `${error.available === 1 ? '' : 's'}. Use a smaller offset, or tail to read the last lines.`,
    );
  }
  return new ToolError(
    `byteOffset ${error.requested} is past the end of ${quote(path)}: it is ${formatBytes(error.available)}.`,
  );
}

/** Text block for a forward read (whole, head, lines): content, then a marker when the budget cut it. */
function describeForward(path: string, slice: TextSlice, fileBytes: number, budget: number): TextRead {
  const first = slice.firstLine ?? 1;
  const last = first + Math.max(0, slice.lineCount - 1);
  const more = slice.endByte < fileBytes;
  const data: TextReadData = {
    path,
    content: slice.text,
    fileBytes,
    startByte: slice.startByte,
    endByte: slice.endByte,
    ...(slice.lineCount > 0 ? { startLine: first, endLine: last } : {}),
    truncated: slice.cut !== 'none',
  };
  let marker = '';
  if (slice.cut === 'bytes') {
    data.nextByteOffset = slice.endByte;
    marker = truncationMarker(
      `line ${first} is longer than the ${budget}-byte result budget; showing its bytes ${slice.startByte}–${slice.endByte} of ${fileBytes}`,
      `continue with byteOffset=${slice.endByte}`,
    );
  } else if (more) {
    data.nextOffset = last + 1;
    data.nextByteOffset = slice.endByte;
    if (slice.cut === 'lines') {
      marker = truncationMarker(
        `showing lines ${first}–${last} (bytes ${slice.startByte}–${slice.endByte} of ${fileBytes}) within the ${budget}-byte result budget`,
        `continue with offset=${last + 1}`,
      );
    }
  }
  const text = marker
    ? `${slice.text}${slice.text.endsWith('\n') || !slice.text ? '' : '\n'}${marker}`
    : slice.text;
  return { data, text };
}

/** Text block for tail: a leading note when earlier text was cut or is binary, then the content. */
function describeTail(path: string, slice: TextSlice, fileBytes: number, budget: number): TextRead {
  const data: TextReadData = {
    path,
    content: slice.text,
    fileBytes,
    startByte: slice.startByte,
    endByte: slice.endByte,
    truncated: slice.cut !== 'none',
  };
  const earlier = `read earlier text with byteOffset/byteLength (it ends at byte ${slice.startByte})`;
  let note = '';
  if (slice.droppedNul) {
    note = `[binary data before: byte ${slice.startByte - 1} is a NUL byte (binary data, or a sparse or preallocated region), so the ${slice.lineCount} line(s) after it are shown; ${earlier}]`;
  } else if (slice.cut !== 'none') {
    note = truncationMarker(
      `showing the last ${slice.lineCount} line(s), bytes ${slice.startByte}–${slice.endByte} of ${fileBytes}, within the ${budget}-byte result budget`,
      earlier,
    );
  }
  return { data, text: note ? `${note}\n${slice.text}` : slice.text };
}

/** Text block for a byte range. */
function describeBytes(path: string, slice: TextSlice, fileBytes: number, budget: number): TextRead {
  const data: TextReadData = {
    path,
    content: slice.text,
    fileBytes,
    startByte: slice.startByte,
    endByte: slice.endByte,
    truncated: slice.cut !== 'none',
    ...(slice.endByte < fileBytes ? { nextByteOffset: slice.endByte } : {}),
  };
  if (slice.cut === 'none') return { data, text: slice.text };
  const marker = truncationMarker(
    `showing bytes ${slice.startByte}–${slice.endByte} of ${fileBytes} within the ${budget}-byte result budget`,
    `continue with byteOffset=${slice.endByte}`,
  );
  return { data, text: `${slice.text}${slice.text.endsWith('\n') ? '' : '\n'}${marker}` };
}

/** Where a read finds its abort signal (e.g. a ToolContext): read only when the read has to wait on the file. */
export interface Cancellation {
  readonly signal?: AbortSignal | undefined;
}

/**
 * Reads the part of `args.path` its arguments select. Throws ToolError (conflicting arguments, file over the
 * whole-read limit, binary content, offset past the end) or PathError (path refused, missing, not a file).
 */
export async function readTextFile(
  roots: AllowedRoots,
  args: TextReadArgs,
  limits: TextReadLimits,
  cancel: Cancellation = {},
): Promise<TextRead> {
  const mode = modeOf(args);
  // A file up to CHUNK_BYTES comes back read whole, in one read, and is served from memory: every mode (the
  // binary sniff, line scans, tail) then works on that one buffer. Bigger files are read in parts.
  const opened = await readInside(roots, args.path, CHUNK_BYTES);
  const { stat } = opened;
  try {
    if (mode === 'whole' && stat.size > limits.maxFileBytes) {
      throw new ToolError(
        `${quote(args.path)} is ${formatBytes(stat.size)}, over the ${formatBytes(limits.maxFileBytes)} limit for ` +
          'reading a whole file. Read it in parts: head (first N lines), tail (last N lines), offset and limit ' +
          '(a line range), or byteOffset and byteLength (a byte range); or use search_file_contents to find the ' +
          'lines you need.',
      );
    }
    const src = opened.bytes ? bufferSource(opened.bytes) : handleSource(opened.handle, stat.size);
    const fileBytes = src.size; // a small file that shrank meanwhile: what was read
    const budget = Math.max(1, limits.maxResultBytes - markerReserve(limits.maxResultBytes));
    try {
      // A small file read whole needs no chunked scan (nor the signal: it is answered from memory, at once).
      const whole = mode === 'whole' && opened.bytes ? wholeLines(opened.bytes, budget) : null;
      if (whole) return flagInvalidUtf8(describeForward(args.path, whole, fileBytes, budget), whole);
      const signal = cancel.signal;
      const common = { maxBytes: budget, ...(signal ? { signal } : {}) };
      switch (mode) {
        case 'tail': {
          const slice = await readTail(src, { ...common, maxLines: args.tail ?? 0 });
          return flagInvalidUtf8(describeTail(args.path, slice, fileBytes, budget), slice);
        }
        case 'bytes': {
          const slice = await readBytes(src, {
            ...common,
            byteOffset: args.byteOffset ?? 0,
            ...(args.byteLength !== undefined ? { byteLength: args.byteLength } : {}),
          });
          return flagInvalidUtf8(describeBytes(args.path, slice, fileBytes, budget), slice);
        }
        default: {
          const startLine = mode === 'lines' ? (args.offset ?? 1) : 1;
          const maxLines =
            mode === 'head' ? (args.head ?? 0) : mode === 'lines' ? (args.limit ?? Infinity) : Infinity;
          const slice = await readLines(src, { ...common, startLine, maxLines });
          return flagInvalidUtf8(describeForward(args.path, slice, fileBytes, budget), slice);
        }
      }
    } catch (error) {
      if (error instanceof BinaryContentError) throw binaryError(args.path, error, fileBytes);
      if (error instanceof PastEndError) throw pastEndError(args.path, error);
      throw error;
    }
  } finally {
    // Not awaited: nothing waits on the close, so the answer does not pay for another thread-pool round trip.
    opened.handle?.close().catch(() => {});
  }
}
