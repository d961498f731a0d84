/**
 * The element count, title and identity of a tab's current document, read before a snapshot (the
 * count decides between a snapshot and an outline) and after it (the title for the result's page
 * line, and proof that the snapshot came from the same document).
 *
 * Read in an isolated world, where the page's scripts cannot reach the DOM methods and globals the
 * expression uses: a page cannot fake its element count to slip past the element limit, break every
 * snapshot with a throwing `performance` getter, or make each document look new. The world is
 * Playwright's utility world (one raw evaluation, nothing to create; playwright-patches.ts), or,
 * when Playwright's in-process objects are out of reach, one of our own (CDP
 * `Page.createIsolatedWorld` on a session of the tab's own, made as each document commits). Never
 * `page.evaluate`: it runs in the page's main world, after injecting Playwright's UtilityScript
 * there (20–30 ms of every navigate + snapshot).
 */
import type { CDPSession } from 'playwright-core';
import { utilityWorld } from '../browser/playwright-patches.js';
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

/** Name of our isolated world (visible to nothing in the page). */
const WORLD = '__refmcp_page_facts';

/** A tab's CDP session, main frame, and our world's context in its current document. */
interface FactsSession {
  cdp: CDPSession;
  frameId: string;
  world?: Promise<number>;
}

/** Our world in the main frame's current document (its execution context id). */
function createWorld(facts: FactsSession): Promise<number> {
  const world = facts.cdp
    .send('Page.createIsolatedWorld', { frameId: facts.frameId, worldName: WORLD })
    .then((created) => created.executionContextId);
  world.catch(() => {
    if (facts.world === world) facts.world = undefined;
  });
  return world;
}

/** The tab's facts session, opened on first use and kept with the tab (it ends with the page). */
const sessions = new WeakMap<Tab, Promise<FactsSession>>();

function session(tab: Tab): Promise<FactsSession> {
  let opened = sessions.get(tab);
  if (!opened) {
    opened = (async () => {
      const cdp = await tab.page.context().newCDPSession(tab.page);
      const { frameTree } = await cdp.send('Page.getFrameTree');
      const facts: FactsSession = { cdp, frameId: frameTree.frame.id };
      // A new document gets its world as soon as it is committed, while it loads: asking the old
      // document's context first would take 30–40 ms to fail.
      tab.page.on('framenavigated', (frame) => {
        if (frame === tab.page.mainFrame()) facts.world = createWorld(facts);
      });
      return facts;
    })();
    // A failed attach is not kept: the next call tries again.
    opened.catch(() => sessions.delete(tab));
    sessions.set(tab, opened);
  }
  return opened;
}

/** CDP's answer for a context that no longer exists (its document was replaced). */
const CONTEXT_GONE = /Cannot find context with specified id|Execution context was destroyed/i;

/**
 * Element count, title and identity of `tab`'s current document. Rejects with the browser's
 * message when the page closed or kept replacing its document; the caller retries or reports it.
 */
export async function pageFacts(tab: Tab): Promise<PageFacts> {
  const inUtilityWorld = utilityWorld(tab.page);
  return factsOf(inUtilityWorld ? await inUtilityWorld(EXPRESSION) : await inOwnWorld(tab));
}

/** The facts' values, checked. */
function factsOf(value: unknown): PageFacts {
  if (
    !Array.isArray(value) ||
    typeof value[0] !== 'number' ||
    typeof value[1] !== 'string' ||
    typeof value[2] !== 'number'
  )
    throw new Error('the page answered the element count with something else');
  return { elements: value[0], title: value[1], document: value[2] };
}

/** The expression's value in our own isolated world (when Playwright's is out of reach). */
async function inOwnWorld(tab: Tab): Promise<unknown> {
  const facts = await session(tab);
  for (let attempt = 1; ; attempt++) {
    facts.world ??= createWorld(facts);
    const world = facts.world;
    const reply = await facts.cdp
      .send('Runtime.evaluate', {
        expression: EXPRESSION,
        contextId: await world,
        returnByValue: true,
        silent: true,
      })
      .catch((error: unknown) => {
        // A new document the navigation event has not told of yet: make a world in it (a few times at most).
        if (attempt >= 3 || !CONTEXT_GONE.test(String((error as Error)?.message ?? error))) throw error;
        if (facts.world === world) facts.world = undefined;
        return undefined;
      });
    if (!reply) continue;
    if (reply.exceptionDetails)
      throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return reply.result.value as unknown;
  }
}
