/**
 * What "failed" and "rate limited" mean for the Brave Search API. Brave answers errors with
 * `{"type":"ErrorResponse","error":{"id","status","code","detail","meta"}}` (422
 * SUBSCRIPTION_TOKEN_INVALID for a refused key, 429 RATE_LIMITED for the per-second limit and for a
 * spent quota; test-harness/specs/brave/SOURCE.md). A 429 whose headers show a spent long window
 * (X-RateLimit-Remaining `…, 0`) is not worth waiting for: it is final, and the pacing gate says
 * when the quota resets.
 */
import { parseRateWindows, type VendorHooks } from '@refmcp/shared';

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

export const BRAVE_HOOKS: VendorHooks = {
  failure(a) {
    if (a.status < 400) return undefined;
    const error = record(record(a.data).error);
    const reason = text(error.code);
    const message =
      text(error.detail) ?? (typeof a.data === 'string' ? text(a.data)?.slice(0, 200) : undefined);
    return { ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
  },
  rateLimited(a) {
    if (a.status !== 429) return false;
    return !parseRateWindows(a.headers).some((w) => w.windowMs > 60_000 && w.remaining <= 0);
  },
};
