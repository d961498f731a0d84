/**
 * One cursor contract for the model over every vendor's way of saying "the next page starts here":
 * a vendor token (Slack `response_metadata.next_cursor`, Drive `nextPageToken`), the query of a
 * keyset Link (GitLab `pagination=keyset`), an offset, or a page number — each wrapped in the
 * query-bound cursor (server/query-cursor.ts), so the model sees one opaque `nextCursor` string
 * that works only with the arguments it was issued for.
 */
import { ToolError } from '../server/errors.js';
import { makeCursor, readCursor } from '../server/query-cursor.js';

/** Where the next page starts, in the vendor's own terms. */
export type VendorPosition =
  /** An opaque continuation token, sent back as the vendor's cursor parameter. */
  | { token: string }
  /** The query parameters of a keyset rel="next" link (see keysetNext), sent again on the same path. */
  | { params: Record<string, string> }
  /** Items to skip (offset/limit APIs). */
  | { offset: number }
  /** A page number, from 1. */
  | { page: number };

// Vendor tokens are short (Slack ~40, Drive ~150 characters); a bound keeps a forged cursor small.
const MAX_TOKEN = 4096;
const MAX_PARAMS = 32;

/**
 * The model-facing cursor for `position` under query `key` (see queryKey), or undefined when
 * there is no next page (no position, an empty token such as Slack's `next_cursor: ""`, or no
 * keyset parameters).
 */
export function vendorCursor(key: string, position: VendorPosition | undefined): string | undefined {
  if (!position) return undefined;
  if ('token' in position) return position.token ? makeCursor(key, { t: position.token }) : undefined;
  if ('params' in position)
    return Object.keys(position.params).length ? makeCursor(key, { k: position.params }) : undefined;
  if ('offset' in position) return makeCursor(key, { o: position.offset });
  return makeCursor(key, { p: position.page });
}

/**
 * The position a cursor from {@link vendorCursor} carries, or undefined for no cursor (the first
 * page). Errors: ToolError naming `cursor` when it is not ours, was issued for another query
 * (`repeat` says what to repeat), or does not hold a well-formed position.
 */
export function vendorPosition(
  cursor: string | undefined,
  key: string,
  repeat?: string,
): VendorPosition | undefined {
  const state = readCursor<{ t?: unknown; k?: unknown; o?: unknown; p?: unknown }>(cursor, key, repeat);
  if (!state) return undefined;
  if (typeof state.t === 'string' && state.t && state.t.length <= MAX_TOKEN) return { token: state.t };
  if (isParams(state.k)) return { params: state.k };
  if (Number.isSafeInteger(state.o) && (state.o as number) >= 0) return { offset: state.o as number };
  if (Number.isSafeInteger(state.p) && (state.p as number) >= 1) return { page: state.p as number };
  throw new ToolError('cursor: malformed; pass the exact nextCursor value from a previous result');
}

function isParams(value: unknown): value is Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length > 0 &&
    entries.length <= MAX_PARAMS &&
    entries.every(([k, v]) => typeof v === 'string' && k.length + v.length <= MAX_TOKEN)
  );
}
