/**
 * Lenient readers of GitLab JSON (fields go missing or null freely): the shared ones, and the
 * username of a user object.
 */
import { num, obj, str } from '@refmcp/shared/server';

export { arr, bool, num, obj, type Raw, str } from '@refmcp/shared/server';

/** The `username` of a user object (author, assignee), or undefined. */
export const username = (v: unknown): string | undefined => str(obj(v).username);

/** A line of a `line_range` end: its number, else the one its `line_code` (`sha_old_new`) holds for its `type`. */
function rangeLine(v: unknown): number | undefined {
  const e = obj(v);
  const n = num(e.new_line) ?? num(e.old_line);
  if (n !== undefined) return n;
  const code = /_(\d+)_(\d+)$/.exec(str(e.line_code) ?? '');
  return code ? Number(e.type === 'old' ? code[1] : code[2]) : undefined;
}

/** "path:line" or, for a multi-line comment (`line_range`), "path:first-last"; undefined without a path. */
export function positionLabel(position: unknown, line: (s: string) => string): string | undefined {
  const p = obj(position);
  const path = str(p.new_path) ?? str(p.old_path);
  if (!path) return undefined;
  const last = num(p.new_line) ?? num(p.old_line);
  const range = obj(p.line_range);
  const first = range.start ? rangeLine(range.start) : undefined;
  return `${line(path)}${last ? `:${first !== undefined && first !== last ? `${first}-` : ''}${last}` : ''}`;
}
