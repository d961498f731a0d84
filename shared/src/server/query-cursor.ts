/**
 * Cursors bound to one query. A cursor carries where the previous page stopped plus a fingerprint of
 * the query (tool and arguments), so it cannot be replayed against a different query and silently skip
 * or repeat results (MCP spec 2025-11-25, "Pagination": cursors are opaque to the client).
 */
import { decodeCursor, encodeCursor } from './budget.js';
import { ToolError } from './errors.js';

/** Short stable hash of a query's identity (16 base64url characters of SHA-256). */
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
 * The position in `cursor` (undefined when there is no cursor). Throws ToolError naming `cursor` when
 * the cursor is not ours or was issued for another query; `repeat` says what the caller must repeat.
 */
export function readCursor<P extends Record<string, unknown>>(
  cursor: string | undefined,
  key: string,
  repeat = 'the exact same arguments',
): P | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const state = decodeCursor<{ q?: unknown } & P>(cursor);
  if (state.q !== key) {
    throw new ToolError(
      `cursor: it was issued for a different query; repeat ${repeat} with it, or omit cursor to start over`,
    );
  }
  return state;
}
