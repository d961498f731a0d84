/**
 * Chromium compiles Playwright's injected script once per renderer process instead of once per
 * document.
 *
 * Before the first snapshot or action in a new document, Playwright evaluates its injected script
 * (≈330 KB of JavaScript) there. The source Playwright builds ends with the frame's document
 * sequence number (`frameSeq`, which names snapshot refs `f<N>e<M>` so a ref from an older
 * document never matches an element of a newer one), so every navigation sends V8 a different
 * source text, V8's compilation cache (keyed by the source) never hits, and the renderer parses and
 * compiles the whole script again: measured here ≈ 40 ms of renderer CPU per navigation.
 *
 * {@link reuseInjectedScript} makes Playwright build the same source for every document (`frameSeq`
 * reads 0 while it does) and gives the created object its real sequence number right after
 * (`_frameSeq`, which the injected script reads only when it names refs), before anything can use
 * it. Refs are named exactly as before. Measured with the bench's navigate + snapshot of a local
 * page, 40 alternated rounds: Chromium CPU per round 233–257 → 207–222 ms, wall time −12%.
 *
 * The same hook gives each new document of an iframe a number of its own, as Playwright does itself
 * only for the main frame's documents: Playwright keeps an iframe's number when the iframe navigates,
 * so the refs of its old document named elements of the new one (a ref to "Save draft" clicked
 * "Delete account"; so does stock Playwright). The number changes when the new document's injected
 * script is created, before its first snapshot; the old refs then name no frame and are refused.
 *
 * This reaches into Playwright's in-process server objects (playwright-core is pinned to 1.65.1):
 * `page._connection.toImpl(page)` gives the server page, whose main frame's execution context has
 * the `injectedScript()` method patched here (on its prototype, once per process). If any of that
 * is missing (another Playwright), nothing is changed and the result says so: Playwright then works
 * as shipped, only slower. The browser tests fail when the pinned Playwright no longer takes it.
 */
import type { Page } from 'playwright-core';

const PATCHED = Symbol.for('refmcp.browser.reuseInjectedScript');

/** How long to wait for a new page's first execution context, ms. */
const CONTEXT_WAIT_MS = 10_000;

interface ServerHandle {
  evaluate(fn: (injected: { _frameSeq: number }, seq: number) => void, seq: number): Promise<unknown>;
}

/** What this module relies on of Playwright's Frame. */
interface ServerFrame {
  seq: number;
  parentFrame?(): unknown;
  _currentDocument?: { documentId?: string };
  _page?: { frameManager?: { _allocateFrameSeq?(): number } };
}

/** What this module relies on of Playwright's FrameExecutionContext. */
interface ServerContext {
  frame: ServerFrame;
  _injectedScriptPromise?: Promise<ServerHandle>;
}

/** The document of each iframe whose number was last looked at (see the module comment). */
const numberedDocuments = new WeakMap<ServerFrame, string | undefined>();

/** Gives `frame` a new number when it is an iframe showing another document than when last seen. */
function renumberNewIframeDocument(frame: ServerFrame): void {
  if (!frame.parentFrame?.()) return; // the main frame: Playwright numbers its documents itself
  const document = frame._currentDocument?.documentId;
  const seen = numberedDocuments.has(frame);
  const before = numberedDocuments.get(frame);
  numberedDocuments.set(frame, document);
  const allocate = frame._page?.frameManager?._allocateFrameSeq;
  if (seen && before !== document && typeof allocate === 'function')
    frame.seq = allocate.call(frame._page?.frameManager);
}

type InjectedScriptMethod = (this: ServerContext) => Promise<ServerHandle>;

interface ServerContextPrototype {
  injectedScript?: InjectedScriptMethod;
  [PATCHED]?: true;
}

/**
 * The server-side execution context of `page`'s main frame: null when Playwright has no such
 * objects, undefined when none came within the wait.
 */
async function mainContext(page: Page): Promise<ServerContext | null | undefined> {
  const connection = (page as unknown as { _connection?: { toImpl?: (object: unknown) => unknown } })
    ._connection;
  const serverPage = connection?.toImpl?.(page) as
    | { mainFrame?: () => { mainContext?: () => Promise<unknown> } | undefined }
    | undefined;
  const frame = serverPage?.mainFrame?.();
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

/** Playwright's `injectedScript()` with a source that is the same for every document. */
function sameSourceForEveryDocument(original: InjectedScriptMethod): InjectedScriptMethod {
  return function injectedScript(this: ServerContext): Promise<ServerHandle> {
    if (this._injectedScriptPromise) return this._injectedScriptPromise;
    const frame = this.frame;
    renumberNewIframeDocument(frame);
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

/** What {@link reuseInjectedScript} found: patched (now or before), a Playwright without the internals it
 * relies on, or a page whose execution context never came (closed, crashed): try another page. */
export type ReuseResult = 'patched' | 'unsupported' | 'no-context';

/**
 * Patches Playwright (once per process) so the injected script's source is the same for every
 * document (see the module comment). `page` is any open page of the browser. Never rejects.
 */
export async function reuseInjectedScript(page: Page): Promise<ReuseResult> {
  try {
    const context = await mainContext(page);
    if (context === null) return 'unsupported';
    if (!context) return 'no-context';
    if (typeof context.frame?.seq !== 'number') return 'unsupported';
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
