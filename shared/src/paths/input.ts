import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PathError, quote } from './errors.js';
import { expandHome } from './home.js';

/** Longest accepted input, in UTF-8 bytes (Linux PATH_MAX). */
export const MAX_PATH_BYTES = 4096;
/** Longest accepted name (one path segment), in UTF-8 bytes (NAME_MAX of Linux and of macOS's APFS/HFS+). */
export const MAX_NAME_BYTES = 255;

/** PathError 'invalid' naming the first segment of `p` longer than {@link MAX_NAME_BYTES}, or null. */
function longNameError(input: string, p: string): PathError | null {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: a path this short has no name to measure.
  if (p.length * 3 <= MAX_NAME_BYTES) return null;
  for (const segment of p.split('/')) {
    if (segment.length * 3 <= MAX_NAME_BYTES) continue;
    const bytes = Buffer.byteLength(segment, 'utf8');
    if (bytes > MAX_NAME_BYTES) {
      return new PathError(
        'invalid',
        input,
        `The name ${quote(segment)} in ${quote(input)} is ${bytes} bytes long; file and directory names are ` +
          `limited to ${MAX_NAME_BYTES} bytes (UTF-8). Use a shorter name.`,
      );
    }
  }
  return null;
}

/** A syntactically acceptable path: absolute (from `/`, `~` or `file://`) or relative (to be joined to a root). */
export interface ParsedInput {
  kind: 'absolute' | 'relative';
  /** Absolute: `/`-rooted, not yet normalised. Relative: as given. */
  path: string;
  /** The input contains a backslash; if the path does not exist it was probably meant as a Windows separator. */
  hasBackslash: boolean;
}

const DRIVE = /^[A-Za-z]:([\\/]|$)/;
const OTHER_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function windowsError(input: string): PathError {
  const posix = input
    .replace(DRIVE, '/')
    .replace(/^\\\\[^\\]+\\[^\\]+/, '')
    .replace(/\\+/g, '/');
  return new PathError(
    'invalid',
    input,
    `${quote(input)} is a Windows-style path, which is not valid on this host: use a POSIX path with forward slashes, ` +
      `e.g. ${quote(posix.startsWith('/') ? posix : `/${posix}`)}, or a path relative to an allowed directory.`,
  );
}

/** The error for a backslash path that does not exist (so it was not a real file name with a backslash in it). */
export function backslashError(input: string): PathError {
  return windowsError(input);
}

/**
 * Check the syntax of a path from the model or the operator, before touching the filesystem.
 * Accepts absolute POSIX paths, `~`/`~/x`, `file://` URIs and relative paths.
 * Throws PathError 'invalid' for: non-strings, empty strings, inputs over {@link MAX_PATH_BYTES} bytes, names
 * (segments) over {@link MAX_NAME_BYTES} bytes, NUL bytes,
 * drive letters (`C:\x`, `C:/x`), UNC (`\\server\share`), leading backslashes, non-file URIs, bad file URIs and `~user`.
 */
export function parseInput(input: string): ParsedInput {
  if (typeof input !== 'string') throw new PathError('invalid', String(input), 'The path must be a string.');
  if (input === '') {
    throw new PathError(
      'invalid',
      input,
      'The path is empty: give an absolute path, or a path relative to an allowed directory.',
    );
  }
  if (Buffer.byteLength(input, 'utf8') > MAX_PATH_BYTES) {
    throw new PathError('invalid', input, `The path is longer than ${MAX_PATH_BYTES} bytes.`);
  }
  if (input.includes('\u0000')) {
    throw new PathError('invalid', input, `NUL bytes are not allowed in paths: ${quote(input)}.`);
  }
  let p = input;
  if (/^file:/i.test(p)) {
    try {
      p = fileURLToPath(p);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new PathError('invalid', input, `${quote(input)} is not a usable file:// URI (${why}).`);
    }
    // %00 decodes to NUL after URL parsing.
    if (p.includes('\u0000')) {
      throw new PathError('invalid', input, `NUL bytes are not allowed in paths: ${quote(input)}.`);
    }
    const long = longNameError(input, p);
    if (long) throw long;
    return { kind: 'absolute', path: p, hasBackslash: false };
  }
  if (OTHER_URI.test(p)) {
    throw new PathError(
      'invalid',
      input,
      `${quote(input)} is a URI; only file:// URIs and plain paths are accepted.`,
    );
  }
  if (DRIVE.test(p) || p.startsWith('\\')) throw windowsError(input);
  if (p.startsWith('~') && p !== '~' && !p.startsWith('~/')) {
    throw new PathError(
      'invalid',
      input,
      `${quote(input)}: the ~user form is not supported; use an absolute path (or ./${p} for a name starting with ~).`,
    );
  }
  p = expandHome(p);
  const long = longNameError(input, p);
  if (long) throw long;
  return { kind: path.isAbsolute(p) ? 'absolute' : 'relative', path: p, hasBackslash: p.includes('\\') };
}
