/**
 * Three patches to how Playwright numbers documents and injects its script: one for speed, two so
 * that a snapshot ref never names another element than the one it was issued for.
 *
 * 1. Chromium compiles Playwright's injected script once per renderer process, not once per
 *    document. Before the first snapshot or action in a new document, Playwright evaluates its
 *    injected script (≈330 KB of JavaScript) there, and the source it builds ends with the frame's
 *    document number (`frameSeq`, the `f<N>` of refs `f<N>e<M>`): every navigation sent V8 a
 *    different source text, V8's compilation cache (keyed by the source) never hit, and the renderer
 *    parsed and compiled the whole script again — ≈ 40 ms of renderer CPU per navigation here. Now
 *    `frameSeq` reads 0 while Playwright builds the source, and the created object gets its real
 *    number right after (`_frameSeq`, read only when naming refs), before anything can use it.
 *    Measured with the bench's navigate + snapshot of a local page, 40 alternated rounds: Chromium
 *    CPU per round 233–257 → 207–222 ms, wall time −12%.
 * 2. Every new document gets a number of its own. Playwright renumbers only the main frame, and not
 *    when it leaves about:blank: an iframe, or a popup opened blank and written to, kept its number
 *    when it navigated, so the refs of its old document named elements of the new one (a ref to
 *    "Save draft" clicked "Delete account"; so does stock Playwright). The number changes when the
 *    new document's injected script is created, before its first snapshot; the old refs then name
 *    no frame and are refused.
 * 3. Numbers are unique in the process, not per tab: Playwright numbered each tab's frames from 0,
 *    so two tabs (or a browser before and after a restart) issued the same refs for different
 *    elements. Only the first tab's first document still has unprefixed refs (`e12`).
 *
 * This reaches into Playwright's in-process server objects (playwright-core is pinned to 1.65.1):
 * `page._connection.toImpl(page)` gives the server page; the prototypes of its main frame's
 * execution context (`injectedScript()`) and of its frame manager (`_allocateFrameSeq()`) are
 * patched, once per process. If any of that is missing (another Playwright), nothing is changed and
 * the result says so: Playwright then works as shipped, only slower. The browser tests fail when the
 * pinned Playwright no longer takes them.
 */
import type { Page } from 'playwright-core';

const PATCHED = Symbol.for('refmcp.browser.playwrightPatches');

/** How long to wait for a new page's first execution context, ms. */
const CONTEXT_WAIT_MS = 10_000;

interface ServerHandle {
  evaluate(fn: (injected: { _frameSeq: number }, seq: number) => void, seq: number): Promise<unknown>;
}

/** What this module relies on of Playwright's FrameManager (one per page). */
interface ServerFrameManager {
  _nextFrameSeq?: number;
  _allocateFrameSeq?(): number;
  [PATCHED]?: true;
}

/** What this module relies on of Playwright's Frame. */
interface ServerFrame {
  seq: number;
  _currentDocument?: { documentId?: string };
  _page?: { frameManager?: ServerFrameManager };
}

/** What this module relies on of Playwright's FrameExecutionContext. */
interface ServerContext {
  frame: ServerFrame;
  _injectedScriptPromise?: Promise<ServerHandle>;
}

type InjectedScriptMethod = (this: ServerContext) => Promise<ServerHandle>;

interface ServerContextPrototype {
  injectedScript?: InjectedScriptMethod;
  [PATCHED]?: true;
}

/** What this module relies on of Playwright's server-side main frame. */
interface ServerMainFrame {
  mainContext?(): Promise<unknown>;
  utilityContext?(): Promise<{ rawEvaluateJSON?(expression: string): Promise<unknown> }>;
}

/** Playwright's server-side main frame of `page`, when Playwright runs in this process as expected. */
function serverMainFrame(page: Page): ServerMainFrame | undefined {
  try {
    const connection = (page as unknown as { _connection?: { toImpl?: (object: unknown) => unknown } })
      ._connection;
    const serverPage = connection?.toImpl?.(page) as { mainFrame?: () => ServerMainFrame } | undefined;
    return serverPage?.mainFrame?.();
  } catch {
    return undefined;
  }
}

/**
 * Evaluates `expression` (returning JSON) in Playwright's utility world of `page`'s main frame: an
 * isolated world Playwright keeps in every document, so the page's scripts cannot reach what it
 * uses, and one round trip with no world of our own to create. Undefined when Playwright has no
 * such objects (then the caller makes its own isolated world). Rejects with Playwright's
 * "Execution context was destroyed" when the document went away meanwhile.
 */
