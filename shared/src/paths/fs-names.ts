/**
 * File names that are not valid UTF-8. Linux names are bytes; Node's string paths are UTF-8, so
 * such a name read as a string comes back with U+FFFD and cannot be opened again. Inside the
 * servers a path is a string in which each byte that is not part of valid UTF-8 is carried as the
 * lone surrogate U+DC80–U+DCFF (Python's "surrogateescape", PEP 383: no valid UTF-8 decodes to a
 * lone surrogate, so the mapping is exact both ways). {@link fs} takes and returns such strings.
 *
 * What the model sees and types is ASCII: each such byte as `\xHH` (lowercase hex, {@link
 * displayPath}). A path given with `\xHH` escapes is read back as those bytes when the escapes
 * decode to a name that is not valid UTF-8 (only the listing makes such names) and no file of the
 * literal name exists ({@link decodeEscapes}; the resolver checks the literal first).
 */
import { isUtf8 } from 'node:buffer';
import fsp from 'node:fs/promises';

// A low surrogate is an escape only when it is lone: after a high surrogate it is half of a pair
// (U+1F4F8 📸 is D83D DCF8).
const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;
const ESCAPED_ALL = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;
const TYPED_ESCAPE = /\\x([89a-f][0-9a-f])/gi;

/** Whether `p` carries bytes of a name that is not valid UTF-8. */
export function hasRawBytes(p: string): boolean {
  return ESCAPED.test(p);
}

/** The bytes `p` names: UTF-8, with each U+DC80–U+DCFF as the byte it carries. */
export function pathBytes(p: string): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < p.length; i++) {
    const code = p.charCodeAt(i);
    if (code < 0xdc80 || code > 0xdcff) continue;
    const before = i > 0 ? p.charCodeAt(i - 1) : 0;
    if (before >= 0xd800 && before <= 0xdbff) continue; // the second half of a pair
    parts.push(Buffer.from(p.slice(start, i), 'utf8'), Buffer.from([code - 0xdc00]));
    start = i + 1;
  }
  parts.push(Buffer.from(p.slice(start), 'utf8'));
  return Buffer.concat(parts);
}

/** `p` as fs takes it: the string itself, or its bytes when it carries raw bytes. */
export function toFsPath(p: string): string {
  return (ESCAPED.test(p) ? pathBytes(p) : p) as string;
}

/** Length of the valid UTF-8 sequence at `i` of `b`, or 0 when the byte there starts none. */
function sequenceAt(b: Buffer, i: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (!len || i + len > b.length) return 0;
  for (let k = 1; k < len; k++) if (((b[i + k] as number) & 0xc0) !== 0x80) return 0;
  const c1 = b[i + 1] as number;
  if (c === 0xe0 && c1 < 0xa0) return 0; // overlong
  if (c === 0xed && c1 >= 0xa0) return 0; // UTF-16 surrogates
  if (c === 0xf0 && c1 < 0x90) return 0; // overlong
  if (c === 0xf4 && c1 >= 0x90) return 0; // over U+10FFFF
  return len;
}

/** A name or path read as bytes: UTF-8, with each byte outside valid UTF-8 as U+DC80–U+DCFF. */
export function fromFsName(b: Buffer | string): string {
  if (typeof b === 'string') return b;
  if (isUtf8(b)) return b.toString('utf8');
  let out = '';
  let start = 0;
  for (let i = 0; i < b.length; ) {
    const len = sequenceAt(b, i);
    if (len) {
      i += len;
      continue;
    }
    out += `${b.toString('utf8', start, i)}${String.fromCharCode(0xdc00 + (b[i] as number))}`;
    i++;
    start = i;
  }
  return out + b.toString('utf8', start);
}

/** `p` for the model: each raw byte as `\xHH`. */
export function displayPath(p: string): string {
  return ESCAPED.test(p)
    ? p.replace(ESCAPED_ALL, (c) => `\\x${(c.charCodeAt(0) - 0xdc00).toString(16).padStart(2, '0')}`)
    : p;
}

/**
 * `input` with its `\xHH` escapes (bytes 0x80–0xFF) as raw bytes, when they make a name that is not
 * valid UTF-8 (what {@link displayPath} shows); else undefined (no escape, or a literal name).
 */
export function decodeEscapes(input: string): string | undefined {
  if (!input.includes('\\x')) return undefined;
  const decoded = input.replace(TYPED_ESCAPE, (_m, hex: string) =>
    String.fromCharCode(0xdc00 + Number.parseInt(hex, 16)),
  );
  if (decoded === input || isUtf8(pathBytes(decoded))) return undefined;
  return decoded;
}

type AnyFn = (...args: unknown[]) => unknown;
/** Functions whose first two arguments are paths. */
const TWO_PATHS = new Set(['rename', 'link', 'symlink', 'copyFile', 'cp']);
/** Functions that return a path or names (asked for as bytes, decoded). */
const RETURNS_NAMES = new Set(['readdir', 'realpath', 'readlink']);

function withBytes(options: unknown): unknown {
  if (options === undefined || typeof options === 'string') return { encoding: 'buffer' };
  return { ...(options as object), encoding: 'buffer' };
}

function decodeResult(result: unknown): unknown {
  if (!Array.isArray(result)) return fromFsName(result as Buffer);
  return result.map((entry: unknown) => {
    if (Buffer.isBuffer(entry)) return fromFsName(entry);
    const dirent = entry as { name: Buffer | string; parentPath?: unknown; path?: unknown };
    dirent.name = fromFsName(dirent.name);
    if (Buffer.isBuffer(dirent.parentPath)) dirent.parentPath = fromFsName(dirent.parentPath);
    return dirent;
  });
}

/**
 * node:fs/promises for the path layer: path arguments may carry raw bytes (see the module
 * comment), and readdir, realpath and readlink return names that do. Same functions, same errors.
 */
export const fs: typeof fsp = new Proxy(fsp, {
  get(target, key: string) {
    const value = (target as unknown as Record<string, unknown>)[key];
    if (typeof value !== 'function') return value;
    const fn = value as AnyFn;
    if (RETURNS_NAMES.has(key))
      return async (p: unknown, options?: unknown) =>
        decodeResult(await fn.call(target, typeof p === 'string' ? toFsPath(p) : p, withBytes(options)));
    return (...args: unknown[]) => {
      const n = TWO_PATHS.has(key) ? 2 : 1;
      for (let i = 0; i < n && i < args.length; i++)
        if (typeof args[i] === 'string') args[i] = toFsPath(args[i] as string);
      return fn.apply(target, args);
    };
  },
});
