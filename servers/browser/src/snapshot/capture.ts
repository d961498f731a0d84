/**
 * Taking a snapshot: Playwright's AI-mode accessibility snapshot (with refs that actions accept) of
 * the page or of one element, compacted, with invisible characters made visible, then cut to the
 * byte budget on a line boundary with an explicit marker saying how to get the rest (case BR-04).
 * The snapshot runs under a time budget; a page too big to snapshot in time is an error naming the
 * budget and the ways around it, never a hang or a crash.
 */
import { TimeoutError, ToolError, truncationMarker } from '@refmcp/shared/server';
import { browserError, isPlaywrightTimeout, withTimeout } from '../browser/errors.js';
import type { Tab } from '../browser/tab.js';
import { locate } from '../browser/target.js';
import { untrustedText } from '../sanitize.js';
import { compactSnapshot } from './compact.js';
import { pageOutline } from './outline.js';
import { pageFacts } from './page-facts.js';

export interface SnapshotRequest {
  /** A ref or selector: snapshot only this element's subtree. */
  target?: string;
  /** Limit the tree depth. */
  depth?: number;
}

export interface SnapshotLimits {
  /** Time budget of the snapshot, ms. */
  timeoutMs: number;
  /** Pages with more elements get an outline instead of a full snapshot. */
  maxElements: number;
}

/** Elements of the outline given for a page over the element limit. */
export const OUTLINE_ELEMENTS = 3000;

/** The snapshot text and whether it is a ref-less outline of a page over the element limit. */
export interface Snapshot {
  text: string;
  outline: boolean;
  elements: number;
  /** The page title, read with the element count (undefined for a target snapshot). */
  title?: string;
}

/**
 * Takes the compact snapshot of `tab` (whole text, no byte budget applied). A page over the element
 * limit (without target) gets an outline of its first elements with a truncation marker instead.
 * Playwright waits for each iframe to show a document until its timeout, so the first attempt's
 * timeout scales with the page (5 s + 2 ms per element): a frame the browser blocked (file:,
 * chrome:) costs seconds, not the whole budget; a page that is merely slow gets a second attempt
 * with what is left of the budget.
 */
export async function takeSnapshot(
  tab: Tab,
  request: SnapshotRequest,
  limits: SnapshotLimits,
): Promise<Snapshot> {
  // A page that navigates on its own (meta refresh, a script setting location) destroys the
  // document being read: wait for the next one and read that instead (a few times at most).
  for (let attempt = 1; ; attempt++) {
    try {
      return await snapshotOnce(tab, request, limits);
    } catch (error) {
      if (attempt >= 3 || !NAVIGATED.test(String((error as Error)?.message ?? error))) throw error;
      await tab.page.waitForLoadState('domcontentloaded', { timeout: limits.timeoutMs }).catch(() => {});
    }
  }
}

/** First snapshot wait (ms, plus 1 ms per element) in a document with a frame already waited out. */
const STUCK_FRAME_WAIT_MS = 300;

/** Playwright's and CDP's messages for a document replaced while it was being read. */
const NAVIGATED =
  /Execution context was destroyed|because of a navigation|Frame was detached|Cannot find default execution context|Inspected target navigated/i;