export function utilityWorld(page: Page): ((expression: string) => Promise<unknown>) | undefined {
  const frame = serverMainFrame(page);
  if (typeof frame?.utilityContext !== 'function') return undefined;
  return async (expression) => {
    const context = await frame.utilityContext?.();
    if (typeof context?.rawEvaluateJSON !== 'function')
      throw new Error('Playwright has no raw evaluation in its utility world');
    return context.rawEvaluateJSON(expression);
  };
}

/**
 * The server-side execution context of `page`'s main frame: null when Playwright has no such
 * objects, undefined when none came within the wait.
 */
async function mainContext(page: Page): Promise<ServerContext | null | undefined> {
  const frame = serverMainFrame(page);
  if (typeof frame?.mainContext !== 'function') return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CONTEXT_WAIT_MS);
    timer.unref();
  });
  try {
    return (await Promise.race([frame.mainContext(), timeout])) as ServerContext | undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The next frame document number, for every page of the process (patch 3). */
let nextSeq = 1;

/** Frame numbers from one counter for all pages (patch 3); false when the manager is not as expected. */
function numberAcrossPages(manager: ServerFrameManager | undefined): boolean {
  const prototype = manager && (Object.getPrototypeOf(manager) as ServerFrameManager);
  if (!prototype || typeof prototype._allocateFrameSeq !== 'function') return false;
  if (prototype[PATCHED]) return true;
  prototype._allocateFrameSeq = function allocateFrameSeq(this: ServerFrameManager): number {
    const seq = Math.max(nextSeq, this._nextFrameSeq ?? 0);
    nextSeq = seq + 1;
    this._nextFrameSeq = nextSeq;
    return seq;
  };
  prototype[PATCHED] = true;
  return true;
}

/** The document and number each frame had when its injected script was last made (patch 2). */
const numbered = new WeakMap<ServerFrame, { document: string | undefined; seq: number }>();

/**
 * Gives `frame` a new number when it shows another document than when its injected script was last
 * made and Playwright kept its number (every iframe navigation; a main frame leaving about:blank).
 */
function numberNewDocument(frame: ServerFrame): void {
  const document = frame._currentDocument?.documentId;
  const last = numbered.get(frame);
  const manager = frame._page?.frameManager;
  if (last && last.document !== document && last.seq === frame.seq && manager?._allocateFrameSeq)
    frame.seq = manager._allocateFrameSeq();
  numbered.set(frame, { document, seq: frame.seq });
}

/** Playwright's `injectedScript()` with a source that is the same for every document (patches 1, 2). */
function sameSourceForEveryDocument(original: InjectedScriptMethod): InjectedScriptMethod {
  return function injectedScript(this: ServerContext): Promise<ServerHandle> {
    if (this._injectedScriptPromise) return this._injectedScriptPromise;
    const frame = this.frame;
    numberNewDocument(frame);
    const seq = frame.seq;
    // Playwright builds the source synchronously in this call: it reads 0 while it does.
    frame.seq = 0;
    let created: Promise<ServerHandle>;
    try {
      created = original.call(this);
    } finally {
      frame.seq = seq;
    }
    if (seq === 0) return created;
    const named = created.then(async (handle) => {
      await handle.evaluate((injected, documentSeq) => {
        injected._frameSeq = documentSeq;
      }, seq);
      return handle;
    });
    this._injectedScriptPromise = named;
    return named;
  };
}

/** What {@link patchPlaywright} found: patched (now or before), a Playwright without the internals it
 * relies on, or a page whose execution context never came (closed, crashed): try another page. */
export type PatchResult = 'patched' | 'unsupported' | 'no-context';

/**
 * Patches Playwright (once per process; see the module comment). `page` is any open page of the
 * browser. Never rejects.
 */
export async function patchPlaywright(page: Page): Promise<PatchResult> {
  try {
    const context = await mainContext(page);
    if (context === null) return 'unsupported';
    if (!context) return 'no-context';
    if (typeof context.frame?.seq !== 'number') return 'unsupported';
    if (!numberAcrossPages(context.frame._page?.frameManager)) return 'unsupported';
    const prototype = Object.getPrototypeOf(context) as ServerContextPrototype;
    if (prototype[PATCHED]) return 'patched';
    const original = prototype.injectedScript;
    if (typeof original !== 'function') return 'unsupported';
    prototype.injectedScript = sameSourceForEveryDocument(original);
    prototype[PATCHED] = true;
    return 'patched';
  } catch {
    return 'no-context';
  }
}
