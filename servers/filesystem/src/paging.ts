/**
 * Cursors of the listing and search tools. A cursor carries where the previous page stopped plus a
 * fingerprint of the query (tool, directory, arguments), so it cannot be replayed against a
 * different query and silently skip or repeat results.
 */
import { decodeCursor, encodeCursor, ToolError } from '@refmcp/shared/server';

/** Short stable hash of a query's identity. */
export function queryKey(kind: string, parts: unknown): string {
  // node:crypto is loaded on first use, not at startup (it is one of the costlier built-ins to load).
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(JSON.stringify([kind, parts]))
    .digest('base64url')
    .slice(0, 16);
}

/** Encodes a continuation position for query `key`. */
export function makeCursor<P extends Record<string, unknown>>(key: string, position: P): string {
  return encodeCursor({ q: key, ...position });
}

/**
 * The position in `cursor` (undefined when there is no cursor). Throws ToolError when the cursor
 * is not ours or was issued for another query.
 */
export function readCursor<P extends Record<string, unknown>>(
  cursor: string | undefined,
  key: string,
): P | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const state = decodeCursor<{ q?: unknown } & P>(cursor);
  if (state.q !== key) {
    throw new ToolError(
      'cursor: it was issued for a different query; repeat the exact same arguments with it, or omit cursor to start over',
    );
  }
  return state;
}