async function snapshotOnce(tab: Tab, request: SnapshotRequest, limits: SnapshotLimits): Promise<Snapshot> {
  const what = request.target ? `snapshot of ${request.target}` : 'accessibility snapshot';
  const { timeoutMs, maxElements } = limits;
  try {
    // The element count first: a page over the limit gets an outline instead.
    const facts = request.target
      ? undefined
      : await withTimeout('counting the elements of the page', timeoutMs, pageFacts(tab));
    const elements = facts?.elements ?? 0;
    if (!request.target && elements > maxElements) {
      const outline = await withTimeout('page outline', timeoutMs, pageOutline(tab.page, OUTLINE_ELEMENTS));
      const marker = truncationMarker(
        `the page has ${elements} elements, over the ${maxElements}-element snapshot limit; this is a ref-less outline of the first ${outline.covered}`,
        'act with selectors (#id, CSS), snapshot a region with target=<selector>, or read it with browser_get_text / browser_read_markdown',
      );
      return {
        text: `${marker}\n${untrustedText(outline.text)}`,
        outline: true,
        elements,
        title: facts?.title,
      };
    }
    const started = Date.now();
    const locator = request.target ? await locate(tab, request.target) : undefined;
    const snap = (timeout: number) => {
      const options = { mode: 'ai' as const, timeout, ...(request.depth ? { depth: request.depth } : {}) };
      return locator ? locator.ariaSnapshot(options) : tab.page.ariaSnapshot(options);
    };
    // First try with a wait scaled to the page (frames that never load cost seconds, not the whole
    // budget); a page merely slow to snapshot (a busy machine) gets the rest of the budget. In a
    // document where a frame was already waited out, the first try is short: Playwright polls each
    // iframe for a document until the timeout, and that frame will not get one by waiting again.
    const stuck = !request.target && facts !== undefined && tab.stuckFrameDocument === facts.document;
    const scaled = Math.min(timeoutMs, 5000 + elements * 2);
    const first = request.target
      ? timeoutMs
      : stuck
        ? Math.min(scaled, STUCK_FRAME_WAIT_MS + elements)
        : scaled;
    const raw = await withTimeout(
      what,
      timeoutMs,
      snap(first).catch((error: unknown) => {
        const left = timeoutMs - (Date.now() - started);
        if (!isPlaywrightTimeout(error) || left < 1000) throw error;
        return snap(left);
      }),
    );
    // Took (nearly) the whole first wait and still succeeded: an iframe was waited out, not the page.
    if (!request.target && facts && !stuck && Date.now() - started >= first - 250)
      tab.stuckFrameDocument = facts.document;
    // The title is read after the snapshot, from the same document: a page that navigated on its own
    // between the count and the snapshot (meta refresh) is read again rather than given one
    // document's count and another's snapshot.
    const title = facts && (await sameDocumentTitle(tab, facts.document, what, timeoutMs));
    const text = untrustedText(compactSnapshot(raw));
    tab.refs.issue(tab, text);
    return { text, outline: false, elements, title };
  } catch (error) {
    if (error instanceof TimeoutError || isPlaywrightTimeout(error))
      throw new ToolError(
        `${what} timed out after ${timeoutMs} ms: the page is too large to snapshot within the budget; snapshot a region with target=<ref or selector>, ` +
          'limit depth, or read it with browser_get_text / browser_read_markdown',
      );
    throw browserError(what, error, timeoutMs);
  }
}

/** The title of `tab`'s document, which must still be `document` (else it throws NAVIGATED's message). */
async function sameDocumentTitle(
  tab: Tab,
  document: number,
  what: string,
  timeoutMs: number,
): Promise<string> {
  const now = await withTimeout(what, timeoutMs, pageFacts(tab));
  if (now.document !== document)
    throw new Error('Execution context was destroyed: the page navigated while it was read');
  return now.title;
}

export interface BudgetedText {
  text: string;
  /** Line to continue from, when lines were left out. */
  nextOffset?: number;
  totalLines: number;
}

/**
 * Lines `offset…` of `full` that fit in `maxBytes` (UTF-8, whole lines; at least one line, itself
 * cut if longer than the budget), followed by a `[truncated: …]` marker when any were left out.
 */
export function budgetLines(
  full: string,
  offset: number,
  maxBytes: number,
  continueHow: (next: number) => string,
): BudgetedText {
  const lines = full.split('\n');
  const totalLines = lines.length;
  if (offset >= totalLines && totalLines > 0)
    throw new ToolError(`offset: ${offset} is past the end (the snapshot has ${totalLines} lines)`);
  const out: string[] = [];
  let used = 0;
  let i = offset;
  for (; i < totalLines; i++) {
    const line = lines[i] ?? '';
    const bytes = Buffer.byteLength(line, 'utf8') + 1;
    if (used + bytes > maxBytes) {
      if (out.length === 0) {
        out.push(
          Buffer.from(line, 'utf8')
            .subarray(0, maxBytes)
            .toString('utf8')
            .replace(/\uFFFD$/, ''),
        );
        i++;
      }
      break;
    }
    out.push(line);
    used += bytes;
  }
  if (i >= totalLines) return { text: out.join('\n'), totalLines };
  const restBytes = lines.slice(i).reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0);
  const marker = truncationMarker(
    `${totalLines - i} more lines (${restBytes} bytes) of ${totalLines}`,
    continueHow(i),
  );
  return { text: `${out.join('\n')}\n${marker}`, nextOffset: i, totalLines };
}
