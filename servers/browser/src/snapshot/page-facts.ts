/**
 * The element count, title and identity of a tab's current document, read before a snapshot (the
 * count decides between a snapshot and an outline) and after it (the title for the result's page
 * line, and proof that the snapshot came from the same document).
 *
 * Read with one raw CDP `Runtime.evaluate` on a CDP session of the tab's own (opened once per tab),
 * not `page.evaluate`: Playwright's evaluate first injects its UtilityScript into every new
 * document's main world, and after a navigation that injection (compiling it in the renderer) cost
 * 20–30 ms of every navigate + snapshot, for an expression that needs none of it. The expression
 * runs in the page's main world either way, as before.
 */
import type { CDPSession } from 'playwright-core';
import type { Tab } from '../browser/tab.js';

export interface PageFacts {
  /** Elements in the document (`getElementsByTagName("*")`). */
  elements: number;
  title: string;
  /** When the document was created (`performance.timeOrigin`, ms): differs for every document. */
  document: number;
}

const EXPRESSION =
  '[document.getElementsByTagName("*").length, String(document.title), performance.timeOrigin]';

/** The tab's CDP session, opened on first use and kept with the tab (it ends with the page). */
const sessions = new WeakMap<Tab, Promise<CDPSession>>();

function session(tab: Tab): Promise<CDPSession> {
  let cdp = sessions.get(tab);
  if (!cdp) {
    cdp = tab.page.context().newCDPSession(tab.page);
    // A failed attach is not kept: the next call tries again.
    cdp.catch(() => sessions.delete(tab));
    sessions.set(tab, cdp);
  }
  return cdp;
}

/**
 * Element count, title and identity of `tab`'s current document. Rejects with the browser's message when the
 * document went away meanwhile (e.g. "Execution context was destroyed", "Cannot find default
 * execution context") or the page closed; the caller retries or reports it.
 */
export async function pageFacts(tab: Tab): Promise<PageFacts> {
  const cdp = await session(tab);
  const reply = await cdp.send('Runtime.evaluate', {
    expression: EXPRESSION,
    returnByValue: true,
    silent: true,
  });
  if (reply.exceptionDetails)
    throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
  const value = reply.result.value as unknown;
  if (
    !Array.isArray(value) ||
    typeof value[0] !== 'number' ||
    typeof value[1] !== 'string' ||
    typeof value[2] !== 'number'
  )
    throw new Error('the page answered the element count with something else');
  return { elements: value[0], title: value[1], document: value[2] };
}
