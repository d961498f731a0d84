/**
 * Reading tools for research: browser_read_markdown (the page's main content as Markdown with its
 * links, via Readability + turndown) and browser_get_text (the visible text of the page or of the
 * elements a selector matches). Both are cut to the text budget on line boundaries with a marker
 * giving the offset of the rest; the text is page content, returned as data (case ALL-06).
 */

import { toMarkdown } from '@refmcp/shared/net/markdown';
import { z } from '@refmcp/shared/schema';
import {
  defineTool,
  OPEN_WORLD_HINTS,
  type ToolDefinition,
  ToolError,
  textResult,
} from '@refmcp/shared/server';
import { browserError, withTimeout } from '../browser/errors.js';
import type { Tab } from '../browser/tab.js';
import { locate, REF_PATTERN } from '../browser/target.js';
import { extractArticle } from '../reader/extract.js';
import { untrustedText } from '../sanitize.js';
import { budgetLines } from '../snapshot/capture.js';
import { activeTab, type Ctx, pageLine } from './context.js';
import { targetArg } from './snapshot.js';

/** HTML converted at most (bytes); a page's content beyond it is left out, and the result says so. */
const MAX_HTML_BYTES = 1024 * 1024;
/** Most elements whose text browser_get_text returns for one selector. */
const MAX_ELEMENTS = 1000;

const offsetArg = () => z.number().int().min(0).optional().describe('Line to continue from ([truncated: …])');

/** The current tab, refusing a blank one: there is nothing to read before a page is opened. */
async function tabToRead(ctx: Ctx): Promise<Tab> {
  const tab = await activeTab(ctx);
  if (tab.page.url() === 'about:blank')
    throw new ToolError('The tab is blank (about:blank): open a page with browser_navigate first.');
  return tab;
}

export function readTools(ctx: Ctx): ToolDefinition[] {
  const budget = ctx.config.maxTextBytes;
  const ms = ctx.config.timeouts.snapshot;
  const markdown = defineTool({
    name: 'browser_read_markdown',
    title: 'Read page as Markdown',
    description:
      'The main content of the current page as Markdown, without navigation and ads (Readability): for reading ' +
      `rather than acting. At most ${budget} bytes a call; "[truncated: …]" gives the offset for the rest.`,
    inputSchema: z.strictObject({ offset: offsetArg() }),
    annotations: OPEN_WORLD_HINTS.readOnly,
    handler: async ({ offset }) => {
      const tab = await tabToRead(ctx);
      let article: Awaited<ReturnType<typeof extractArticle>>;
      try {
        article = await withTimeout('reading the page', ms, extractArticle(tab.page));
      } catch (error) {
        throw browserError('Reading the page', error, ms);
      }
      let html = article.html;
      const cutHtml = Buffer.byteLength(html) > MAX_HTML_BYTES;
      if (cutHtml) html = Buffer.from(html).subarray(0, MAX_HTML_BYTES).toString('utf8');
      const body = untrustedText(toMarkdown(html));
      const meta = [
        `# ${untrustedText(article.title || '(untitled)')}`,
        article.byline ? `By ${untrustedText(article.byline)}` : '',
        article.siteName ? `Site: ${untrustedText(article.siteName)}` : '',
        article.publishedTime ? `Published: ${untrustedText(article.publishedTime)}` : '',
        `Source: ${tab.page.url()}${article.readable ? '' : ' (no article found: whole page)'}`,
        cutHtml ? `(The page's content was cut at ${MAX_HTML_BYTES} bytes of HTML before conversion.)` : '',
      ].filter(Boolean);
      const full = `${meta.join('\n')}\n\n${body}`;
      const cut = budgetLines(
        full,
        offset ?? 0,
        budget,
        (next) => `continue with browser_read_markdown offset=${next}`,
      );
      return textResult(cut.text);
    },
  });

  const text = defineTool({
    name: 'browser_get_text',
    title: 'Get text',
    description:
      'The visible text of the page, of one element, or of each element a selector matches (at most 1000). ' +
      `At most ${budget} bytes a call; "[truncated: …]" gives the offset for the rest.`,
    inputSchema: z.strictObject({
      target: targetArg('Element(s) to read (default: the whole page)').optional(),
      offset: offsetArg(),
    }),
    annotations: OPEN_WORLD_HINTS.readOnly,
    handler: async ({ target, offset }) => {
      const tab = await tabToRead(ctx);
      let texts: string[];
      try {
        if (!target)
          texts = [
            // biome-ignore lint/performance/useDomNodeTextContent: innerText is the visible text, which is what is asked for
            await withTimeout('reading the text', ms, tab.page.locator('body').innerText({ timeout: ms })),
          ];
        else if (REF_PATTERN.test(target))
          // biome-ignore lint/performance/useDomNodeTextContent: innerText is the visible text, which is what is asked for
          texts = [await (await locate(tab, target)).innerText({ timeout: ms })];
        else {
          const locator = tab.page.locator(target);
          const count = await locator.count().catch((error: unknown) => {
            throw new ToolError(
              `target: "${target.slice(0, 200)}" is not a valid selector (${browserError('selector', error).message})`,
            );
          });
          if (count === 0)
            throw new ToolError(`target: no element matches selector "${target.slice(0, 200)}"`);
          texts = await withTimeout(
            'reading the text',
            ms,
            locator.evaluateAll(
              // biome-ignore lint/performance/useDomNodeTextContent: innerText is the visible text, which is what is asked for
              (els, max) => els.slice(0, max).map((e) => (e as HTMLElement).innerText ?? e.textContent ?? ''),
              MAX_ELEMENTS,
            ),
          );
          if (count > MAX_ELEMENTS)
            texts.push(`[${count - MAX_ELEMENTS} more elements match; use a more specific selector]`);
        }
      } catch (error) {
        throw browserError(`Reading the text${target ? ` of ${target}` : ''}`, error, ms);
      }
      const joined = untrustedText(texts.map((t) => t.trim()).join('\n\n'));
      const full = `${await pageLine(tab)}\n\n${joined || '(no text)'}`;
      const cut = budgetLines(
        full,
        offset ?? 0,
        budget,
        (next) =>
          `continue with browser_get_text offset=${next}${target ? ` target=${JSON.stringify(target)}` : ''}`,
      );
      return textResult(cut.text);
    },
  });
  return [markdown, text];
}
