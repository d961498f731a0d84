/**
 * browser_snapshot (the page as an accessibility tree with refs, within the byte budget, pageable
 * by line offset or saved whole to the output directory) and browser_wait_for.
 */
import { safeString, z } from '@refmcp/shared/schema';
import {
  defineTool,
  OPEN_WORLD_HINTS,
  type ToolDefinition,
  ToolError,
  textResult,
} from '@refmcp/shared/server';
import { browserError } from '../browser/errors.js';
import { writeOutputFile } from '../output.js';
import { untrustedText } from '../sanitize.js';
import { budgetLines, takeSnapshot } from '../snapshot/capture.js';
import { activeTab, type Ctx, DIALOG, pageLine, snapshotLimits, untilDialog } from './context.js';

export const targetArg = (what: string) =>
  safeString({ max: 4096, min: 1 }).describe(`${what}: ref or CSS selector`);

export const elementArg = () =>
  safeString({ max: 1000 }).optional().describe('Label for the log (not used to find it)');

export function snapshotTools(ctx: Ctx): ToolDefinition[] {
  const budget = ctx.config.maxSnapshotBytes;
  const snapshot = defineTool({
    name: 'browser_snapshot',
    title: 'Page snapshot',
    description:
      'The current page as an accessibility snapshot: one line per element ("- role "name" [state] [ref=e12]"). Pass a ref (e12; f1e3 inside a frame) from the latest snapshot as `target` to actions, or a unique CSS/Playwright selector. ' +
      `At most ${budget} bytes a call: a longer one ends with "[truncated: …]" giving the offset to continue from.`,
    inputSchema: z.strictObject({
      target: targetArg('Only this element and its descendants').optional(),
      depth: z.number().int().min(1).max(100).optional().describe('Limit the depth of the tree'),
      offset: z.number().int().min(0).optional().describe('Line to continue from ([truncated: …])'),
      filename: safeString({ max: 4096, min: 1 })
        .optional()
        .describe('Save it whole to this file (output directory) instead'),
    }),
    annotations: OPEN_WORLD_HINTS.readOnlyNonIdempotent,
    handler: async ({ target, depth, offset, filename }) => {
      const tab = await activeTab(ctx);
      const snap = await untilDialog(tab, takeSnapshot(tab, { target, depth }, snapshotLimits(ctx)));
      if (snap === DIALOG) {
        const dialog = tab.dialog;
        return textResult(
          `A ${dialog?.type() ?? ''} dialog opened: "${untrustedText(dialog?.message().slice(0, 500) ?? '')}"; no snapshot until it is handled with browser_handle_dialog.`,
        );
      }
      const full = snap.text;
      if (!target && !depth) tab.lastSnapshot = snap.outline ? undefined : full;
      const head = [await pageLine(tab, snap.title), ...ctx.session.takeNotices()];
      if (filename) {
        const saved = await writeOutputFile(ctx.config.outputDir, filename, full);
        const lines = full.split('\n').length;
        return textResult(
          `${head.join('\n')}\nSaved the snapshot (${lines} lines, ${Buffer.byteLength(full)} bytes) to ${saved}`,
        );
      }
      const cut = budgetLines(
        full,
        offset ?? 0,
        budget,
        (next) =>
          `continue with browser_snapshot offset=${next}${target ? ` target=${target}` : ''}, narrow with target=<ref> or depth, or save it whole with filename`,
      );
      return textResult(`${head.join('\n')}\nSnapshot${offset ? ` from line ${offset}` : ''}:\n${cut.text}`);
    },
  });

  const waitFor = defineTool({
    name: 'browser_wait_for',
    title: 'Wait for',
    description: 'Wait for text to appear (text) or disappear (textGone), or for time seconds.',
    inputSchema: z.strictObject({
      time: z.number().min(0).max(30).optional().describe('Seconds to wait'),
      text: safeString({ max: 1000, min: 1 }).optional().describe('Text to wait for'),
      textGone: safeString({ max: 1000, min: 1 }).optional().describe('Text to wait to disappear'),
      timeout: z
        .number()
        .min(0.1)
        .max(120)
        .optional()
        .describe('Seconds before giving up on text/textGone (default 5)'),
    }),
    annotations: OPEN_WORLD_HINTS.readOnly,
    handler: async ({ time, text, textGone, timeout }, { signal }) => {
      if (time === undefined && text === undefined && textGone === undefined)
        throw new ToolError('time, text or textGone: give at least one');
      // A pure time wait needs no page: it never starts the browser.
      const waitsOnPage = text !== undefined || textGone !== undefined;
      const tab = waitsOnPage ? await activeTab(ctx) : ctx.session.activeTab;
      const ms = Math.round((timeout ?? 5) * 1000);
      const done: string[] = [];
      if (time !== undefined) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, time * 1000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        done.push(`Waited ${time} s.`);
      }
      try {
        if (tab && text !== undefined) {
          await tab.page.getByText(text).first().waitFor({ state: 'visible', timeout: ms });
          done.push(`"${text}" is on the page.`);
        }
        if (tab && textGone !== undefined) {
          await tab.page.getByText(textGone).first().waitFor({ state: 'hidden', timeout: ms });
          done.push(`"${textGone}" is gone.`);
        }
      } catch (error) {
        throw browserError(
          `Waiting for ${text !== undefined ? `"${text}"` : `"${textGone}" to disappear`}`,
          error,
          ms,
        );
      }
      return textResult([...done, ...(tab ? [await pageLine(tab)] : [])].join('\n'));
    },
  });
  return [snapshot, waitFor];
}
