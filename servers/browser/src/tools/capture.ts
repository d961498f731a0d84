/**
 * browser_take_screenshot and browser_pdf_save. Images come back inline (and as a screenshot://
 * resource); with `filename` they are also saved — only inside --output-dir (case BR-03), like PDFs.
 */
import { safeString, z } from '@refmcp/shared/schema';
import {
  defineTool,
  OPEN_WORLD_HINTS,
  type ToolDefinition,
  ToolError,
  type ToolResult,
  withResourceLinks,
} from '@refmcp/shared/server';
import { browserError } from '../browser/errors.js';
import { locate } from '../browser/target.js';
import { writeOutputFile } from '../output.js';
import { type BoundedShot, fullPageScreenshot, MAX_IMAGE_SIDE } from '../snapshot/bounded-screenshot.js';
import { activeTab, type Ctx, pageLine } from './context.js';
import { elementArg, targetArg } from './snapshot.js';

/** Largest image returned inline, bytes; bigger ones are served as a resource or saved. */
const MAX_INLINE_IMAGE = 3 * 1024 * 1024;

const filenameArg = (what: string) =>
  safeString({ max: 4096, min: 1 }).describe(`${what} file name in the output directory`);

export function captureTools(ctx: Ctx): ToolDefinition[] {
  const ms = ctx.config.timeouts.snapshot;
  const outputNote = ctx.config.outputDir
    ? `Files are saved only under the output directory ${ctx.config.outputDir.describe()}.`
    : 'No output directory is configured: nothing can be saved.';

  const screenshot = defineTool({
    name: 'browser_take_screenshot',
    title: 'Take a screenshot',
    description:
      'Screenshot of the viewport, full page or one element, as an image (also a screenshot:// resource); ' +
      `a side over ${MAX_IMAGE_SIDE} px is scaled down (the result says so). For refs use browser_snapshot. ${outputNote}`,
    inputSchema: z.strictObject({
      type: z.enum(['png', 'jpeg']).optional().describe('Image format (default png)'),
      filename: filenameArg('Also save the image to this').optional(),
      element: elementArg(),
      target: targetArg('Only this element').optional(),
      fullPage: z.boolean().optional().describe('The whole scrollable page instead of the viewport'),
    }),
    annotations: OPEN_WORLD_HINTS.readOnly,
    handler: async ({ type, filename, element, target, fullPage }) => {
      if (fullPage && target)
        throw new ToolError('fullPage: cannot be combined with target (an element screenshot)');
      const tab = await activeTab(ctx);
      const format = type ?? (filename && /\.jpe?g$/i.test(filename) ? 'jpeg' : 'png');
      const options = {
        type: format,
        timeout: ms,
        ...(format === 'jpeg' ? { quality: 80 } : {}),
        animations: 'disabled' as const,
      };
      let shot: BoundedShot;
      try {
        shot = target
          ? { data: await (await locate(tab, target)).screenshot(options) }
          : fullPage
            ? await fullPageScreenshot(tab.page, format, () =>
                tab.page.screenshot({ ...options, fullPage: true }),
              )
            : { data: await tab.page.screenshot({ ...options, fullPage: false }) };
      } catch (error) {
        throw browserError(`Screenshot${target ? ` of ${element ?? target}` : ''}`, error, ms);
      }
      const data = shot.data;
      const mimeType = format === 'jpeg' ? 'image/jpeg' : 'image/png';
      const what = target ? `element ${element ?? target}` : fullPage ? 'full page' : 'viewport';
      const uri = ctx.resources.addScreenshot(data, mimeType, `${what} of ${tab.page.url().slice(0, 300)}`);
      const lines = [
        `Screenshot of the ${what} (${data.length} bytes, ${mimeType}) — resource ${uri}`,
        await pageLine(tab),
      ];
      if (shot.scaled) {
        const { from, to } = shot.scaled;
        lines.push(
          `Scaled down to about ${to.width}×${to.height} px from ${from.width}×${from.height} (hosts reject images over ${MAX_IMAGE_SIDE} px on a side); for detail, screenshot a region with target=<ref> or scroll and take the viewport.`,
        );
      }
      if (filename) lines.push(`Saved to ${await writeOutputFile(ctx.config.outputDir, filename, data)}`);
      const inline = data.length <= MAX_INLINE_IMAGE;
      if (!inline)
        lines.push(
          `Too large to return inline (over ${MAX_INLINE_IMAGE} bytes): read ${uri} or save it with filename.`,
        );
      const result: ToolResult = { content: [{ type: 'text', text: lines.join('\n') }] };
      if (inline) result.content.push({ type: 'image', data: data.toString('base64'), mimeType });
      // The screenshot:// resource it was kept as, so a host can open or attach it without another call.
      return withResourceLinks(result, [
        {
          uri,
          name: uri.slice('screenshot://'.length),
          title: `Screenshot of the ${what}`,
          mimeType,
          size: data.length,
        },
      ]);
    },
  });

  const pdf = defineTool({
    name: 'browser_pdf_save',
    title: 'Save as PDF',
    description: `Print the current page to a PDF file (headless only). ${outputNote}`,
    inputSchema: z.strictObject({ filename: filenameArg('PDF') }),
    annotations: OPEN_WORLD_HINTS.destructiveIdempotent,
    handler: async ({ filename }) => {
      if (!ctx.config.outputDir) await writeOutputFile(undefined, filename, '');
      if (!ctx.config.headless)
        throw new ToolError('PDF printing works only in headless mode (the operator started --headed)');
      const tab = await activeTab(ctx);
      let data: Buffer;
      try {
        data = await tab.page.pdf({ printBackground: true });
      } catch (error) {
        throw browserError('Printing to PDF', error, ms);
      }
      const saved = await writeOutputFile(ctx.config.outputDir, filename, data);
      return {
        content: [
          {
            type: 'text',
            text: `Saved the page as PDF (${data.length} bytes) to ${saved}\n${await pageLine(tab)}`,
          },
        ],
      };
    },
  });
  return [screenshot, pdf];
}
