/**
 * browser_console_messages and browser_network_requests: the current tab's logs, oldest first, in
 * pages (`--max-entries` per page and the text budget), with a cursor to the rest (case ALL-05).
 * They never launch a browser: with none running there is simply nothing to list.
 */
import { cursorString, safeString, z } from '@refmcp/shared/schema';
import {
  decodeCursor,
  defineTool,
  encodeCursor,
  LOCAL_HINTS,
  type ToolDefinition,
  ToolError,
  textResult,
  truncationMarker,
} from '@refmcp/shared/server';
import type { ConsoleLevel, Tab } from '../browser/tab.js';
import { untrustedText } from '../sanitize.js';
import type { Ctx } from './context.js';

const SEVERITY: Record<ConsoleLevel, number> = { error: 0, warning: 1, info: 2, debug: 3 };
const STATIC_TYPES = new Set(['image', 'font', 'stylesheet', 'script', 'media', 'manifest', 'texttrack']);

interface Page<T> {
  items: T[];
  next?: number;
}

/** Items with seq > after, up to `limit` items and `maxBytes` of rendered text. */
function pageOf<T extends { seq: number }>(
  items: T[],
  after: number,
  limit: number,
  maxBytes: number,
  render: (item: T) => string,
): Page<string> & { remaining: number } {
  const rest = items.filter((i) => i.seq > after);
  const out: string[] = [];
  let bytes = 0;
  let last = after;
  for (const item of rest) {
    const line = render(item);
    const size = Buffer.byteLength(line) + 1;
    if (out.length >= limit || (out.length > 0 && bytes + size > maxBytes)) break;
    out.push(line);
    bytes += size;
    last = item.seq;
  }
  const remaining = rest.length - out.length;
  return { items: out, remaining, ...(remaining > 0 ? { next: last } : {}) };
}

function cursorState(cursor: string | undefined, tab: Tab): number {
  if (cursor === undefined) return 0;
  const state = decodeCursor<{ v: number; tab: number; after: number }>(cursor);
  if (state.tab !== tab.id || typeof state.after !== 'number')
    throw new ToolError('cursor: it belongs to another tab or an older browser; call again without cursor');
  return state.after;
}

function finish(what: string, tab: Tab, page: Page<string> & { remaining: number }, dropped: number): string {
  const head = `${what} of tab ${tab.id} (${tab.page.url().slice(0, 300)})${dropped ? `; ${dropped} older entries were dropped` : ''}:`;
  const body = page.items.length ? page.items.join('\n') : '(none)';
  if (page.next === undefined) return `${head}\n${body}`;
  const cursor = encodeCursor({ tab: tab.id, after: page.next });
  return `${head}\n${body}\n${truncationMarker(`${page.remaining} more`, `call again with cursor="${cursor}"`)}`;
}

export function logTools(ctx: Ctx): ToolDefinition[] {
  const { maxEntries, maxTextBytes } = ctx.config;
  const consoleMessages = defineTool({
    name: 'browser_console_messages',
    title: 'Get console messages',
    description:
      `Console messages and uncaught errors of the current tab, oldest first, at most ${maxEntries} a call ` +
      '(then pass nextCursor as cursor).',
    inputSchema: z.strictObject({
      level: z
        .enum(['error', 'warning', 'info', 'debug'])
        .optional()
        .describe('Least severe level to include (default info: errors, warnings and info)'),
      cursor: cursorString().optional(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async ({ level, cursor }) => {
      const tab = ctx.session.activeTab;
      if (!tab) return textResult('No browser tab is open, so there are no console messages.');
      const after = cursorState(cursor, tab);
      const max = SEVERITY[level ?? 'info'];
      const entries = tab.console.filter((e) => SEVERITY[e.level] <= max);
      const page = pageOf(
        entries,
        after,
        maxEntries,
        maxTextBytes,
        (e) => `[${e.level}] ${untrustedText(e.text.slice(0, 2000))}${e.location ? ` (${e.location})` : ''}`,
      );
      return textResult(finish('Console messages', tab, page, tab.droppedConsole));
    },
  });

  const networkRequests = defineTool({
    name: 'browser_network_requests',
    title: 'List network requests',
    description:
      `Network requests of the current tab, oldest first, at most ${maxEntries} per call (cursor for the rest): method, URL, status or failure, and the network-policy rule for refused ones. ` +
      'Successful static resources (images, fonts, scripts, styles) are left out unless static=true.',
    inputSchema: z.strictObject({
      static: z.boolean().optional().describe('Include successful static resources'),
      filter: safeString({ max: 1000 })
        .optional()
        .describe('Only URLs containing this text (case-insensitive)'),
      cursor: cursorString().optional(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args) => {
      const tab = ctx.session.activeTab;
      if (!tab) return textResult('No browser tab is open, so there are no network requests.');
      const after = cursorState(args.cursor, tab);
      const needle = args.filter?.toLowerCase();
      const entries = tab.requests.filter(
        (r) =>
          (args.static ||
            r.failure ||
            r.refused ||
            (r.status ?? 0) >= 400 ||
            !STATIC_TYPES.has(r.resourceType)) &&
          (!needle || r.url.toLowerCase().includes(needle)),
      );
      const page = pageOf(entries, after, maxEntries, maxTextBytes, (r) => {
        const outcome = r.refused
          ? `REFUSED by the network policy (rule: ${r.refused})`
          : r.failure
            ? `failed: ${r.failure}`
            : r.status !== undefined
              ? String(r.status)
              : 'pending';
        return `#${r.seq} ${r.method} ${untrustedText(r.url.slice(0, 2000))} → ${outcome} (${r.resourceType})`;
      });
      return textResult(finish('Network requests', tab, page, tab.droppedRequests));
    },
  });
  return [consoleMessages, networkRequests];
}
