/**
 * Resource links in tool results (MCP spec 2025-11-25, "Tool Result": `resource_link` content): where
 * a result names something the server also serves as a resource, a link lets the host open or attach
 * it without another tool call. Bounded: links cost context like text does.
 */
import type { ToolResult } from './tool.js';

/** Links one result carries at most (the first ones, in result order). */
export const MAX_RESOURCE_LINKS = 10;

/** One `resource_link` block. */
export interface ResourceLink {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size of the raw content in bytes, when known. */
  size?: number;
}

/** `result` with a `resource_link` block appended for each of the first `max` of `links`. */
export function withResourceLinks(
  result: ToolResult,
  links: readonly ResourceLink[],
  max = MAX_RESOURCE_LINKS,
): ToolResult {
  if (links.length === 0 || max <= 0) return result;
  const blocks = links.slice(0, max).map((link) => ({ type: 'resource_link' as const, ...link }));
  return { ...result, content: [...result.content, ...blocks] };
}
