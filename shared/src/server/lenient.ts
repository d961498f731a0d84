/**
 * Lenient readers of vendor JSON (fields go missing or null freely): each returns a value of the
 * asked type or undefined (an empty object or array for `obj`/`arr`), never throws. Used by the API
 * servers' `format/` code (GitLab, search).
 */
export type Raw = Record<string, unknown>;

export const obj = (v: unknown): Raw => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
