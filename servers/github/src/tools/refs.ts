/**
 * Refs used as one URL path segment (commits/{ref}, git/trees/{tree_sha}, git/ref/heads/{branch}):
 * validated, then encoded whole or per segment as each endpoint expects.
 */
import { encodePath, ToolError } from '@refmcp/shared';

/** A ref as one segment: "feature/x" → "feature%2Fx" (GitHub decodes it). Refuses "." and "..". */
export function refSegment(value: string, name: string): string {
  if (!value || value === '.' || value === '..') throw new ToolError(`${name}: not a valid ref`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are never part of a ref
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new ToolError(`${name}: must not contain control characters`);
  return encodeURIComponent(value);
}

/** `heads/<branch>` with each branch segment encoded ("/" kept): for git/ref and git/refs paths. */
export function headsPath(branch: string, name = 'branch'): string {
  return `heads/${encodePath(branch, name)}`;
}
