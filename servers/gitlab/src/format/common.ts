/**
 * Lenient readers of GitLab JSON (fields go missing or null freely): each returns a value of the
 * asked type or undefined, never throws.
 */
export type Raw = Record<string, unknown>;

export const obj = (v: unknown): Raw => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The `username` of a user object (author, assignee), or undefined. */
export const username = (v: unknown): string | undefined => str(obj(v).username);
