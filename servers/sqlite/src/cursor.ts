/**
 * Cursors of read_query and list_tables (and resources/list). A cursor carries where the previous
 * page stopped plus a fingerprint of the query (tool, SQL, params), so it cannot be replayed against
 * a different query and silently skip or repeat rows.
 */
import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor, ToolError } from '@refmcp/shared/server';

/** Short stable hash of a query's identity. */
export function queryKey(kind: string, parts: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([kind, parts]))
    .digest('base64url')
    .slice(0, 16);
}

/** Encodes a continuation position for query `key`. */
export function makeCursor<P extends Record<string, unknown>>(key: string, position: P): string {
  return encodeCursor({ q: key, ...position });
}

/**
 * The position in `cursor` (undefined when there is no cursor). Throws ToolError naming `cursor`
 * when the cursor is not ours or was issued for another query.
 */
export function readCursor<P extends Record<string, unknown>>(
  cursor: string | undefined,
  key: string,
): P | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const state = decodeCursor<{ q?: unknown } & P>(cursor);
  if (state.q !== key) {
    throw new ToolError(
      'cursor: it was issued for a different query; repeat the exact same query and params with it, or omit cursor to start over',
    );
  }
  return state;
}
