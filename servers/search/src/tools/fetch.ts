/**
 * `fetch_url`: read a page — typically a search result — as Markdown (shared `readPage`): http(s)
 * only; public addresses only unless the operator's --allowed-origins says otherwise, checked on the
 * address connected to and on every redirect hop; the readable article extracted; the text through
 * the untrusted-content builder, labelled as data; a byte budget per call with a marker that says
 * how much is left and the offset to continue from.
 */
import { defineTool, OPEN_WORLD_HINTS, withHeartbeat } from '@refmcp/shared';
import { safeString, z } from '@refmcp/shared/schema';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import type { SearchTool } from '../toolsets.js';

/** Default and largest Markdown per call, in UTF-8 bytes. */
export const DEFAULT_PAGE_BYTES = 16 * 1024;
export const MAX_PAGE_BYTES = 64 * 1024;

export function fetchTools(config: Config): SearchTool[] {
  return [
    defineTool({
      name: 'fetch_url',
      title: 'Read a web page',
      toolset: 'fetch' as const,
      description: `Read a web page (e.g. a search result) as Markdown: its readable article, or a PDF/Office document's text by page; at most max_bytes a call (default ${DEFAULT_PAGE_BYTES}); continue with offset = nextOffset. Public http(s) addresses only.`,
      inputSchema: z.strictObject({
        url: safeString({ max: 4096, min: 1 }).describe('http(s) URL of the page'),
        offset: z.number().int().min(0).optional().describe('Character offset to continue from (nextOffset)'),
        max_bytes: z
          .number()
          .int()
          .min(1024, { message: `max_bytes must be from 1024 to ${MAX_PAGE_BYTES}` })
          .max(MAX_PAGE_BYTES, { message: `max_bytes must be from 1024 to ${MAX_PAGE_BYTES}` })
          .optional()
          .describe(`Markdown bytes to return (1024-${MAX_PAGE_BYTES})`),
      }),
      outputSchema: z.object({
        url: z.string(),
        status: z.number(),
        contentType: z.string(),
        title: z.string().optional(),
        byline: z.string().optional(),
        markdown: z.string(),
        totalChars: z.number(),
        offset: z.number(),
        nextOffset: z.number().optional(),
        truncated: z.boolean(),
        ...neutralizedField,
      }),
      annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
      handler: async ({ url, offset = 0, max_bytes = DEFAULT_PAGE_BYTES }, { signal, progress }) => {
        // Loaded on first use: the DOM, Readability and Turndown are most of the bundle's start-up cost.
        const { pageReadMarker, readPage } = await import('@refmcp/shared/net');
        // A heartbeat while the page loads and converts, when the call carried a progressToken.
        const read = await withHeartbeat(
          progress,
          readPage(url, {
            policy: config.network,
            maxBytes: max_bytes,
            offset,
            timeoutMs: config.policy.timeoutMs,
            convertTimeoutMs: config.convertTimeoutMs,
            convertTimeoutFlag: '--convert-timeout',
            userAgent: config.userAgent,
            signal,
          }),
          (s) => `reading the page, ${s} s`,
        );
        const text = new UntrustedText();
        const markdown = text.clean(read.markdown);
        const title = read.title ? text.line(read.title, 300) : undefined;
        const byline = read.byline ? text.line(read.byline, 200) : undefined;
        const marker = pageReadMarker(read, (n) => `call fetch_url with the same url and offset=${n}`);
        const end = read.offset + read.markdown.length;
        return respond(
          {
            url: read.url,
            status: read.status,
            contentType: read.contentType,
            ...(title ? { title } : {}),
            ...(byline ? { byline } : {}),
            markdown,
            totalChars: read.totalChars,
            offset: read.offset,
            ...(read.nextOffset !== undefined ? { nextOffset: read.nextOffset } : {}),
            truncated: read.truncated,
          },
          [
            // The page's title and byline are the site's text: labelled like its body.
            `${read.url}: characters ${read.offset}–${end} of ${read.totalChars}`,
            block('page title and byline', [title, byline && `by ${byline}`].filter(Boolean).join('\n')),
            block('page text', markdown),
            marker ?? '',
          ].filter(Boolean),
          text,
        );
      },
    }),
  ];
}
