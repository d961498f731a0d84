/**
 * Exact JSON for SQLite values (read with better-sqlite3's safeIntegers, so every INTEGER arrives
 * as a BigInt): NULL → null; INTEGER → number within ±(2^53−1), else its decimal string; REAL →
 * number (±Infinity as the strings "Infinity"/"-Infinity": JSON has no infinities); TEXT → string;
 * BLOB → {"base64": …}. Values larger than the cell budget are cut and say so.
 */

/** The storage classes of SQLite (sqlite.org/datatype3.html §2). */
export type StorageClass = 'null' | 'integer' | 'real' | 'text' | 'blob';

/** A cut TEXT or BLOB value: the first part, and the value's full size in bytes. */
export interface CutValue {
  text?: string;
  base64?: string;
  truncated: true;
  /** Size of the whole value in bytes (UTF-8 for text). */
  bytes: number;
}

/** One cell of a result row as JSON. */
export type Cell = null | number | string | { base64: string } | CutValue;

/** How values are written, stated in every result. */
export const VALUE_ENCODING =
  'NULL→null; INTEGER→number, or a decimal string beyond ±(2^53−1); REAL→number; TEXT→string; ' +
  'BLOB→{"base64":…}; a value over the cell budget→{"text"|"base64":first part,"truncated":true,"bytes":full size}';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The storage class of a value as better-sqlite3 returns it with safeIntegers(true). */
export function storageClass(value: unknown): StorageClass {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return 'real';
  if (typeof value === 'string') return 'text';
  return 'blob';
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes on a character boundary. */
function cutText(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  let end = maxBytes;
  while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

/** One value → its JSON cell; TEXT/BLOB over `maxCellBytes` are cut (see CutValue). */
export function encodeValue(value: unknown, maxCellBytes: number): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') {
    return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') {
    // A UTF-16 length under a quarter of the budget cannot exceed it in UTF-8 (≤ 3 bytes per unit).
    if (value.length * 3 <= maxCellBytes) return value;
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes <= maxCellBytes) return value;
    return { text: cutText(value, maxCellBytes), truncated: true, bytes };
  }
  const buf = Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
  // base64 is 4/3 of the bytes: keep the encoded form within the budget.
  const keep = Math.floor((maxCellBytes * 3) / 4);
  if (buf.length <= keep) return { base64: buf.toString('base64') };
  return { base64: buf.subarray(0, keep).toString('base64'), truncated: true, bytes: buf.length };
}
